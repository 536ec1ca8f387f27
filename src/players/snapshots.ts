import { z } from 'zod';
import { statementChunks, type Database } from '../db/index.ts';
import type { Snapshot, SnapshotStats } from './stats.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Hourly points are kept this long, daily points this long; older ones are pruned. */
export const HOURLY_KEPT_MS = 48 * HOUR_MS;
export const DAILY_KEPT_MS = 400 * DAY_MS;
/** The most points one history read returns (400 days of daily points and 48 hourly ones fit). */
const MAX_POINTS = 500;
/** The most rows one nearest-point read looks at (a window of a few days holds far fewer). */
const NEAR_ROWS = 200;

const StandingSchema = z.object({
  region: z.number(),
  mmr: z.number(),
  wins: z.number(),
  losses: z.number(),
  kills: z.number(),
  deaths: z.number(),
  assists: z.number(),
  score: z.number(),
});

const StatsSchema = z.object({
  score: z.number(),
  kills: z.number(),
  deaths: z.number(),
  games: z.number(),
  wins: z.number(),
  level: z.number(),
  kr: z.number(),
  clan: z.string(),
  ranked: z.array(StandingSchema).max(16),
});

/** Stored stats JSON back as stats; a damaged row reads as undefined, never as wrong numbers. */
export function parseStats(text: string | null | undefined): SnapshotStats | undefined {
  if (!text) return undefined;
  try {
    const parsed = StatsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function nameKey(playerName: string): string {
  return playerName.toLowerCase();
}

/** A time to find the nearest point to, and how far from it that point may be. */
export interface NearTarget {
  readonly at: number;
  readonly toleranceMs: number;
}

/** The columns of `player_snapshots` that the reads below use. */
interface SnapshotRow {
  readonly bucket: string;
  readonly at: number;
  readonly taken_at: number;
  readonly player_name: string;
  readonly stats: string;
}

/** Where a history since `since` starts reading: the UTC day it falls in, whose daily point may count. */
function historyStart(since: number): number {
  return Math.floor(since / DAY_MS) * DAY_MS;
}

/**
 * The points of a history since `since` from its rows (newest first, all from {@link historyStart} on):
 * daily points, and hourly points where they are finer; oldest first.
 */
function historyPoints(playerId: number, rows: readonly SnapshotRow[], since: number): Snapshot[] {
  const hourly = rows.filter((row) => row.bucket === 'hour');
  const firstHour = Math.min(...hourly.map((row) => row.at));
  const points: Snapshot[] = [];
  for (const row of rows) {
    // A daily point that the hourly points cover says nothing they do not.
    if (row.bucket === 'day' && hourly.length > 0 && row.at + DAY_MS > firstHour) continue;
    if (row.taken_at < since) continue;
    const stats = parseStats(row.stats);
    if (stats) points.push({ playerId, playerName: row.player_name, at: row.taken_at, stats });
  }
  return points.sort((a, b) => a.at - b.at).slice(-MAX_POINTS);
}

/** The row nearest to the target among `rows` (oldest first, all within its tolerance): the first of equals. */
function nearestPoint(playerId: number, rows: readonly SnapshotRow[], at: number): Snapshot | undefined {
  let best: SnapshotRow | undefined;
  for (const row of rows) if (!best || Math.abs(row.taken_at - at) < Math.abs(best.taken_at - at)) best = row;
  const stats = parseStats(best?.stats);
  return best && stats && { playerId, playerName: best.player_name, at: best.taken_at, stats };
}

/**
 * Player snapshots in the data layer: at most one hourly point per player per hour (the first profile read
 * in it) and one daily point per UTC day (the last hourly point of it), plus each player's latest numbers
 * (`players`), which the server leaderboard and compare read without a request.
 */
export class SnapshotStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get #k() {
    return this.#db.kysely;
  }

  /**
   * Keeps a profile read at `at`. True when it made a new hourly point; false when the hour had one already
   * (nothing is written then, so reading a profile often costs one small write an hour at most).
   */
  async capture(snapshot: Snapshot): Promise<boolean> {
    const { playerId, playerName, at } = snapshot;
    const stats = JSON.stringify(snapshot.stats);
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    const inserted = await this.#k
      .insertInto('player_snapshots')
      .values({ player_id: playerId, bucket: 'hour', at: hour, taken_at: at, player_name: playerName, stats })
      .onConflict((c) => c.columns(['player_id', 'bucket', 'at']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
    const day = Math.floor(at / DAY_MS) * DAY_MS;
    const latest = { taken_at: at, player_name: playerName, stats };
    await this.#k
      .insertInto('player_snapshots')
      .values({ player_id: playerId, bucket: 'day', at: day, ...latest })
      .onConflict((c) => c.columns(['player_id', 'bucket', 'at']).doUpdateSet(latest))
      .execute();
    await this.#k
      .insertInto('players')
      .values({ player_id: playerId, name_key: nameKey(playerName), ...latest })
      .onConflict((c) => c.column('player_id').doUpdateSet({ name_key: nameKey(playerName), ...latest }))
      .execute();
    return true;
  }

  /** The player's latest numbers, by name (any case). */
  async latestByName(playerName: string): Promise<Snapshot | undefined> {
    const row = await this.#k
      .selectFrom('players')
      .selectAll()
      .where('name_key', '=', nameKey(playerName))
      .orderBy('taken_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const stats = parseStats(row?.stats);
    return row && stats && { playerId: row.player_id, playerName: row.player_name, at: row.taken_at, stats };
  }

  /** The latest numbers of many players at once (by lower-case name), for a leaderboard. */
  async latestByNames(names: readonly string[]): Promise<Map<string, Snapshot>> {
    const found = new Map<string, Snapshot>();
    const keys = [...new Set(names.map(nameKey))];
    for (const chunk of statementChunks(keys)) {
      const rows = await this.#k.selectFrom('players').selectAll().where('name_key', 'in', chunk).execute();
      for (const row of rows) {
        const stats = parseStats(row.stats);
        const earlier = found.get(row.name_key);
        if (!stats || (earlier && earlier.at >= row.taken_at)) continue;
        found.set(row.name_key, {
          playerId: row.player_id,
          playerName: row.player_name,
          at: row.taken_at,
          stats,
        });
      }
    }
    return found;
  }

  /**
   * The player's points since `since`, oldest first: daily points, and hourly points where they are finer
   * (the last 48 hours), one per hour.
   */
  async history(playerId: number, since: number): Promise<Snapshot[]> {
    const rows = await this.#k
      .selectFrom('player_snapshots')
      .selectAll()
      .where('player_id', '=', playerId)
      .where('at', '>=', historyStart(since))
      .orderBy('at', 'desc')
      .limit(MAX_POINTS * 2)
      .execute();
    return historyPoints(playerId, rows, since);
  }

  /**
   * The point nearest to `at` within `toleranceMs` (for "since yesterday" and "since last week").
   */
  async near(playerId: number, at: number, toleranceMs: number): Promise<Snapshot | undefined> {
    const rows = await this.#k
      .selectFrom('player_snapshots')
      .selectAll()
      .where('player_id', '=', playerId)
      .where('taken_at', '>=', at - toleranceMs)
      .where('taken_at', '<=', at + toleranceMs)
      .orderBy('taken_at')
      .limit(NEAR_ROWS)
      .execute();
    return nearestPoint(playerId, rows, at);
  }

  /**
   * In one read, what {@link near} gives for each of `targets` and what {@link history} gives since
   * `since`: the profile's "since" lines need both, and a store that takes one query at a time would
   * otherwise answer them one after the other. The rows of a player in those windows are few (one point
   * an hour at most, and hourly points are pruned after 48 hours), far below the limit. The history is
   * made when asked for: its rows come with the read, but checking their stats costs a little each.
   */
  async nearAndHistory(
    playerId: number,
    targets: readonly NearTarget[],
    since: number,
  ): Promise<{ near: Array<Snapshot | undefined>; history: () => Snapshot[] }> {
    const start = historyStart(since);
    const rows = await this.#k
      .selectFrom('player_snapshots')
      .selectAll()
      .where('player_id', '=', playerId)
      .where((eb) =>
        eb.or([
          eb('at', '>=', start),
          ...targets.map(({ at, toleranceMs }) =>
            eb.and([eb('taken_at', '>=', at - toleranceMs), eb('taken_at', '<=', at + toleranceMs)]),
          ),
        ]),
      )
      .orderBy('at', 'desc')
      .limit(MAX_POINTS * 2 + NEAR_ROWS * targets.length)
      .execute();
    // Each answer from the rows its own query would have read, in the order it would have read them.
    const byTime = [...rows].sort((a, b) => a.taken_at - b.taken_at);
    return {
      near: targets.map((target) =>
        nearestPoint(
          playerId,
          byTime
            .filter((row) => row.taken_at >= target.at - target.toleranceMs)
            .filter((row) => row.taken_at <= target.at + target.toleranceMs)
            .slice(0, NEAR_ROWS),
          target.at,
        ),
      ),
      history: () =>
        historyPoints(
          playerId,
          rows.filter((row) => row.at >= start),
          since,
        ),
    };
  }

  /** Removes hourly points older than 48 hours and daily points older than 400 days; returns how many. */
  async prune(now: number): Promise<number> {
    let removed = 0;
    for (const [bucket, keptMs] of [
      ['hour', HOURLY_KEPT_MS],
      ['day', DAILY_KEPT_MS],
    ] as const) {
      const result = await this.#k
        .deleteFrom('player_snapshots')
        .where('bucket', '=', bucket)
        .where('at', '<', now - keptMs)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  }
}
