import type { Database } from '../../../db/index.ts';
import { statementChunks } from '../../../db/index.ts';
import type { AnnouncementEvent } from '../../../announcements/model.ts';
import { InboxRepository } from '../../../announcements/repositories.ts';
import { parseJson } from '../../../announcements/records/events.ts';
import { RosterSchema, type Roster } from './model.ts';

declare module '../../../services.ts' {
  interface Records {
    /** The last roster read of every clan a clan log follows (`/subscribe clan-log`, the worker's source). */
    readonly clanRosters: ClanRosterStore;
  }
}

/** The last roster read of a clan, as stored. */
export interface StoredRoster {
  readonly clanId: number;
  readonly version: number;
  readonly roster: Roster;
  readonly polledAt: number;
  /** The time between the last two reads (the interval really kept); absent after the first. */
  readonly gapMs?: number;
}

/** A read to store: the roster now, over the stored one it was compared with (none: the first read). */
export interface RosterCommit {
  readonly clanId: number;
  readonly previous: Pick<StoredRoster, 'version' | 'polledAt'> | undefined;
  readonly roster: Roster;
  readonly polledAt: number;
  /** What the read found changed, when some subscription wants it: stored in the inbox with the roster. */
  readonly event?: AnnouncementEvent | undefined;
}

/**
 * The clans' last rosters (`clan_rosters`). A read is stored with the changes it found in ONE transaction,
 * and only over the version it was compared with: a crash before it commits leaves both as they were (the
 * next read finds the same changes, and any newer ones, against the same roster), one after it leaves the
 * changes in the inbox for delivery; a second worker that read the same version loses the race and stores
 * nothing. So a change is neither lost nor told twice.
 */
export class ClanRosterStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The stored rosters of these clans (a row that does not parse reads as absent: a new baseline). */
  async many(clanIds: readonly number[]): Promise<Map<number, StoredRoster>> {
    const out = new Map<number, StoredRoster>();
    for (const chunk of statementChunks(clanIds)) {
      const rows = await this.#db.kysely
        .selectFrom('clan_rosters')
        .selectAll()
        .where('clan_id', 'in', chunk)
        .execute();
      for (const row of rows) {
        const roster = parseJson(RosterSchema, row.roster);
        if (!roster) continue;
        out.set(row.clan_id, {
          clanId: row.clan_id,
          version: row.version,
          roster,
          polledAt: row.polled_at,
          ...(row.gap_ms === null ? {} : { gapMs: row.gap_ms }),
        });
      }
    }
    return out;
  }

  /** Stores the read (and its event); false when another read was stored first (nothing is written). */
  async commit(commit: RosterCommit): Promise<boolean> {
    const roster = JSON.stringify(commit.roster);
    return this.#db.kysely.transaction().execute(async (tx) => {
      const { previous } = commit;
      if (previous === undefined) {
        const values = { roster, polled_at: commit.polledAt, gap_ms: null };
        const inserted = await tx
          .insertInto('clan_rosters')
          .values({ clan_id: commit.clanId, version: 0, ...values })
          .onConflict((c) => c.column('clan_id').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return true;
        // Taken by another worker's first read: theirs stands. A damaged row (read as absent) is replaced.
        const row = await tx
          .selectFrom('clan_rosters')
          .select(['roster', 'version'])
          .where('clan_id', '=', commit.clanId)
          .executeTakeFirst();
        if (!row || parseJson(RosterSchema, row.roster)) return false;
        await tx
          .updateTable('clan_rosters')
          .set({ ...values, version: row.version + 1 })
          .where('clan_id', '=', commit.clanId)
          .execute();
        return true;
      }
      const updated = await tx
        .updateTable('clan_rosters')
        .set({
          version: previous.version + 1,
          roster,
          polled_at: commit.polledAt,
          gap_ms: Math.max(0, commit.polledAt - previous.polledAt),
        })
        .where('clan_id', '=', commit.clanId)
        .where('version', '=', previous.version)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      if (commit.event) await new InboxRepository({ ...this.#db, kysely: tx }).accept(commit.event);
      return true;
    });
  }

  /** Forgets clans not read since `before` (followed by nobody any more); returns how many. */
  async prune(before: number): Promise<number> {
    const result = await this.#db.kysely
      .deleteFrom('clan_rosters')
      .where('polled_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
