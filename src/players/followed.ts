import type { PlayerProfile } from '../api/schemas/index.ts';
import type { Selectable } from 'kysely';
import { statementChunks, type Database } from '../db/index.ts';
import type { FollowedPlayersTable } from '../db/schema.ts';
import { nameKey, parseStats } from './snapshots.ts';
import type { SnapshotStats } from './stats.ts';

/** One followed player: when it was refreshed last, and what the tracking feed saw of it then. */
export interface FollowedPlayer {
  readonly key: string;
  readonly playerName: string;
  readonly playerId: number | undefined;
  readonly refreshedAt: number | undefined;
  /** The time between its last two refreshes. */
  readonly gapMs: number | undefined;
  readonly seen: SnapshotStats | undefined;
  /** The newest ranked match announced (a decimal string: ids pass 2^53). */
  readonly lastMatchId: string | undefined;
}

function fromRow(row: Selectable<FollowedPlayersTable>): FollowedPlayer {
  return {
    key: row.name_key,
    playerName: row.player_name,
    playerId: row.player_id ?? undefined,
    refreshedAt: row.refreshed_at ?? undefined,
    gapMs: row.gap_ms ?? undefined,
    seen: parseStats(row.seen),
    lastMatchId: row.last_match_id ?? undefined,
  };
}

/**
 * The `followed_players` table: the players the background refreshes (linked with `/link`, tracked with
 * `/track`), one row per name in lower case. It is the refresh schedule, shared by every process.
 */
export class FollowedPlayers {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get #k() {
    return this.#db.kysely;
  }

  /** Adds the names not followed yet (a name followed already keeps its schedule). */
  async follow(names: readonly string[]): Promise<void> {
    const unique = new Map(names.map((name) => [nameKey(name), name]));
    const rows = [...unique].map(([key, name]) => ({ name_key: key, player_name: name }));
    for (const chunk of statementChunks(rows)) {
      await this.#k
        .insertInto('followed_players')
        .values(chunk)
        .onConflict((c) => c.column('name_key').doNothing())
        .execute();
    }
  }

  async unfollow(key: string): Promise<void> {
    await this.#k.deleteFrom('followed_players').where('name_key', '=', key).execute();
  }

  async get(name: string): Promise<FollowedPlayer | undefined> {
    const row = await this.#k
      .selectFrom('followed_players')
      .selectAll()
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
    return row && fromRow(row);
  }

  /** The rows of these names (lower case). */
  async many(keys: readonly string[]): Promise<FollowedPlayer[]> {
    const found: FollowedPlayer[] = [];
    for (const chunk of statementChunks(keys)) {
      const rows = await this.#k
        .selectFrom('followed_players')
        .selectAll()
        .where('name_key', 'in', chunk)
        .execute();
      found.push(...rows.map(fromRow));
    }
    return found;
  }

  /** Up to `limit` rows not refreshed since `before` (never refreshed first, then the longest waiting). */
  async due(before: number, limit: number): Promise<FollowedPlayer[]> {
    const never = await this.#k
      .selectFrom('followed_players')
      .selectAll()
      .where('refreshed_at', 'is', null)
      .limit(limit)
      .execute();
    const rest =
      never.length >= limit
        ? []
        : await this.#k
            .selectFrom('followed_players')
            .selectAll()
            .where('refreshed_at', '<=', before)
            .orderBy('refreshed_at')
            .limit(limit - never.length)
            .execute();
    return [...never, ...rest].map(fromRow);
  }

  /** How many players are followed. */
  async count(): Promise<number> {
    const row = await this.#k
      .selectFrom('followed_players')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Records a refresh at `at`; `seen` and `lastMatchId` when the tracking feed looked at it. */
  async refreshed(
    player: FollowedPlayer,
    at: number,
    update: { playerId?: number; playerName?: string; seen?: SnapshotStats; lastMatchId?: string } = {},
  ): Promise<void> {
    await this.#k
      .updateTable('followed_players')
      .set({
        refreshed_at: at,
        gap_ms: player.refreshedAt === undefined ? null : Math.max(0, at - player.refreshedAt),
        ...(update.playerId === undefined ? {} : { player_id: update.playerId }),
        ...(update.playerName === undefined ? {} : { player_name: update.playerName }),
        ...(update.seen === undefined ? {} : { seen: JSON.stringify(update.seen) }),
        ...(update.lastMatchId === undefined ? {} : { last_match_id: update.lastMatchId }),
      })
      .where('name_key', '=', player.key)
      .execute();
  }
}

/** What the feed tells of each refresh: the profile read under `requestedName` (the followed name). */
export interface RefreshHook {
  (profile: PlayerProfile, requestedName?: string): Promise<void>;
  /** No player has the followed name any more (renamed, or gone). */
  readonly missing?: (playerName: string) => Promise<void>;
}
