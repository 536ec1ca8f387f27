import {
  PARTICIPANTS,
  RANKED_MODE,
  checkPlayOptions,
  drawMatch,
  seatPlayers,
  type PlayOptions,
  type Seat,
} from './activity-match.ts';
import type { WorldIndex } from './lookup.ts';
import { Rng, hashSeed } from './prng.ts';
import { playerLevel } from './records.ts';
import { withMatch } from './world/matches.ts';
import {
  FIRST_MATCH_ID,
  type Clan,
  type ClanMember,
  type Match,
  type Player,
  type World,
} from './world/types.ts';

export type { PlayOptions } from './activity-match.ts';

// The activity log: players finish ranked matches, level up and change clans while the sandbox runs.
// Tests drive it explicitly; the `activity` start option also makes a few players play on the sandbox
// clock, worked out when something next looks (a request or a call here), never by a timer.

export interface ActivityOptions {
  /** Every this many ms of the sandbox clock after start, each scheduled player finishes a match. */
  readonly everyMs: number;
  /** How many players are scheduled, 1..10 (the sample player first, then seeded picks); default 3. */
  readonly players?: number;
}

export interface SandboxActivity {
  /** Records a finished ranked match of the player at `now()` and returns its id. Throws for an unknown name. */
  play(playerName: string, options?: PlayOptions): bigint;
  /** Adds the least score that raises the player's level by `levels`; returns the new level. */
  levelUp(playerName: string, levels?: number): number;
  /** Moves the player to the clan (exact name), or out of any clan with ''. */
  setClan(playerName: string, clanName: string): void;
  /** Players the `activity` start option makes play, in the order they play each tick (empty without it). */
  readonly scheduled: readonly string[];
}

/** Where a region's rating starts when a player's first match there is recorded. */
const START_MMR = 1_200;
/** After a long clock jump only the latest ticks are played, so one request never does unbounded work. */
const MAX_CATCH_UP_TICKS = 200;
const DEFAULT_SCHEDULED_PLAYERS = 3;
/** Scheduled players stay out of each other's matches: a few, so every region keeps enough opponents. */
const MAX_SCHEDULED_PLAYERS = 10;

interface Schedule {
  readonly startMs: number;
  readonly everyMs: number;
  readonly playerIds: readonly number[];
  /** The next tick to play; tick k falls at startMs + k x everyMs. */
  nextTick: number;
}

/** The least score whose level is `level` (the level formula, searched near its inverse). */
function scoreForLevel(level: number): number {
  let score = Math.ceil((level / 0.03) ** 2);
  // Rounding can put the estimate a step off either way; a few steps settle it.
  for (let i = 0; i < 8 && playerLevel(score) < level; i++) score++;
  for (let i = 0; i < 8 && score > 0 && playerLevel(score - 1) >= level; i++) score--;
  return score;
}

export class ActivityLog implements SandboxActivity {
  readonly #world: World;
  readonly #index: WorldIndex;
  readonly #now: () => number;
  readonly #schedule: Schedule | undefined;
  /** Matches recorded so far: each match's draws come from its own stream, numbered by this. */
  #played = 0;
  #lastMatchId: bigint;
  readonly scheduled: readonly string[];

  constructor(world: World, index: WorldIndex, now: () => number, options?: ActivityOptions) {
    this.#world = world;
    this.#index = index;
    this.#now = now;
    this.#lastMatchId = FIRST_MATCH_ID - 1n;
    for (const match of world.matches) {
      const id = BigInt(match.id);
      if (id > this.#lastMatchId) this.#lastMatchId = id;
    }
    this.#schedule = options === undefined ? undefined : this.#makeSchedule(options, now());
    this.scheduled = (this.#schedule?.playerIds ?? []).map((id) => this.#index.playerById(id)?.name ?? '');
  }

  play(playerName: string, options: PlayOptions = {}): bigint {
    const player = this.#player(playerName);
    checkPlayOptions(options);
    const others = (options.others ?? []).map((name) => this.#player(name));
    const ids = new Set([player.id, ...others.map((p) => p.id)]);
    if (ids.size !== others.length + 1) throw new RangeError('others must be distinct and not the player');
    const nowMs = this.#now();
    this.advance(nowMs);
    return BigInt(this.#record(player, nowMs, options, others).id);
  }

  levelUp(playerName: string, levels = 1): number {
    const player = this.#player(playerName);
    if (!Number.isSafeInteger(levels) || levels < 1)
      throw new RangeError('levels must be a positive integer');
    this.advance(this.#now());
    const current = this.#index.playerById(player.id) ?? player;
    const level = playerLevel(current.stats.score) + levels;
    const score = scoreForLevel(level);
    if (!Number.isSafeInteger(score)) throw new RangeError(`level ${level} is out of reach`);
    this.#index.replacePlayer({ ...current, stats: { ...current.stats, score } });
    return level;
  }

  setClan(playerName: string, clanName: string): void {
    const player = this.#player(playerName);
    const target = clanName === '' ? undefined : this.#index.clan(clanName);
    if (clanName !== '' && !target)
      throw new Error(`the sandbox world has no clan named ${JSON.stringify(clanName)}`);
    if ((target?.id ?? null) === player.clanId) return;
    const left = this.#index.clanOf(player);
    const remaining = left?.members.filter((m) => m.playerId !== player.id) ?? [];
    if (left && remaining.length === 0)
      throw new Error(
        `${player.name} is the last member of ${left.name}; the sandbox does not disband clans`,
      );
    this.advance(this.#now());
    if (left) this.#index.replaceClan(this.#withoutMember(left, player, remaining));
    if (target) {
      const joined: ClanMember = { playerId: player.id, playerName: player.name, role: 0 };
      this.#index.replaceClan({ ...target, members: [...target.members, joined] });
    }
    const current = this.#index.playerById(player.id) ?? player;
    this.#index.replacePlayer({ ...current, clanId: target?.id ?? null });
  }

  /** Plays the scheduled matches due by `nowMs` (each dated at its tick), oldest tick first. */
  advance(nowMs: number): void {
    const schedule = this.#schedule;
    if (!schedule) return;
    const lastDue = Math.floor((nowMs - schedule.startMs) / schedule.everyMs);
    if (lastDue < schedule.nextTick) return;
    const first = Math.max(schedule.nextTick, lastDue - MAX_CATCH_UP_TICKS + 1);
    schedule.nextTick = lastDue + 1;
    for (let tick = first; tick <= lastDue; tick++) {
      const atMs = schedule.startMs + tick * schedule.everyMs;
      for (const id of schedule.playerIds) {
        const player = this.#index.playerById(id);
        if (player) this.#record(player, atMs, {}, [], schedule.playerIds);
      }
    }
  }

  #player(name: string): Player {
    const player = this.#index.player(name);
    if (!player) throw new Error(`the sandbox world has no player named ${JSON.stringify(name)}`);
    return player;
  }

  #makeSchedule(options: ActivityOptions, startMs: number): Schedule {
    if (!Number.isFinite(options.everyMs) || options.everyMs <= 0)
      throw new RangeError('activity.everyMs must be a positive number of ms');
    const count = options.players ?? DEFAULT_SCHEDULED_PLAYERS;
    if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SCHEDULED_PLAYERS)
      throw new RangeError(`activity.players must be an integer from 1 to ${MAX_SCHEDULED_PLAYERS}`);
    const sample = this.#player(this.#world.samples.player);
    const rng = new Rng(hashSeed(this.#world.seed, 'activity-players'));
    const picks = rng.sample(
      this.#world.players.filter((p) => p.rankedPool && !p.banned && p.id !== sample.id),
      count - 1,
    );
    return {
      startMs,
      everyMs: options.everyMs,
      playerIds: [sample.id, ...picks.map((p) => p.id)],
      nextTick: 1,
    };
  }

  /** Builds the match, then credits it to every participant: matches, ranked record, profile. */
  #record(
    player: Player,
    atMs: number,
    options: PlayOptions,
    named: readonly Player[],
    avoid: readonly number[] = [],
  ): Match {
    const rng = new Rng(hashSeed(this.#world.seed, 'activity', this.#played++));
    const draws = drawMatch(rng);
    const region = options.region ?? player.homeRegion;
    const others = this.#othersFor(rng, player, region, named, avoid);
    const seats = seatPlayers(draws, [player, ...others], options);

    this.#lastMatchId += draws.idGap;
    const match: Match = {
      id: this.#lastMatchId.toString(),
      dateMs: atMs,
      map: options.map ?? draws.map,
      mode: RANKED_MODE,
      duration: draws.duration,
      season: this.#world.currentSeason,
      region,
      participants: seats.map((s) => s.participant).sort((a, b) => a.team - b.team || b.score - a.score),
    };
    this.#index.addMatch(match);
    for (const seat of seats) this.#credit(seat, match);
    return match;
  }

  /**
   * The other seven: the named ones, then the region's ranked players, then anyone active; never one of
   * `avoid` (scheduled players stay out of each other's matches, so each plays exactly once a tick).
   */
  #othersFor(
    rng: Rng,
    player: Player,
    region: number,
    named: readonly Player[],
    avoid: readonly number[],
  ): Player[] {
    const chosen = [...named];
    const taken = new Set([player.id, ...avoid, ...named.map((p) => p.id)]);
    const wanted = (): number => PARTICIPANTS - 1 - chosen.length;
    const regionPool = this.#world.players.filter(
      (p) => p.rankedPool && !p.banned && p.homeRegion === region && !taken.has(p.id),
    );
    chosen.push(...rng.sample(regionPool, wanted()));
    if (wanted() > 0) {
      for (const p of chosen) taken.add(p.id);
      const anyone = this.#world.players.filter((p) => !p.banned && p.stats.games > 0 && !taken.has(p.id));
      chosen.push(...rng.sample(anyone, wanted()));
    }
    if (wanted() > 0) throw new Error('the sandbox world has too few players for a ranked match');
    return chosen;
  }

  /** The match counts toward the participant's profile and their ranked record of its season and region. */
  #credit(seat: Seat, match: Match): void {
    const p = seat.participant;
    const player = this.#index.playerById(seat.player.id) ?? seat.player;
    const s = player.stats;
    const shots = p.kills * seat.shotsPerKill;
    this.#index.replacePlayer({
      ...player,
      kr: player.kr + p.kr,
      rankedPool: true,
      stats: {
        ...s,
        score: s.score + p.score,
        kills: s.kills + p.kills,
        deaths: s.deaths + p.deaths,
        games: s.games + 1,
        wins: s.wins + (p.result === 1 ? 1 : 0),
        assists: s.assists + p.assists,
        headshots: s.headshots + p.headshots,
        shots: s.shots + shots,
        hits: s.hits + Math.round((shots * p.accuracy) / 100),
        timePlayed: s.timePlayed + p.playTime,
      },
    });
    const previous = this.#index.rankedRecord(match.season, match.region, player.id);
    this.#index.putRanked({
      season: match.season,
      region: match.region,
      playerId: player.id,
      playerName: player.name,
      mmr: Math.max(0, (previous?.mmr ?? START_MMR) + seat.mmrChange),
      ...withMatch(previous, p),
    });
  }

  /** The clan after `player` left: an owner hands the clan to the senior remaining member. */
  #withoutMember(clan: Clan, player: Player, remaining: readonly ClanMember[]): Clan {
    if (clan.ownerId !== player.id) return { ...clan, members: remaining };
    const score = (m: ClanMember): number => this.#index.playerById(m.playerId)?.stats.score ?? 0;
    const heir = [...remaining].sort(
      (a, b) => b.role - a.role || score(b) - score(a) || a.playerId - b.playerId,
    )[0];
    if (!heir) return { ...clan, members: remaining };
    return {
      ...clan,
      ownerId: heir.playerId,
      ownerName: heir.playerName,
      members: remaining.map((m) => (m === heir ? { ...m, role: 3 } : m)),
    };
  }
}
