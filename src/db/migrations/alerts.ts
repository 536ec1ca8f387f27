import type { Kysely, Migration } from 'kysely';

/**
 * Price alerts (`/alert`): one row per alert, and one per watched skin (the price seen by its single poll).
 * The tables are typed here rather than in `../schema.ts`: the alerts code opens them with
 * `db.kysely.withTables<AlertTables>()`.
 */
export type PriceAlertsTable = {
  readonly id: string;
  readonly guild_id: string;
  readonly user_id: string;
  /** Where it is posted; null: to the user's DMs. */
  readonly channel_id: string | null;
  readonly skin_index: number;
  readonly skin_name: string;
  readonly direction: 'below' | 'above';
  readonly threshold: number;
  readonly locale: string;
  /** `armed` waits for a crossing; `fired` waits for the price to cross back; `disabled` stopped. */
  readonly status: 'armed' | 'fired' | 'disabled';
  /** How many times it fired (the generation a delivery is for). */
  readonly fired_count: number;
  /** The generation whose message is done (sent, or given up on). */
  readonly delivered_count: number;
  readonly fired_price: number | null;
  readonly fired_at: number | null;
  /** A short claim on the delivery, so that one process sends it. */
  readonly claim_holder: string | null;
  readonly claim_until: number | null;
  /** The generation a send was first tried for, and when (the nonce's window). */
  readonly intent_count: number | null;
  readonly intent_at: number | null;
  readonly attempts: number;
  readonly disabled_reason: string | null;
  readonly disabled_code: number | null;
  readonly disabled_at: number | null;
  /** Its place among the user's and among the server's alerts: unique, which is what holds the limits. */
  readonly user_slot: number;
  readonly guild_slot: number;
  readonly created_at: number;
};

export type PriceAlertSkinsTable = {
  readonly skin_index: number;
  /** The lowest ask last seen; null: nothing listed. */
  readonly price: number | null;
  readonly checked_at: number;
};

export type AlertTables = {
  readonly price_alerts: PriceAlertsTable;
  readonly price_alert_skins: PriceAlertSkinsTable;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;
const time = 'bigint';

async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('price_alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
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
    .addColumn('user_slot', 'integer', (c) => c.notNull())
    .addColumn('guild_slot', 'integer', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('price_alerts_user_slot', ['user_id', 'user_slot'])
    .addUniqueConstraint('price_alerts_guild_slot', ['guild_id', 'guild_slot'])
    .execute();
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
  await db.schema
    .createTable('price_alert_skins')
    .addColumn('skin_index', 'integer', (c) => c.primaryKey())
    .addColumn('price', time)
    .addColumn('checked_at', time, (c) => c.notNull())
    .execute();
}

export const alertsMigration: Migration = {
  up,
  async down(db) {
    for (const table of ['price_alert_skins', 'price_alerts']) await db.schema.dropTable(table).execute();
  },
};
