import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Namespace, Store } from '../store/index.ts';
import {
  AnnouncementRefSchema,
  CursorSchema,
  DeliverySchema,
  IntentSchema,
  PendingSchema,
  QuarantineSchema,
  SubscriptionSchema,
  TurfStateSchema,
  type AnnouncementEvent,
  type AnnouncementRef,
  type Cursor,
  type Delivery,
  type DisableReason,
  type Intent,
  type Pending,
  type Quarantine,
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

/** What {@link SubscriptionRepository.add} did. */
export type AddResult =
  | { readonly status: 'created'; readonly subscription: Subscription }
  /** Another subscription has the same identity (or is being made with it right now). */
  | { readonly status: 'exists' }
  /** The server has no free place left. */
  | { readonly status: 'limit' };

/** A claim of a uniqueness key or a slot: its subscription, and whether that subscription was saved. */
const ClaimSchema = z.object({ id: z.string(), pinned: z.boolean() });
type Claim = z.output<typeof ClaimSchema>;

/**
 * How long a claim made by {@link SubscriptionRepository.add} lives before its subscription is saved and
 * the claim pinned: a process that dies in between frees the claim by itself.
 */
const UNPINNED_CLAIM_TTL_MS = 2 * 60_000;

export class SubscriptionRepository {
  readonly #ns: Namespace;
  /** `u:<guild>:<channel>:<kind>:<filter>` and `s:<guild>:<slot>` claims (see {@link add}). */
  readonly #claims: Namespace;

  constructor(store: Store) {
    this.#ns = store.namespace('announce-subscriptions');
    this.#claims = store.namespace('announce-subscription-claims');
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

  #freshId(): string {
    return Array.from({ length: ID_LENGTH }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');
  }

  /**
   * Saves a new subscription under a fresh short id (unique across every process sharing the store), with
   * no limit and no uniqueness check: {@link add} is what /subscribe uses.
   */
  async create(fields: Omit<Subscription, 'id'>): Promise<Subscription> {
    for (;;) {
      const subscription: Subscription = { ...fields, id: this.#freshId() };
      if (await this.#ns.add(subscription.id, subscription)) return subscription;
    }
  }

  /**
   * Saves a new subscription unless one with the same `identity` exists in the guild, or the guild has
   * `limit` subscriptions already; atomic across every process sharing the store (of concurrent calls,
   * exactly one creates, and never more than `limit` exist). Both checks are claims made with the store's
   * atomic `add`: the uniqueness key, then the first free of the guild's `limit` slots; the subscription
   * is saved only once it holds both. Subscriptions older than slots hold none: they count as taking the
   * lowest places (their number only goes down, so counting them now never lets more than `limit` in).
   */
  async add(
    fields: Omit<Subscription, 'id' | 'slot' | 'identity'>,
    identity: string,
    limit: number,
  ): Promise<AddResult> {
    const legacy = (await this.forGuild(fields.guildId)).filter((s) => s.slot === undefined).length;
    let id = this.#freshId();
    while (await this.#ns.has(id)) id = this.#freshId();
    const claim: Claim = { id, pinned: false };
    const uniqueKey = `u:${fields.guildId}:${identity}`;
    if (!(await this.#claimOrRepair(uniqueKey, claim))) return { status: 'exists' };
    let slot: number | undefined;
    for (let index = legacy; index < limit && slot === undefined; index += 1) {
      if (await this.#claimOrRepair(`s:${fields.guildId}:${index}`, claim)) slot = index;
    }
    if (slot === undefined) {
      await this.#releaseClaim(uniqueKey, id);
      return { status: 'limit' };
    }
    const subscription: Subscription = { ...fields, id, slot, identity };
    if (!(await this.#ns.add(id, subscription))) {
      await this.#releaseClaim(uniqueKey, id);
      await this.#releaseClaim(`s:${fields.guildId}:${slot}`, id);
      throw new Error('a new subscription id was taken meanwhile');
    }
    const pinned: Claim = { id, pinned: true };
    await this.#claims.set(uniqueKey, pinned);
    await this.#claims.set(`s:${fields.guildId}:${slot}`, pinned);
    return { status: 'created', subscription };
  }

  /**
   * Claims `key`; when it is taken by a pinned claim whose subscription no longer exists (a crash while
   * it was removed), frees it and tries once more.
   */
  async #claimOrRepair(key: string, claim: Claim): Promise<boolean> {
    if (await this.#claims.add(key, claim, UNPINNED_CLAIM_TTL_MS)) return true;
    const holder = parse(ClaimSchema, await this.#claims.get(key));
    if (holder?.pinned !== true || (await this.#ns.has(holder.id))) return false;
    await this.#claims.delete(key);
    return this.#claims.add(key, claim, UNPINNED_CLAIM_TTL_MS);
  }

  async #releaseClaim(key: string, id: string): Promise<void> {
    const holder = parse(ClaimSchema, await this.#claims.get(key));
    if (holder?.id === id) await this.#claims.delete(key);
  }

  async save(subscription: Subscription): Promise<void> {
    await this.#ns.set(subscription.id, subscription);
  }

  /** Removes it, and frees its place and its uniqueness key. */
  async delete(id: string): Promise<boolean> {
    const subscription = await this.get(id);
    const deleted = await this.#ns.delete(id);
    if (subscription?.identity !== undefined)
      await this.#releaseClaim(`u:${subscription.guildId}:${subscription.identity}`, id);
    if (subscription?.slot !== undefined)
      await this.#releaseClaim(`s:${subscription.guildId}:${subscription.slot}`, id);
    return deleted;
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
  readonly #quarantine: Namespace;

  constructor(store: Store) {
    this.#pending = store.namespace('announce-pending');
    this.#done = store.namespace('announce-done');
    this.#quarantine = store.namespace('announce-quarantine');
  }

  /** Stores the event unless it is pending, done or set aside already; true when it was stored now. */
  async accept(event: AnnouncementEvent): Promise<boolean> {
    if (await this.#done.has(event.key)) return false;
    if (await this.#quarantine.has(event.key)) return false;
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

  /** Sets the event aside for good (kept for inspection as long as a delivery record): no longer pending. */
  async quarantine(pending: Pending, reason: string, at: number): Promise<void> {
    await this.#quarantine.set(
      pending.event.key,
      { event: pending.event, reason, at } satisfies Quarantine,
      DELIVERY_RECORD_TTL_MS,
    );
    await this.#pending.delete(pending.event.key);
  }

  async quarantined(key: string): Promise<Quarantine | undefined> {
    return parse(QuarantineSchema, await this.#quarantine.get(key));
  }
}

/**
 * One record per (subscription, event): the proof that it was delivered (or deliberately not). A claim
 * beside it keeps two processes from working on the same delivery at once; it expires on its own if its
 * holder dies, so that the delivery is taken up again (with the same nonce). An intent, written before a
 * post goes out and removed once it is recorded, says when the post's nonce was first used.
 */
export class DeliveryRepository {
  readonly #records: Namespace;
  readonly #claims: Namespace;
  readonly #intents: Namespace;

  constructor(store: Store) {
    this.#records = store.namespace('announce-deliveries');
    this.#claims = store.namespace('announce-claims');
    this.#intents = store.namespace('announce-intents');
  }

  static key(subscriptionId: string, eventKey: string): string {
    return `${subscriptionId}:${eventKey}`;
  }

  async get(key: string): Promise<Delivery | undefined> {
    return parse(DeliverySchema, await this.#records.get(key));
  }

  async record(key: string, delivery: Delivery): Promise<void> {
    await this.#records.set(key, delivery, DELIVERY_RECORD_TTL_MS);
    // Only a help to the next send's decision, which the record now makes: a failure here changes nothing.
    await this.#intents.delete(key).catch(() => false);
  }

  /** The first intent to post this delivery, if one was written and the delivery not recorded since. */
  async intent(key: string): Promise<Intent | undefined> {
    return parse(IntentSchema, await this.#intents.get(key));
  }

  /** Writes the intent unless one exists (the first use of the nonce is what counts). */
  async intend(key: string, at: number): Promise<void> {
    await this.#intents.add(key, { at } satisfies Intent, DELIVERY_RECORD_TTL_MS);
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
