import { randomInt } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { DEFAULT_BATCH, forEachPage, mapInBatches, PARSE_SLICE } from '../../core/batches.ts';
import type { Database } from '../../db/index.ts';
import type { SubscriptionsTable } from '../../db/schema.ts';
import { SubscriptionSchema, type DisableReason, type Subscription } from '../model.ts';

/**
 * Subscriptions in the `subscriptions` table. A guild's subscriptions are found through its unique
 * indexes (guild, identity) and (guild, slot); the active ones through (status, created_at, id) and
 * (status, kind, created_at, id), in the order they are read. The per-guild limit and the
 * one-per-identity rule are the database's constraints, so they hold under any concurrency, across
 * processes: no read-then-write decides them.
 */

/** Letters and digits that cannot be mistaken for one another when typed from a list. */
const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ID_LENGTH = 6;

/** What {@link SubscriptionRepository.add} did. */
export type AddResult =
  | { readonly status: 'created'; readonly subscription: Subscription }
  /** Another subscription has the same identity (or is being made with it right now). */
  | { readonly status: 'exists' }
  /** The server has no free place left. */
  | { readonly status: 'limit' };

type Row = Selectable<SubscriptionsTable>;

function freshId(): string {
  return Array.from({ length: ID_LENGTH }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');
}

function parseOptions(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A row as a subscription; a row that does not parse (damaged by hand) is skipped, never trusted. */
export function fromRow(row: Row): Subscription | undefined {
  const state =
    row.status === 'active'
      ? { status: 'active' }
      : { status: 'disabled', reason: row.disabled_reason, code: row.disabled_code, at: row.disabled_at };
  const parsed = SubscriptionSchema.safeParse({
    id: row.id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    kind: row.kind,
    options: parseOptions(row.options),
    locale: row.locale,
    createdBy: row.created_by,
    createdAt: row.created_at,
    since: row.since,
    state,
    slot: row.slot,
    identity: row.identity,
  });
  return parsed.success ? parsed.data : undefined;
}

export function toRow(subscription: Subscription & { slot: number; identity: string }): Row {
  const { state } = subscription;
  return {
    id: subscription.id,
    guild_id: subscription.guildId,
    channel_id: subscription.channelId,
    kind: subscription.kind,
    options: JSON.stringify(subscription.options),
    locale: subscription.locale,
    created_by: subscription.createdBy,
    created_at: subscription.createdAt,
    since: subscription.since,
    status: state.status,
    disabled_reason: state.status === 'disabled' ? state.reason : null,
    disabled_code: state.status === 'disabled' ? state.code : null,
    disabled_at: state.status === 'disabled' ? state.at : null,
    identity: subscription.identity,
    slot: subscription.slot,
  };
}

function parsed(rows: readonly Row[]): Subscription[] {
  const out: Subscription[] = [];
  for (const row of rows) {
    const subscription = fromRow(row);
    if (subscription) out.push(subscription);
  }
  return out;
}

export class SubscriptionRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get #k() {
    return this.#db.kysely;
  }

  async get(id: string): Promise<Subscription | undefined> {
    const row = await this.#k.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Every subscription, oldest first (tools and tests; the bot itself never needs all of them). */
  async all(): Promise<Subscription[]> {
    return parsed(
      await this.#k.selectFrom('subscriptions').selectAll().orderBy('created_at').orderBy('id').execute(),
    );
  }

  /**
   * The active subscriptions, oldest first, read in pages of `batchSize` (keyset on created_at, id, which
   * the (status, created_at, id) index serves in order) and parsed {@link PARSE_SLICE} rows at a time,
   * with a turn of the event loop between pages and between slices: 100k of them read and parsed at once
   * held the loop for 705–958 ms (SQLite), 231–343 ms (PostgreSQL).
   */
  async active(kind?: string, batchSize: number = DEFAULT_BATCH): Promise<Subscription[]> {
    const out: Subscription[] = [];
    await forEachPage<Row, { readonly at: number; readonly id: string }>(
      (after, size) => {
        let query = this.#k.selectFrom('subscriptions').selectAll().where('status', '=', 'active');
        // One kind's only (`/track list` counting the tracked players): through the (status, kind) index.
        if (kind !== undefined) query = query.where('kind', '=', kind);
        // (created_at, id) after the last row of the page before.
        if (after !== undefined)
          query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.at, after.id)));
        return query.orderBy('created_at').orderBy('id').limit(size).execute();
      },
      (row) => ({ at: row.created_at, id: row.id }),
      async (rows) => {
        for (const subscription of await mapInBatches(rows, fromRow, PARSE_SLICE))
          if (subscription) out.push(subscription);
      },
      batchSize,
    );
    return out;
  }

  /** One guild's subscriptions, oldest first: reads that guild's rows only. */
  async forGuild(guildId: string): Promise<Subscription[]> {
    const rows = await this.#k
      .selectFrom('subscriptions')
      .selectAll()
      .where('guild_id', '=', guildId)
      .execute();
    return parsed(rows).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /** The guilds that have at least one subscription. */
  async guildIds(): Promise<string[]> {
    const rows = await this.#k.selectFrom('subscriptions').select('guild_id').distinct().execute();
    return rows.map((row) => row.guild_id);
  }

  /**
   * Saves a new subscription with no limit and no uniqueness rule of its own (tools, tests and
   * benchmarks; /subscribe uses {@link add}): it takes the guild's next place and a private identity.
   */
  async create(fields: Omit<Subscription, 'id' | 'slot' | 'identity'>): Promise<Subscription> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const id = freshId();
      const top = await this.#k
        .selectFrom('subscriptions')
        .select((eb) => eb.fn.max<number | null>('slot').as('slot'))
        .where('guild_id', '=', fields.guildId)
        .executeTakeFirst();
      const highest = top?.slot ?? null;
      const slot = highest === null ? 0 : highest + 1;
      const subscription = { ...fields, id, slot, identity: `unchecked:${id}` };
      if (await this.#insert(subscription)) {
        await bumpSubscriptions(this.#db);
        return subscription;
      }
    }
    throw new Error('could not find a free place for a subscription');
  }

  /**
   * Saves a new subscription unless one with the same `identity` exists in the guild, or the guild has
   * `limit` subscriptions already in its places `firstSlot` to `firstSlot + limit - 1` (`/track` has places
   * of its own, after `/subscribe`'s); it takes the lowest free one. One transaction per
   * attempt, and the guild's adds take turns (SQLite: the write lock taken at `begin immediate`;
   * PostgreSQL: an advisory lock on the guild), so concurrent adds neither retry nor race. The unique
   * indexes on (guild, identity) and (guild, place) are what guarantee it, whatever runs meanwhile.
   */
  async add(
    fields: Omit<Subscription, 'id' | 'slot' | 'identity'>,
    identity: string,
    limit: number,
    firstSlot = 0,
  ): Promise<AddResult> {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const result = await this.#k.transaction().execute(async (tx) => {
        if (this.#db.kind === 'postgres') {
          await sql`select pg_advisory_xact_lock(hashtext(${`subscriptions:${fields.guildId}`}))`.execute(tx);
        }
        const taken = await tx
          .selectFrom('subscriptions')
          .select(['slot', 'identity'])
          .where('guild_id', '=', fields.guildId)
          .execute();
        if (taken.some((row) => row.identity === identity)) return { status: 'exists' } as const;
        const used = new Set(taken.map((row) => row.slot));
        let slot = firstSlot;
        while (slot < firstSlot + limit && used.has(slot)) slot += 1;
        if (slot >= firstSlot + limit) return { status: 'limit' } as const;
        const subscription = { ...fields, id: freshId(), slot, identity };
        const inserted = await tx
          .insertInto('subscriptions')
          .values(toRow(subscription))
          .onConflict((conflict) => conflict.doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1
          ? ({ status: 'created', subscription } as const)
          : undefined;
      });
      // Only a taken id (or a writer that ignored the turns) gets here: look again.
      if (result?.status === 'created') await bumpSubscriptions(this.#db);
      if (result !== undefined) return result;
    }
    throw new Error('the guild kept changing while a subscription was added');
  }

  /** True when the row went in; false when a unique key (id, identity or place) was taken. */
  async #insert(subscription: Subscription & { slot: number; identity: string }): Promise<boolean> {
    const result = await this.#k
      .insertInto('subscriptions')
      .values(toRow(subscription))
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Writes its fields back (its place and identity stay what they are). */
  async save(subscription: Subscription): Promise<void> {
    const {
      id,
      slot: _slot,
      identity: _identity,
      ...rest
    } = toRow({ ...subscription, slot: 0, identity: '' });
    await this.#k.updateTable('subscriptions').set(rest).where('id', '=', id).execute();
    await bumpSubscriptions(this.#db);
  }

  /** Removes it, which frees its place and its identity. */
  async delete(id: string): Promise<boolean> {
    const result = await this.#k.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted) await bumpSubscriptions(this.#db);
    return deleted;
  }

  /** Marks it disabled with the Discord error that made it so; true when this call disabled it. */
  async disable(id: string, reason: DisableReason, code: number, at: number): Promise<boolean> {
    const result = await this.#k
      .updateTable('subscriptions')
      .set({ status: 'disabled', disabled_reason: reason, disabled_code: code, disabled_at: at })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    const disabled = Number(result.numUpdatedRows) === 1;
    if (disabled) await bumpSubscriptions(this.#db);
    return disabled;
  }

  /** Goes up with every change of any subscription (see {@link ActiveSubscriptions}). */
  async version(): Promise<number> {
    const row = await this.#k
      .selectFrom('counters')
      .select('value')
      .where('name', '=', 'subscriptions')
      .executeTakeFirst();
    return row?.value ?? 0;
  }
}

/**
 * Counts a change of the subscriptions (after it is written: a reader reads the counter before the rows,
 * so at worst it reloads once more than needed, never keeps a stale copy).
 */
export async function bumpSubscriptions(db: Database): Promise<void> {
  await sql`insert into counters (name, value) values ('subscriptions', 1)
    on conflict (name) do update set value = counters.value + 1`.execute(db.kysely);
}

/**
 * The active subscriptions as the worker reads them: kept in memory, and read again only when the change
 * counter has moved since (one small query per use otherwise). Concurrent readers share one reload.
 */
export class ActiveSubscriptions {
  readonly #repo: SubscriptionRepository;
  #copy: { readonly version: number; readonly list: readonly Subscription[] } | undefined;
  #loading: Promise<readonly Subscription[]> | undefined;

  constructor(repo: SubscriptionRepository) {
    this.#repo = repo;
  }

  async get(): Promise<readonly Subscription[]> {
    const version = await this.#repo.version();
    if (this.#copy?.version === version) return this.#copy.list;
    this.#loading ??= (async () => {
      // The stale copy is no use to anyone now (every reader waits for the reload): let it go, so that the
      // collector does not trace two copies of 100k subscriptions while the new one is built.
      this.#copy = undefined;
      try {
        const list = await this.#repo.active();
        this.#copy = { version, list };
        return list;
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }
}
