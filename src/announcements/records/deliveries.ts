import type { Database } from '../../db/index.ts';
import type { Namespace, Store } from '../../store/index.ts';
import {
  AnnouncementRefSchema,
  DeliverySchema,
  type AnnouncementRef,
  type Delivery,
  type Intent,
} from '../model.ts';
import { DELIVERY_RECORD_TTL_MS } from './events.ts';

/**
 * One record per (subscription, event): the proof that it was delivered (or deliberately not), in the
 * `deliveries` table. A claim beside it (a short lease, in the key-value store) keeps two processes from
 * working on the same delivery at once; it expires on its own if its holder dies, so that the delivery is
 * taken up again (with the same nonce). An intent, written before a post goes out and removed once it is
 * recorded, says when the post's nonce was first used.
 *
 * A delivery's key is `<subscription id>:<event key>`; subscription ids never hold a colon.
 */
function split(key: string): { subscriptionId: string; eventKey: string } {
  const colon = key.indexOf(':');
  if (colon <= 0) throw new RangeError('a delivery key is <subscription id>:<event key>');
  return { subscriptionId: key.slice(0, colon), eventKey: key.slice(colon + 1) };
}

export class DeliveryRepository {
  readonly #db: Database;
  readonly #claims: Namespace;

  constructor(db: Database, store: Store) {
    this.#db = db;
    this.#claims = store.namespace('announce-claims');
  }

  static key(subscriptionId: string, eventKey: string): string {
    return `${subscriptionId}:${eventKey}`;
  }

  get #k() {
    return this.#db.kysely;
  }

  async get(key: string): Promise<Delivery | undefined> {
    const { subscriptionId, eventKey } = split(key);
    const row = await this.#k
      .selectFrom('deliveries')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('event_key', '=', eventKey)
      .executeTakeFirst();
    if (!row) return undefined;
    const parsed = DeliverySchema.safeParse({
      outcome: row.outcome,
      ...(row.message_id === null ? {} : { messageId: row.message_id }),
      at: row.at,
    });
    return parsed.success ? parsed.data : undefined;
  }

  async record(key: string, delivery: Delivery): Promise<void> {
    const { subscriptionId, eventKey } = split(key);
    const values = {
      outcome: delivery.outcome,
      message_id: delivery.messageId ?? null,
      at: delivery.at,
      expires_at: delivery.at + DELIVERY_RECORD_TTL_MS,
    };
    await this.#k
      .insertInto('deliveries')
      .values({ subscription_id: subscriptionId, event_key: eventKey, ...values })
      .onConflict((c) => c.columns(['subscription_id', 'event_key']).doUpdateSet(values))
      .execute();
    // Only a help to the next send's decision, which the record now makes: a failure here changes nothing.
    await this.#k
      .deleteFrom('delivery_intents')
      .where('subscription_id', '=', subscriptionId)
      .where('event_key', '=', eventKey)
      .execute()
      .catch(() => undefined);
  }

  /** The first intent to post this delivery, if one was written and the delivery not recorded since. */
  async intent(key: string): Promise<Intent | undefined> {
    const { subscriptionId, eventKey } = split(key);
    const row = await this.#k
      .selectFrom('delivery_intents')
      .select('at')
      .where('subscription_id', '=', subscriptionId)
      .where('event_key', '=', eventKey)
      .executeTakeFirst();
    return row && { at: row.at };
  }

  /** Writes the intent unless one exists (the first use of the nonce is what counts). */
  async intend(key: string, at: number): Promise<void> {
    const { subscriptionId, eventKey } = split(key);
    await this.#k
      .insertInto('delivery_intents')
      .values({
        subscription_id: subscriptionId,
        event_key: eventKey,
        at,
        expires_at: at + DELIVERY_RECORD_TTL_MS,
      })
      .onConflict((c) => c.doNothing())
      .execute();
  }

  /**
   * Takes the claim, or keeps it when this holder has it already: a holder works on a delivery in one
   * pass at a time, so its own claim is one left by a pass that failed (the store went away) and can be
   * taken up at once rather than after it expires.
   */
  async claim(key: string, holder: string, ttlMs: number): Promise<boolean> {
    if (await this.#claims.add(key, holder, ttlMs)) return true;
    if ((await this.#claims.get(key)) !== holder) return false;
    await this.#claims.set(key, holder, ttlMs);
    return true;
  }

  async release(key: string): Promise<void> {
    await this.#claims.delete(key);
  }
}

/**
 * Messages that later events edit, by subscription and a name the kind chooses (e.g. `map:42`). A ref
 * lives as long as a delivery record: an edit that comes later than that finds nothing and is skipped.
 */
export class RefRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async get(subscriptionId: string, ref: string): Promise<AnnouncementRef | undefined> {
    const row = await this.#db.kysely
      .selectFrom('announcement_refs')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('ref', '=', ref)
      .executeTakeFirst();
    if (!row) return undefined;
    const parsed = AnnouncementRefSchema.safeParse({
      messageId: row.message_id,
      channelId: row.channel_id,
      eventKey: row.event_key,
      at: row.at,
    });
    return parsed.success ? parsed.data : undefined;
  }

  async set(subscriptionId: string, ref: string, value: AnnouncementRef, now = Date.now()): Promise<void> {
    const values = {
      message_id: value.messageId,
      channel_id: value.channelId,
      event_key: value.eventKey,
      at: value.at,
      expires_at: Math.max(now, value.at) + DELIVERY_RECORD_TTL_MS,
    };
    await this.#db.kysely
      .insertInto('announcement_refs')
      .values({ subscription_id: subscriptionId, ref, ...values })
      .onConflict((c) => c.columns(['subscription_id', 'ref']).doUpdateSet(values))
      .execute();
  }

  async delete(subscriptionId: string, ref: string): Promise<void> {
    await this.#db.kysely
      .deleteFrom('announcement_refs')
      .where('subscription_id', '=', subscriptionId)
      .where('ref', '=', ref)
      .execute();
  }

  /** Forgets every message of a subscription (when it is removed): its rows only, through the key. */
  async deleteAll(subscriptionId: string): Promise<void> {
    await this.#db.kysely
      .deleteFrom('announcement_refs')
      .where('subscription_id', '=', subscriptionId)
      .execute();
  }
}
