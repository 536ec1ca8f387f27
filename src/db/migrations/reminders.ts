import type { Kysely, Migration } from 'kysely';

/**
 * Turf reminders (`/remind turf`) are subscriptions of the kind `remind` (their channel, clan, minutes and
 * role live there, as a tracked player's do); what they add is one row per reminder and turf day, written
 * once the day's reminder is in the outbox (`queued`), or once the day ended without it (`missed`: the bot
 * was not running from its minute to the end of the day). It is what keeps a reminder to one post a day
 * without asking the outbox about every reminder at every poll, and what `/remind list` shows as the last
 * post. Rows older than a week are pruned as new ones are written.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;
const time = 'bigint';

export const remindersMigration: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('reminder_runs')
      .addColumn('subscription_id', 'text', (c) => c.notNull())
      .addColumn('guild_id', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('at', time, (c) => c.notNull())
      .addPrimaryKeyConstraint('reminder_runs_pk', ['subscription_id', 'day'])
      .execute();
    await db.schema.createIndex('reminder_runs_day').on('reminder_runs').columns(['day']).execute();
    await db.schema
      .createIndex('reminder_runs_guild')
      .on('reminder_runs')
      .columns(['guild_id', 'day'])
      .execute();
  },
  async down(db: Db) {
    await db.schema.dropTable('reminder_runs').execute();
  },
};
