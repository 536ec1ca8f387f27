import type { z } from 'zod';
import type { Database } from '../../db/index.ts';
import {
  AnnouncementEventSchema,
  CursorSchema,
  QuarantineSchema,
  TurfStateSchema,
  type AnnouncementEvent,
  type Cursor,
  type Pending,
  type Quarantine,
  type TurfState,
} from '../model.ts';

/**
 * Where the feeds are (cursors, the turf state) and what they found (the inbox, which is the fan-out's
 * outbox: an event is stored here before its feed moves past it and leaves once every delivery it owes
 * is recorded), in tables.
 */
const DAY_MS = 86_400_000;
/** Longer than the 30 days the game keeps events, so that any replay of a kept event is recognised. */
export const DELIVERY_RECORD_TTL_MS = 40 * DAY_MS;

export function parseJson<S extends z.ZodType>(schema: S, text: string): z.output<S> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The events feed's position, one per filter set (the set of types asked for). */
export class CursorRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async get(filterKey: string): Promise<Cursor | undefined> {
    const row = await this.#db.kysely
      .selectFrom('cursors')
      .selectAll()
      .where('filter_key', '=', filterKey)
      .executeTakeFirst();
    if (!row) return undefined;
    const parsed = CursorSchema.safeParse({ after: row.after_id, at: row.at });
    return parsed.success ? parsed.data : undefined;
  }

  async set(filterKey: string, cursor: Cursor): Promise<void> {
    await this.#db.kysely
      .insertInto('cursors')
      .values({ filter_key: filterKey, after_id: cursor.after, at: cursor.at })
      .onConflict((c) => c.column('filter_key').doUpdateSet({ after_id: cursor.after, at: cursor.at }))
      .execute();
  }
}

export class InboxRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get #k() {
    return this.#db.kysely;
  }

  /** Stores the event unless it is pending, done or set aside already; true when it was stored now. */
  async accept(event: AnnouncementEvent): Promise<boolean> {
    if (await this.isDone(event.key)) return false;
    if ((await this.quarantined(event.key)) !== undefined) return false;
    const result = await this.#k
      .insertInto('inbox')
      .values({ event_key: event.key, event: JSON.stringify(event), at: event.at, attempts: 0 })
      .onConflict((c) => c.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async get(key: string): Promise<Pending | undefined> {
    const row = await this.#k.selectFrom('inbox').selectAll().where('event_key', '=', key).executeTakeFirst();
    const event = row && parseJson(AnnouncementEventSchema, row.event);
    return row && event ? { event, attempts: row.attempts } : undefined;
  }

  /** Every pending event, oldest first. */
  async pending(): Promise<Pending[]> {
    const rows = await this.#k.selectFrom('inbox').selectAll().orderBy('at').orderBy('event_key').execute();
    const out: Pending[] = [];
    for (const row of rows) {
      const event = parseJson(AnnouncementEventSchema, row.event);
      if (event) out.push({ event, attempts: row.attempts });
    }
    return out;
  }

  /** How many events wait in the outbox (a metric). */
  async depth(): Promise<number> {
    const row = await this.#k
      .selectFrom('inbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return row?.n ?? 0;
  }

  async retryLater(pending: Pending): Promise<void> {
    await this.#k
      .updateTable('inbox')
      .set({ attempts: pending.attempts + 1 })
      .where('event_key', '=', pending.event.key)
      .execute();
  }

  async isDone(key: string): Promise<boolean> {
    const row = await this.#k
      .selectFrom('events_done')
      .select('event_key')
      .where('event_key', '=', key)
      .executeTakeFirst();
    return row !== undefined;
  }

  async finish(key: string, at: number): Promise<void> {
    await this.#k.transaction().execute(async (tx) => {
      await tx
        .insertInto('events_done')
        .values({ event_key: key, done_at: at, expires_at: at + DELIVERY_RECORD_TTL_MS })
        .onConflict((c) => c.column('event_key').doNothing())
        .execute();
      await tx.deleteFrom('inbox').where('event_key', '=', key).execute();
    });
  }

  /** Sets the event aside for good (kept for inspection as long as a delivery record): no longer pending. */
  async quarantine(pending: Pending, reason: string, at: number): Promise<void> {
    const key = pending.event.key;
    await this.#k.transaction().execute(async (tx) => {
      await tx
        .insertInto('quarantine')
        .values({
          event_key: key,
          event: JSON.stringify(pending.event),
          reason,
          at,
          expires_at: at + DELIVERY_RECORD_TTL_MS,
        })
        .onConflict((c) => c.column('event_key').doUpdateSet({ reason, at }))
        .execute();
      await tx.deleteFrom('inbox').where('event_key', '=', key).execute();
    });
  }

  async quarantined(key: string): Promise<Quarantine | undefined> {
    const row = await this.#k
      .selectFrom('quarantine')
      .selectAll()
      .where('event_key', '=', key)
      .executeTakeFirst();
    if (!row) return undefined;
    const parsed = QuarantineSchema.safeParse({
      event: JSON.parse(row.event) as unknown,
      reason: row.reason,
      at: row.at,
    });
    return parsed.success ? parsed.data : undefined;
  }
}

/** The last turf status the bot compared against. */
export class TurfStateRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async get(): Promise<TurfState | undefined> {
    const row = await this.#db.kysely
      .selectFrom('turf_state')
      .selectAll()
      .where('id', '=', 'state')
      .executeTakeFirst();
    if (!row) return undefined;
    let owners: unknown;
    try {
      owners = JSON.parse(row.owners);
    } catch {
      return undefined;
    }
    const parsed = TurfStateSchema.safeParse({
      version: row.version,
      ...(row.day === null ? {} : { day: row.day }),
      owners,
    });
    return parsed.success ? parsed.data : undefined;
  }

  async set(state: TurfState): Promise<void> {
    const values = { version: state.version, day: state.day ?? null, owners: JSON.stringify(state.owners) };
    await this.#db.kysely
      .insertInto('turf_state')
      .values({ id: 'state', ...values })
      .onConflict((c) => c.column('id').doUpdateSet(values))
      .execute();
  }
}
