import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { alertsMigration } from './migrations/alerts.ts';
import { linksMigration } from './migrations/links.ts';
import { grantsMigration } from './migrations/grants.ts';
import { alertsOwnerMigration } from './migrations/alerts-owner.ts';
import { clanLogMigration } from './migrations/clan-log.ts';
import { remindersMigration } from './migrations/reminders.ts';
import { subscriptionsOrderMigration } from './migrations/subscriptions-order.ts';

/**
 * The schema's history, oldest first, the same on SQLite and PostgreSQL. A migration is never edited once
 * released: a change is a new entry. They are listed here rather than read from a folder, so that the
 * compiled bot carries them and no file lookup can miss one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;

const time = 'bigint';

async function initial(db: Db): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('since', time, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_code', 'integer')
    .addColumn('disabled_at', time)
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addUniqueConstraint('subscriptions_guild_identity', ['guild_id', 'identity'])
    .addUniqueConstraint('subscriptions_guild_slot', ['guild_id', 'slot'])
    .execute();
  await db.schema
    .createIndex('subscriptions_status_kind')
    .on('subscriptions')
    .columns(['status', 'kind'])
    .execute();

  await db.schema
    .createTable('cursors')
    .addColumn('filter_key', 'text', (c) => c.primaryKey())
    .addColumn('after_id', time, (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('inbox')
    .addColumn('event_key', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inbox_at').on('inbox').columns(['at', 'event_key']).execute();

  for (const table of ['events_done', 'quarantine'] as const) {
    let builder = db.schema.createTable(table).addColumn('event_key', 'text', (c) => c.primaryKey());
    builder =
      table === 'events_done'
        ? builder.addColumn('done_at', time, (c) => c.notNull())
        : builder
            .addColumn('event', 'text', (c) => c.notNull())
            .addColumn('reason', 'text', (c) => c.notNull())
            .addColumn('at', time, (c) => c.notNull());
    await builder.addColumn('expires_at', time, (c) => c.notNull()).execute();
    await db.schema.createIndex(`${table}_expires`).on(table).column('expires_at').execute();
  }

  await db.schema
    .createTable('deliveries')
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('deliveries_pk', ['subscription_id', 'event_key'])
    .execute();
  await db.schema.createIndex('deliveries_expires').on('deliveries').column('expires_at').execute();

  await db.schema
    .createTable('delivery_intents')
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_intents_pk', ['subscription_id', 'event_key'])
    .execute();
  await db.schema
    .createIndex('delivery_intents_expires')
    .on('delivery_intents')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('announcement_refs')
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('announcement_refs_pk', ['subscription_id', 'ref'])
    .execute();
  await db.schema
    .createIndex('announcement_refs_expires')
    .on('announcement_refs')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('turf_state')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer')
    .addColumn('owners', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_links')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('linked_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_links_player').on('account_links').column('player_name').execute();

  await db.schema
    .createTable('kpd_keys')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('linked_by', 'text', (c) => c.notNull())
    .addColumn('linked_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('kpd_feed_state')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('calls', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('guild_departures')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    .addColumn('left_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('guild_departures_left').on('guild_departures').column('left_at').execute();

  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

/** Change counters (`subscriptions`: bumped by every write, so a reader can tell its copy is current). */
async function counters(db: Db): Promise<void> {
  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', time, (c) => c.notNull())
    .execute();
}

/**
 * Following players over time: snapshots (hourly and daily points), the latest numbers of each player
 * seen, the background refresh schedule of followed players (linked and tracked), and who of a server's
 * members the bot has seen there (its leaderboard's rows).
 */
async function history(db: Db): Promise<void> {
  await db.schema
    .createTable('player_snapshots')
    .addColumn('player_id', 'bigint', (c) => c.notNull())
    // 'hour' or 'day'; `at` is the start of that hour or UTC day.
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .addColumn('taken_at', time, (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('stats', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_snapshots_pk', ['player_id', 'bucket', 'at'])
    .execute();
  await db.schema
    .createIndex('player_snapshots_bucket_at')
    .on('player_snapshots')
    .columns(['bucket', 'at'])
    .execute();

  await db.schema
    .createTable('players')
    .addColumn('player_id', 'bigint', (c) => c.primaryKey())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('taken_at', time, (c) => c.notNull())
    .addColumn('stats', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('players_name_key').on('players').column('name_key').execute();

  await db.schema
    .createTable('followed_players')
    .addColumn('name_key', 'text', (c) => c.primaryKey())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('player_id', 'bigint')
    .addColumn('refreshed_at', time)
    // The time between its last two refreshes: the interval really kept.
    .addColumn('gap_ms', time)
    // What the tracking feed saw last (SnapshotStats JSON) and the newest ranked match it announced.
    .addColumn('seen', 'text')
    .addColumn('last_match_id', 'text')
    .execute();
  await db.schema
    .createIndex('followed_players_refreshed_at')
    .on('followed_players')
    .column('refreshed_at')
    .execute();

  await db.schema
    .createTable('guild_members')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('seen_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('guild_members_pk', ['guild_id', 'user_id'])
    .execute();
  await db.schema.createIndex('guild_members_user').on('guild_members').column('user_id').execute();
  // Whether a followed player is still linked by someone (the background drops it otherwise).
  await db.schema
    .createIndex('account_links_player_name')
    .on('account_links')
    .column('player_name')
    .execute();
}

/** Roles from verified accounts: a server's rules, and the roles the bot gave because of them. */
async function roles(db: Db): Promise<void> {
  await db.schema
    .createTable('role_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    // 'verified', 'clan', 'ranked' or 'level'; `params` holds its JSON (clan name, threshold, region).
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    // JSON array of role ids.
    .addColumn('role_ids', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', time)
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('role_rules_guild').on('role_rules').column('guild_id').execute();

  await db.schema
    .createTable('role_grants')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('granted_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('role_grants_pk', ['guild_id', 'user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('role_grants_rule').on('role_grants').column('rule_id').execute();
}

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '2026-11-24-001-initial': {
    up: initial,
    async down(db) {
      for (const table of [
        'meta',
        'guild_departures',
        'kpd_feed_state',
        'kpd_keys',
        'account_links',
        'turf_state',
        'announcement_refs',
        'delivery_intents',
        'deliveries',
        'quarantine',
        'events_done',
        'inbox',
        'cursors',
        'subscriptions',
      ]) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
      }
    },
  },
  '2026-11-24-002-counters': {
    up: counters,
    async down(db) {
      await db.schema.dropTable('counters').execute();
    },
  },
  '2026-11-24-003-history': {
    up: history,
    async down(db) {
      await db.schema.dropIndex('account_links_player_name').execute();
      for (const table of ['guild_members', 'followed_players', 'players', 'player_snapshots'])
        await db.schema.dropTable(table).execute();
    },
  },
  '2026-11-24-004-roles': {
    up: roles,
    async down(db) {
      for (const table of ['role_grants', 'role_rules']) await db.schema.dropTable(table).execute();
    },
  },
  '2026-11-24-005-alerts': alertsMigration,
  '2026-11-27-006-links': linksMigration,
  '2026-11-27-007-grants': grantsMigration,
  '2026-11-27-008-alerts-owner': alertsOwnerMigration,
  '2026-11-27-009-clan-log': clanLogMigration,
  '2026-11-27-010-reminders': remindersMigration,
  '2026-11-27-011-subscriptions-order': subscriptionsOrderMigration,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};
