import type { Kysely, Migration } from 'kysely';

/**
 * The reload of the active subscriptions reads them in pages, oldest first, each page after the last row
 * of the one before (`status = 'active' and (created_at, id) > (…) order by created_at, id limit n`).
 * With only (status, kind) to go by, every page scanned and sorted every active row: 100k read in pages of
 * 1,000 took 6.3 s on SQLite against 2.3 s in one query. These indexes hand each page its rows in order,
 * for every kind together and for one kind (`/track list`, the clan log's plan).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;

export const subscriptionsOrderMigration: Migration = {
  async up(db: Db) {
    await db.schema
      .createIndex('subscriptions_status_created')
      .on('subscriptions')
      .columns(['status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('subscriptions_status_kind_created')
      .on('subscriptions')
      .columns(['status', 'kind', 'created_at', 'id'])
      .execute();
    // Its leading columns are the new one's: nothing needs it any more.
    await db.schema.dropIndex('subscriptions_status_kind').execute();
  },
  async down(db: Db) {
    await db.schema
      .createIndex('subscriptions_status_kind')
      .on('subscriptions')
      .columns(['status', 'kind'])
      .execute();
    await db.schema.dropIndex('subscriptions_status_kind_created').execute();
    await db.schema.dropIndex('subscriptions_status_created').execute();
  },
};
