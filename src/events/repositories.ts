import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import type { Namespace, Store } from '../store/index.ts';
import {
  AnnouncementRefSchema,
  CursorSchema,
  DeliverySchema,
  PendingSchema,
  SubscriptionSchema,
  TurfStateSchema,
  type AnnouncementEvent,
  type AnnouncementRef,
  type Cursor,
  type Delivery,
  type DisableReason,
  type Pending,
  type Subscription,
  type TurfState,
} from './model.ts';

/**
 * Typed access to what announcements keep in the store, one class per record. Values are parsed on the
 * way out; a value that does not parse is treated as absent (and overwritten by the next write).
 */
const DAY_MS = 86_400_000;
/** Longer than the 30 days the game keeps events, so that any replay of a kept event is recognised. */
export const DELIVERY_RECORD_TTL_MS = 40 * DAY_MS;

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Letters and digits that cannot be mistaken for one another when typed from a list. */
const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ID_LENGTH = 6;

export class SubscriptionRepository {
  readonly #ns: Namespace;

  constructor(store: Store) {
    this.#ns = store.namespace('announce-subscriptions');
  }

  async get(id: string): Promise<Subscription | undefined> {
    return parse(SubscriptionSchema, await this.#ns.get(id));
  }

  async all(): Promise<Subscription[]> {
    const out: Subscription[] = [];
    for await (const [, value] of this.#ns.entries()) {
      const subscription = parse(SubscriptionSchema, value);
      if (subscription) out.push(subscription);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async active(): Promise<Subscription[]> {
    return (await this.all()).filter((s) => s.state.status === 'active');
  }

  async forGuild(guildId: string): Promise<Subscription[]> {
    return (await this.all()).filter((s) => s.guildId === guildId);
  }

  /** Saves a new subscription under a fresh short id (unique across every process sharing the store). */
  async create(fields: Omit<Subscription, 'id'>): Promise<Subscription> {
    for (;;) {
      const id = Array.from({ length: ID_LENGTH }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');
      const subscription: Subscription = { ...fields, id };
      if (await this.#ns.add(id, subscription)) return subscription;
    }
  }

  async save(subscription: Subscription): Promise<void> {
    await this.#ns.set(subscription.id, subscription);
  }

  async delete(id: string): Promise<boolean> {
    return this.#ns.delete(id);
  }

  /** Marks it disabled with the Discord error that made it so; true when this call disabled it. */
  async disable(id: string, reason: DisableReason, code: number, at: number): Promise<boolean> {
    const current = await this.get(id);
    if (current?.state.status !== 'active') return false;
    await this.save({ ...current, state: { status: 'disabled', reason, code, at } });
    return true;
  }
}

/** The events feed's position, one per filter set (the set of types asked for). */
export class CursorRepository {
  readonly #ns: Namespace;

  constructor(store: Store) {
    this.#ns = store.namespace('announce-cursors');
  }

  async get(filterKey: string): Promise<Cursor | undefined> {
    return parse(CursorSchema, await this.#ns.get(filterKey));
  }

  async set(filterKey: string, cursor: Cursor): Promise<void> {
    await this.#ns.set(filterKey, cursor);
  }
}

/**
 * Events stored and not yet delivered everywhere (the inbox), and the events that are done. An event is
 * stored here before the cursor moves past it and removed only when every delivery it owes is recorded.
 */
export class InboxRepository {
  readonly #pending: Namespace;
  readonly #done: Namespace;

  constructor(store: Store) {
    this.#pending = store.namespace('announce-pending');
    this.#done = store.namespace('announce-done');
  }

  /** Stores the event unless it is pending or done already; true when it was stored now. */
  async accept(event: AnnouncementEvent): Promise<boolean> {
    if (await this.#done.has(event.key)) return false;
    return this.#pending.add(event.key, { event, attempts: 0 } satisfies Pending);
  }

  async get(key: string): Promise<Pending | undefined> {
    return parse(PendingSchema, await this.#pending.get(key));
  }

  /** Every pending event, oldest first. */
  async pending(): Promise<Pending[]> {
    const out: Pending[] = [];
    for await (const [, value] of this.#pending.entries()) {
      const pending = parse(PendingSchema, value);
      if (pending) out.push(pending);
    }
    return out.sort((a, b) => a.event.at - b.event.at || a.event.key.localeCompare(b.event.key));
  }

  async retryLater(pending: Pending): Promise<void> {
    await this.#pending.set(pending.event.key, { ...pending, attempts: pending.attempts + 1 });
  }

  async isDone(key: string): Promise<boolean> {
    return this.#done.has(key);
  }

  async finish(key: string, at: number): Promise<void> {
    await this.#done.set(key, at, DELIVERY_RECORD_TTL_MS);
    await this.#pending.delete(key);
  }
}

/**
 * One record per (subscription, event): the proof that it was delivered (or deliberately not). A claim
 * beside it keeps two processes from working on the same delivery at once; it expires on its own if its
 * holder dies, so that the delivery is taken up again (with the same nonce).
 */
export class DeliveryRepository {
  readonly #records: Namespace;
  readonly #claims: Namespace;

  constructor(store: Store) {
    this.#records = store.namespace('announce-deliveries');
    this.#claims = store.namespace('announce-claims');
  }

  static key(subscriptionId: string, eventKey: string): string {
    return `${subscriptionId}:${eventKey}`;
  }

  async get(key: string): Promise<Delivery | undefined> {
    return parse(DeliverySchema, await this.#records.get(key));
  }

  async record(key: string, delivery: Delivery): Promise<void> {
    await this.#records.set(key, delivery, DELIVERY_RECORD_TTL_MS);
  }

  async claim(key: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.#claims.add(key, holder, ttlMs);
  }

  async release(key: string): Promise<void> {
    await this.#claims.delete(key);
  }
}

/** Messages that later events edit, by subscription and a name the kind chooses (e.g. `map:42`). */
export class RefRepository {
  readonly #ns: Namespace;

  constructor(store: Store) {
    this.#ns = store.namespace('announce-refs');
  }

  async get(subscriptionId: string, ref: string): Promise<AnnouncementRef | undefined> {
    return parse(AnnouncementRefSchema, await this.#ns.get(`${subscriptionId}:${ref}`));
  }

  async set(subscriptionId: string, ref: string, value: AnnouncementRef): Promise<void> {
    await this.#ns.set(`${subscriptionId}:${ref}`, value);
  }

  async delete(subscriptionId: string, ref: string): Promise<void> {
    await this.#ns.delete(`${subscriptionId}:${ref}`);
  }

  /** Forgets every message of a subscription (when it is removed). */
  async deleteAll(subscriptionId: string): Promise<void> {
    const keys: string[] = [];
    for await (const [key] of this.#ns.entries()) if (key.startsWith(`${subscriptionId}:`)) keys.push(key);
    for (const key of keys) await this.#ns.delete(key);
  }
}

/** The last turf status the bot compared against. */
export class TurfStateRepository {
  readonly #ns: Namespace;

  constructor(store: Store) {
    this.#ns = store.namespace('announce-turf');
  }

  async get(): Promise<TurfState | undefined> {
    return parse(TurfStateSchema, await this.#ns.get('state'));
  }

  async set(state: TurfState): Promise<void> {
    await this.#ns.set('state', state);
  }
}

/** Every repository, opened once. */
export interface Repositories {
  readonly subscriptions: SubscriptionRepository;
  readonly cursors: CursorRepository;
  readonly inbox: InboxRepository;
  readonly deliveries: DeliveryRepository;
  readonly refs: RefRepository;
  readonly turf: TurfStateRepository;
}

export function openRepositories(store: Store): Repositories {
  return {
    subscriptions: new SubscriptionRepository(store),
    cursors: new CursorRepository(store),
    inbox: new InboxRepository(store),
    deliveries: new DeliveryRepository(store),
    refs: new RefRepository(store),
    turf: new TurfStateRepository(store),
  };
}

export type { AnnouncementRef, Delivery };
