import { sql, type Kysely, type Migration } from 'kysely';
import type { PriceAlertSkinsTable } from './alerts.ts';

/**
 * Price alerts by owner, and their hysteresis. A DM alert belongs to its user: it takes a place among the
 * user's alerts only (`user_slot`), none of the server's (`guild_slot` null), and outlives the server it was
 * made in (`guild_id` null once that server is gone). A channel alert belongs to its server: a place among
 * the server's alerts only. `pending_at` is when a crossing was first seen (status `pending`): it fires only
 * when a later check still sees it. SQLite cannot drop a NOT NULL, so the table is rebuilt, the same way on
 * both databases.
 */
export type PriceAlertsTable = {
  readonly id: string;
  /** The server it was made in; null: a DM alert whose server the bot has left. */
  readonly guild_id: string | null;
  readonly user_id: string;
  /** Where it is posted; null: to the user's DMs. */
  readonly channel_id: string | null;
  readonly skin_index: number;
  readonly skin_name: string;
  readonly direction: 'below' | 'above';
  readonly threshold: number;
  readonly locale: string;
  /**
   * `armed` waits for a crossing; `pending` saw one once and waits for a second check; `fired` waits for
   * the price to move back past the margin; `disabled` stopped.
   */
  readonly status: 'armed' | 'pending' | 'fired' | 'disabled';
  readonly fired_count: number;
  readonly delivered_count: number;
  readonly fired_price: number | null;
  readonly fired_at: number | null;
  readonly claim_holder: string | null;
  readonly claim_until: number | null;
  readonly intent_count: number | null;
  readonly intent_at: number | null;
  readonly attempts: number;
  readonly disabled_reason: string | null;
  readonly disabled_code: number | null;
  readonly disabled_at: number | null;
  /** When the crossing now waiting for its second check was first seen. */
  readonly pending_at: number | null;
  /** Its place among its user's DM alerts (null for a channel alert): unique per user. */
  readonly user_slot: number | null;
  /** Its place among its server's channel alerts (null for a DM alert): unique per server. */
  readonly guild_slot: number | null;
  readonly created_at: number;
};

export type AlertTables = {
  readonly price_alerts: PriceAlertsTable;
  readonly price_alert_skins: PriceAlertSkinsTable;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;
const time = 'bigint';

const COPIED = [
  'id',
  'guild_id',
  'user_id',
  'channel_id',
  'skin_index',
  'skin_name',
  'direction',
  'threshold',
  'locale',
  'status',
  'fired_count',
  'delivered_count',
  'fired_price',
  'fired_at',
  'claim_holder',
  'claim_until',
  'intent_count',
  'intent_at',
  'attempts',
  'disabled_reason',
  'disabled_code',
  'disabled_at',
  'created_at',
] as const;

async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('price_alerts_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text')
    .addColumn('skin_index', 'integer', (c) => c.notNull())
    .addColumn('skin_name', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('threshold', time, (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('fired_count', 'integer', (c) => c.notNull())
    .addColumn('delivered_count', 'integer', (c) => c.notNull())
    .addColumn('fired_price', time)
    .addColumn('fired_at', time)
    .addColumn('claim_holder', 'text')
    .addColumn('claim_until', time)
    .addColumn('intent_count', 'integer')
    .addColumn('intent_at', time)
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_code', 'integer')
    .addColumn('disabled_at', time)
    .addColumn('pending_at', time)
    .addColumn('user_slot', 'integer')
    .addColumn('guild_slot', 'integer')
    .addColumn('created_at', time, (c) => c.notNull())
    // Null places repeat freely (both databases): only the owner's alerts are counted.
    .addUniqueConstraint('price_alerts_owner_user_slot', ['user_id', 'user_slot'])
    .addUniqueConstraint('price_alerts_owner_guild_slot', ['guild_id', 'guild_slot'])
    .execute();
  const columns = sql.join(COPIED.map((column) => sql.ref(column)));
  // A DM alert keeps its user's place, a channel alert its server's; the places they no longer count in go.
  await sql`insert into price_alerts_next (${columns}, pending_at, user_slot, guild_slot)
    select ${columns}, null,
      case when channel_id is null then user_slot else null end,
      case when channel_id is null then null else guild_slot end
    from price_alerts`.execute(db);
  await db.schema.dropTable('price_alerts').execute();
  await db.schema.alterTable('price_alerts_next').renameTo('price_alerts').execute();
  await db.schema
    .createIndex('price_alerts_skin_status')
    .on('price_alerts')
    .columns(['skin_index', 'status'])
    .execute();
  await db.schema
    .createIndex('price_alerts_pending')
    .on('price_alerts')
    .columns(['status', 'fired_count', 'delivered_count'])
    .execute();
  await db.schema.createIndex('price_alerts_user').on('price_alerts').column('user_id').execute();
}

export const alertsOwnerMigration: Migration = {
  up,
  down() {
    // Alerts now counted in one list only would need places in both again, which may not exist.
    return Promise.reject(new Error('2026-11-27-008-alerts-owner cannot be undone'));
  },
};
