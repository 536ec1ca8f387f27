import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { AlertTables } from '../../db/migrations/alerts-owner.ts';
import { CONFIRM_GAP_MS, COOLDOWN_MS } from './crossing.ts';
import { pruneSkinsIn } from './purge.ts';
import {
  fromRow,
  freshId,
  type AddAlertResult,
  type NewAlert,
  type PriceAlert,
  type AlertDisableReason,
  type Row,
} from './model.ts';

declare module '../../services.ts' {
  interface Records {
    /** Price alerts (`/alert`, the worker's watch). */
    readonly alerts: AlertRepository;
  }
}

function changed(result: { numUpdatedRows: bigint }): boolean {
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The alerts in SQL. Every change of state is one conditional statement, so that two processes (or a
 * process and its restart) agree on it: an alert fires once per crossing however many polls see it, and a
 * delivery is claimed by one process at a time.
 */
export class AlertRepository {
  readonly #db: Database;
  readonly #k: Kysely<AlertTables>;

  constructor(db: Database) {
    this.#db = db;
    this.#k = db.kysely.withTables<AlertTables>() as unknown as Kysely<AlertTables>;
  }

  /**
   * Adds an alert within its owner's limit, atomically: a DM alert takes one of its user's places (it
   * belongs to the user, across servers), a channel alert one of its server's. The places are unique keys,
   * and on PostgreSQL the owner's turn is taken first.
   */
  async add(fields: NewAlert, limits: { user: number; guild: number }, now: number): Promise<AddAlertResult> {
    const toChannel = fields.channelId !== undefined;
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const result = await this.#k.transaction().execute(async (tx) => {
        if (this.#db.kind === 'postgres') {
          const owner = toChannel ? `alerts:g:${fields.guildId}` : `alerts:u:${fields.userId}`;
          await sql`select pg_advisory_xact_lock(hashtext(${owner}))`.execute(tx);
        }
        const siblings = await (
          toChannel
            ? tx
                .selectFrom('price_alerts')
                .selectAll()
                .where('guild_id', '=', fields.guildId)
                .where('channel_id', 'is not', null)
            : tx
                .selectFrom('price_alerts')
                .selectAll()
                .where('user_id', '=', fields.userId)
                .where('channel_id', 'is', null)
        ).execute();
        const same = siblings.find(
          (row) =>
            (toChannel || row.guild_id === fields.guildId) &&
            row.skin_index === fields.skinIndex &&
            row.direction === fields.direction &&
            row.threshold === fields.threshold &&
            (row.channel_id ?? undefined) === fields.channelId,
        );
        if (same) return { status: 'exists', alert: fromRow(same) } as const;
        const slot = freeSlot(
          siblings.map((row) => (toChannel ? row.guild_slot : row.user_slot)),
          toChannel ? limits.guild : limits.user,
        );
        if (slot === undefined) return { status: toChannel ? 'guildLimit' : 'userLimit' } as const;
        const row: Row = {
          id: freshId(),
          guild_id: fields.guildId,
          user_id: fields.userId,
          channel_id: fields.channelId ?? null,
          skin_index: fields.skinIndex,
          skin_name: fields.skinName,
          direction: fields.direction,
          threshold: fields.threshold,
          locale: fields.locale,
          status: 'armed',
          fired_count: 0,
          delivered_count: 0,
          fired_price: null,
          fired_at: null,
          claim_holder: null,
          claim_until: null,
          intent_count: null,
          intent_at: null,
          attempts: 0,
          disabled_reason: null,
          disabled_code: null,
          disabled_at: null,
          pending_at: null,
          user_slot: toChannel ? null : slot,
          guild_slot: toChannel ? slot : null,
          created_at: now,
        };
        const inserted = await tx
          .insertInto('price_alerts')
          .values(row)
          .onConflict((conflict) => conflict.doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1
          ? ({ status: 'created', alert: fromRow(row) } as const)
          : undefined;
      });
      // A place (or the id) was taken by a concurrent add that did not wait its turn: look again.
      if (result !== undefined) return result;
    }
    throw new Error('the alerts kept changing while one was added');
  }

  async get(id: string): Promise<PriceAlert | undefined> {
    const row = await this.#k.selectFrom('price_alerts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  /** A user's alerts, oldest first. */
  async forUser(userId: string): Promise<PriceAlert[]> {
    const rows = await this.#k
      .selectFrom('price_alerts')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  /** How many of the user's DM alerts count toward the user's limit. */
  async countForUser(userId: string): Promise<number> {
    const row = await this.#k
      .selectFrom('price_alerts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('user_slot', 'is not', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** How many channel alerts count toward the server's limit. */
  async countForGuild(guildId: string): Promise<number> {
    const row = await this.#k
      .selectFrom('price_alerts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('guild_id', '=', guildId)
      .where('guild_slot', 'is not', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Every alert made in the server (its channel alerts and its members' DM alerts): how many. */
  async countMadeIn(guildId: string): Promise<number> {
    const row = await this.#k
      .selectFrom('price_alerts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** A page of the alerts made in the server, oldest first (what a manager sees). */
  async madeIn(guildId: string, page: { offset: number; limit: number }): Promise<PriceAlert[]> {
    const rows = await this.#k
      .selectFrom('price_alerts')
      .selectAll()
      .where('guild_id', '=', guildId)
      .orderBy('created_at')
      .orderBy('id')
      .offset(Math.max(0, page.offset))
      .limit(Math.max(0, page.limit))
      .execute();
    return rows.map(fromRow);
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.#k.deleteFrom('price_alerts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The skins some alert that is not disabled watches. */
  async watchedSkins(): Promise<number[]> {
    const rows = await this.#k
      .selectFrom('price_alerts')
      .select('skin_index')
      .distinct()
      .where('status', '!=', 'disabled')
      .execute();
    return rows.map((row) => row.skin_index);
  }

  /** When each watched skin was last looked at (absent: never). */
  async checkedAt(skins: readonly number[]): Promise<Map<number, number>> {
    if (skins.length === 0) return new Map();
    const rows = await this.#k
      .selectFrom('price_alert_skins')
      .select(['skin_index', 'checked_at'])
      .where('skin_index', 'in', [...skins])
      .execute();
    return new Map(rows.map((row) => [row.skin_index, row.checked_at]));
  }

  async skinPrice(skinIndex: number): Promise<{ price: number | undefined; checkedAt: number } | undefined> {
    const row = await this.#k
      .selectFrom('price_alert_skins')
      .selectAll()
      .where('skin_index', '=', skinIndex)
      .executeTakeFirst();
    return row && { price: row.price === null ? undefined : row.price, checkedAt: row.checked_at };
  }

  async setSkinPrice(skinIndex: number, price: number | undefined, at: number): Promise<void> {
    await this.#k
      .insertInto('price_alert_skins')
      .values({ skin_index: skinIndex, price: price ?? null, checked_at: at })
      .onConflict((c) => c.column('skin_index').doUpdateSet({ price: price ?? null, checked_at: at }))
      .execute();
  }

  /** The alerts on a skin that are not disabled. */
  async forSkin(skinIndex: number): Promise<PriceAlert[]> {
    const rows = await this.#k
      .selectFrom('price_alerts')
      .selectAll()
      .where('skin_index', '=', skinIndex)
      .where('status', '!=', 'disabled')
      .execute();
    return rows.map(fromRow);
  }

  /** Armed → pending: a crossing seen for the first time, at `at`. */
  async pend(id: string, at: number): Promise<boolean> {
    const result = await this.#k
      .updateTable('price_alerts')
      .set({ status: 'pending', pending_at: at })
      .where('id', '=', id)
      .where('status', '=', 'armed')
      .executeTakeFirst();
    return changed(result);
  }

  /** Pending → armed: the crossing did not hold. */
  async unpend(id: string): Promise<boolean> {
    const result = await this.#k
      .updateTable('price_alerts')
      .set({ status: 'armed', pending_at: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return changed(result);
  }

  /**
   * Pending → fired, once, only when the crossing was first seen at least `CONFIRM_GAP_MS` ago and the
   * alert's cooldown is over: true for the one caller that made the change.
   */
  async fire(id: string, price: number, at: number): Promise<boolean> {
    const result = await this.#k
      .updateTable('price_alerts')
      .set((eb) => ({
        status: 'fired',
        fired_count: eb('fired_count', '+', 1),
        fired_price: price,
        fired_at: at,
        pending_at: null,
        attempts: 0,
      }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('pending_at', '<=', at - CONFIRM_GAP_MS)
      .where((eb) => eb.or([eb('fired_at', 'is', null), eb('fired_at', '<=', at - COOLDOWN_MS)]))
      .executeTakeFirst();
    return changed(result);
  }

  /** Fired → armed (the price moved back past the margin). */
  async rearm(id: string): Promise<boolean> {
    const result = await this.#k
      .updateTable('price_alerts')
      .set({ status: 'armed' })
      .where('id', '=', id)
      .where('status', '=', 'fired')
      .executeTakeFirst();
    return changed(result);
  }

  /** Alerts that fired and whose message is not done yet. */
  async pending(limit = 500): Promise<PriceAlert[]> {
    const rows = await this.#k
      .selectFrom('price_alerts')
      .selectAll()
      .where('status', '!=', 'disabled')
      .whereRef('delivered_count', '<', 'fired_count')
      .orderBy('fired_at')
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  }

  /** Takes the delivery of generation `count` for `ttlMs`, unless done or held by someone else. */
  async claim(id: string, count: number, holder: string, now: number, ttlMs: number): Promise<boolean> {
    const result = await this.#k
      .updateTable('price_alerts')
      .set({ claim_holder: holder, claim_until: now + ttlMs })
      .where('id', '=', id)
      .where('fired_count', '=', count)
      .where('delivered_count', '<', count)
      .where('status', '!=', 'disabled')
      .where((eb) =>
        eb.or([eb('claim_until', 'is', null), eb('claim_until', '<', now), eb('claim_holder', '=', holder)]),
      )
      .executeTakeFirst();
    return changed(result);
  }

  /** A send of generation `count` is about to go out: the first time is kept (the nonce's window). */
  async intend(id: string, count: number, at: number): Promise<void> {
    await this.#k
      .updateTable('price_alerts')
      .set({ intent_count: count, intent_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('intent_count', 'is', null), eb('intent_count', '!=', count)]))
      .execute();
  }

  /** Generation `count` is done (sent, or given up on); the claim goes. */
  async delivered(id: string, count: number): Promise<void> {
    await this.#k
      .updateTable('price_alerts')
      .set({ delivered_count: count, claim_holder: null, claim_until: null, attempts: 0 })
      .where('id', '=', id)
      .where('delivered_count', '<', count)
      .execute();
  }

  /** A send failed for now: the claim goes, the attempt is counted. */
  async release(id: string, holder: string): Promise<void> {
    await this.#k
      .updateTable('price_alerts')
      .set((eb) => ({ claim_holder: null, claim_until: null, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('claim_holder', '=', holder)
      .execute();
  }

  async disable(id: string, reason: AlertDisableReason, code: number, at: number): Promise<void> {
    await this.#k
      .updateTable('price_alerts')
      .set({
        status: 'disabled',
        disabled_reason: reason,
        disabled_code: code,
        disabled_at: at,
        claim_holder: null,
        claim_until: null,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Forgets the prices of skins no alert watches any more. */
  async pruneSkins(): Promise<void> {
    await pruneSkinsIn(this.#k);
  }
}

function freeSlot(used: readonly (number | null)[], limit: number): number | undefined {
  const taken = new Set(used);
  for (let slot = 0; slot < limit; slot += 1) if (!taken.has(slot)) return slot;
  return undefined;
}

export {
  ALERT_DISABLE_REASONS,
  type AddAlertResult,
  type AlertDisableReason,
  type NewAlert,
  type PriceAlert,
} from './model.ts';

export { purgeGuildAlerts } from './purge.ts';
