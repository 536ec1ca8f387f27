import type { KindRegistry } from './kinds/registry.ts';
import type { AnnouncementEvent, Subscription } from './model.ts';
import type { InboxRepository } from './records/events.ts';

/** What the inbox keeps its events in (the `inbox` table: `InboxRepository`). */
export type InboxStore = Pick<InboxRepository, 'accept'>;

/**
 * The inbox: where every event a source found (or the webhook received) is written down before anything
 * is posted. It keeps only what some active subscription would announce, and each event once: an event
 * already pending, done or set aside is not stored again, which is what makes a poll and a push of the
 * same event, or a poll repeated after a crash, announce it once. The outbox delivers what it holds.
 */
export class Inbox {
  readonly #store: InboxStore;
  readonly #kinds: KindRegistry;

  constructor(store: InboxStore, kinds: KindRegistry) {
    this.#store = store;
    this.#kinds = kinds;
  }

  /** Whether some of these subscriptions would announce the event (a source may skip its details if not). */
  wants(event: AnnouncementEvent, subscriptions: readonly Subscription[]): boolean {
    return this.#kinds.isWanted(event, subscriptions);
  }

  /** Stores the event when it is wanted and new; true when it was stored now. */
  async offer(event: AnnouncementEvent, subscriptions: readonly Subscription[]): Promise<boolean> {
    if (!this.wants(event, subscriptions)) return false;
    return this.#store.accept(event);
  }
}
