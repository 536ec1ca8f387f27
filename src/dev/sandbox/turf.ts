import type { WorldIndex } from './lookup.ts';
import { Rng, hashSeed } from './prng.ts';
import { DAY_MS } from './time.ts';
import { liveClanDays } from './turf-live.ts';
import { compareText } from './world/common.ts';
import { TURF_MAP_IDS, type World } from './world/types.ts';

/** Turf day 0 is this UTC date; a turf day is the number of whole UTC days since it. */
export const TURF_EPOCH_MS = Date.UTC(2026, 2, 17);
export const TURF_SEASON_DAYS = 28;
/** What the top five clans of a map earn for a finished day. */
export const TURF_RANK_REWARDS = [6_000, 4_000, 2_500, 1_500, 800] as const;

export interface TurfPlayerDay {
  readonly playerId: number;
  readonly playerName: string;
  readonly points: number;
  readonly kills: number;
  readonly deaths: number;
}

export interface TurfClanDay {
  readonly day: number;
  readonly mapId: number;
  readonly clanId: number;
  readonly clanName: string;
  readonly points: number;
  readonly kills: number;
  readonly deaths: number;
  readonly players: readonly TurfPlayerDay[];
}

export interface TurfTotals {
  readonly id: number;
  readonly name: string;
  readonly points: number;
  readonly kills: number;
  readonly deaths: number;
}

function byPoints(a: TurfTotals, b: TurfTotals): number {
  return b.points - a.points || a.id - b.id;
}

function total(
  rows: Iterable<{ id: number; name: string; points: number; kills: number; deaths: number }>,
): TurfTotals[] {
  const sums = new Map<number, { id: number; name: string; points: number; kills: number; deaths: number }>();
  for (const row of rows) {
    const sum = sums.get(row.id);
    if (sum) {
      sum.points += row.points;
      sum.kills += row.kills;
      sum.deaths += row.deaths;
    } else sums.set(row.id, { ...row });
  }
  return [...sums.values()].sort(byPoints);
}

/**
 * Turf war standings, computed per day from the seed (so any day can be asked for) and kept once made.
 * With a clock, today's standings are those of the day so far (`turf-live.ts`): they grow and change
 * while the sandbox runs, and are the whole day's once it has ended.
 */
export class TurfModel {
  readonly #days = new Map<number, readonly TurfClanDay[]>();
  readonly #earnings = new Map<number, ReadonlyMap<number, number>>();

  constructor(
    readonly world: World,
    readonly index: WorldIndex,
    /** The sandbox clock: with it, today's standings grow through the day (`turf-live.ts`). */
    readonly now?: () => number,
  ) {}

  dayOf(nowMs: number): number {
    return Math.max(0, Math.floor((nowMs - TURF_EPOCH_MS) / DAY_MS));
  }

  seasonStart(day: number): number {
    return day - (day % TURF_SEASON_DAYS);
  }

  /** Days of the season of `day`, from its first up to `day`. */
  seasonDays(day: number): number[] {
    const days: number[] = [];
    for (let d = this.seasonStart(day); d <= day; d++) days.push(d);
    return days;
  }

  clanDays(day: number): readonly TurfClanDay[] {
    let rows = this.#days.get(day);
    if (!rows) {
      rows = this.#make(day);
      this.#days.set(day, rows);
    }
    if (!this.now) return rows;
    const msIntoDay = this.now() - (TURF_EPOCH_MS + day * DAY_MS);
    return msIntoDay >= DAY_MS ? rows : liveClanDays(rows, this.world.seed, msIntoDay);
  }

  #make(day: number): TurfClanDay[] {
    const rng = new Rng(hashSeed(this.world.seed, 'turf', day));
    const rows: TurfClanDay[] = [];
    for (const mapId of TURF_MAP_IDS) {
      for (const clan of this.world.clans) {
        if (!rng.chance(0.7)) continue;
        const players: TurfPlayerDay[] = [];
        for (const member of clan.members) {
          if (!rng.chance(0.6)) continue;
          const kills = rng.int(0, 60);
          players.push({
            playerId: member.playerId,
            playerName: member.playerName,
            points: kills * rng.int(3, 9) + rng.int(0, 120),
            kills,
            deaths: rng.int(0, 50),
          });
        }
        if (players.length === 0) continue;
        players.sort((a, b) => b.points - a.points || a.playerId - b.playerId);
        rows.push({
          day,
          mapId,
          clanId: clan.id,
          clanName: clan.name,
          points: players.reduce((sum, p) => sum + p.points, 0),
          kills: players.reduce((sum, p) => sum + p.kills, 0),
          deaths: players.reduce((sum, p) => sum + p.deaths, 0),
          players,
        });
      }
    }
    return rows;
  }

  /** Clan totals over the given days (and one map, or all), points descending. */
  clanStandings(days: readonly number[], mapId?: number): TurfTotals[] {
    const rows = days
      .flatMap((day) => this.clanDays(day))
      .filter((r) => mapId === undefined || r.mapId === mapId);
    return total(
      rows.map((r) => ({
        id: r.clanId,
        name: r.clanName,
        points: r.points,
        kills: r.kills,
        deaths: r.deaths,
      })),
    );
  }

  /** Player totals over the given days (and one map, or all), points descending. */
  playerStandings(days: readonly number[], mapId?: number, clanId?: number): TurfTotals[] {
    const rows = days
      .flatMap((day) => this.clanDays(day))
      .filter(
        (r) => (mapId === undefined || r.mapId === mapId) && (clanId === undefined || r.clanId === clanId),
      );
    return total(
      rows.flatMap((r) =>
        r.players.map((p) => ({
          id: p.playerId,
          name: p.playerName,
          points: p.points,
          kills: p.kills,
          deaths: p.deaths,
        })),
      ),
    );
  }

  /** Who holds a map on `day`: the winner of the day before; nobody on a season's first day. */
  owner(day: number, mapId: number): TurfTotals | undefined {
    if (day === this.seasonStart(day)) return undefined;
    return this.clanStandings([day - 1], mapId)[0];
  }

  /** What a clan earned for a finished day, over every map. */
  clanEarnings(clanId: number, day: number): number {
    let earnings = this.#earnings.get(day);
    if (!earnings) {
      const sums = new Map<number, number>();
      for (const mapId of TURF_MAP_IDS) {
        this.clanStandings([day], mapId).forEach((row, position) => {
          sums.set(row.id, (sums.get(row.id) ?? 0) + (TURF_RANK_REWARDS[position] ?? 0));
        });
      }
      earnings = sums;
      this.#earnings.set(day, earnings);
    }
    return earnings.get(clanId) ?? 0;
  }

  /** The clan's earnings of a finished day, split among its players by points. */
  payouts(clanId: number, day: number): { playerId: number; playerName: string; kr: number }[] {
    const earned = this.clanEarnings(clanId, day);
    const players = this.playerStandings([day], undefined, clanId);
    const points = players.reduce((sum, p) => sum + p.points, 0);
    if (earned === 0 || points === 0) return [];
    return players
      .map((p) => ({ playerId: p.id, playerName: p.name, kr: Math.floor((earned * p.points) / points) }))
      .filter((p) => p.kr > 0);
  }

  /** Finished days of the current season (today is still being played). */
  finishedDays(today: number): number[] {
    return this.seasonDays(today).filter((day) => day < today);
  }

  /** Season earnings per clan (finished days), kr descending. */
  grossing(today: number): { clanId: number; clanName: string; kr: number }[] {
    const sums = new Map<number, number>();
    for (const day of this.finishedDays(today)) {
      for (const clan of this.world.clans)
        sums.set(clan.id, (sums.get(clan.id) ?? 0) + this.clanEarnings(clan.id, day));
    }
    return this.world.clans
      .map((clan) => ({ clanId: clan.id, clanName: clan.name, kr: sums.get(clan.id) ?? 0 }))
      .sort((a, b) => b.kr - a.kr || compareText(a.clanName, b.clanName));
  }
}
