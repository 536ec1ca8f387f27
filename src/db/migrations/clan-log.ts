import type { Kysely, Migration } from 'kysely';

/**
 * The clan log's memory: the last roster read of each followed clan (`src/features/clans/log`). One row per
 * clan, whatever the number of servers following it; no server's data (a clan's public roster), so not in
 * the departures' tables. `version` goes up with every read stored: a read is stored only over the version
 * it was compared with, in the same transaction as the changes it found (the inbox), so a crash or a second
 * worker neither loses nor repeats a change. `gap_ms` is the time between the last two reads: the interval
 * really kept, which `/subscriptions` shows.
 */
export interface ClanRostersTable {
  readonly clan_id: number;
  readonly version: number;
  /** JSON: the roster (`RosterSchema`). */
  readonly roster: string;
  readonly polled_at: number;
  readonly gap_ms: number | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;
const time = 'bigint';

export const clanLogMigration: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('clan_rosters')
      .addColumn('clan_id', 'bigint', (c) => c.primaryKey())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('roster', 'text', (c) => c.notNull())
      .addColumn('polled_at', time, (c) => c.notNull())
      .addColumn('gap_ms', time)
      .execute();
    await db.schema.createIndex('clan_rosters_polled_at').on('clan_rosters').column('polled_at').execute();
  },
  async down(db: Db) {
    await db.schema.dropTable('clan_rosters').execute();
  },
};
