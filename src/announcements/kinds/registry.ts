import type { EventType } from '../../api/params.ts';
import { EVENTS_SOURCE, type AnnouncementEvent, type Subscription } from '../model.ts';
import type { AnnouncementKind } from './kind.ts';

/**
 * The kinds the bot runs with (handed to the pipeline by the composition root, `src/worker.ts`), and the rules
 * that follow from them: which events a feed must fetch, which events are worth storing, which
 * subscriptions an event goes to.
 */
export class KindRegistry {
  readonly #kinds: ReadonlyMap<string, AnnouncementKind>;

  constructor(kinds: readonly AnnouncementKind[]) {
    this.#kinds = new Map(kinds.map((kind) => [kind.name, kind]));
    if (this.#kinds.size !== kinds.length) throw new Error('Two announcement kinds have the same name');
  }

  named(name: string): AnnouncementKind | undefined {
    return this.#kinds.get(name);
  }

  /** Whether the subscription's kind is one whose events come from this source. */
  fromSource(subscription: Subscription, source: string): boolean {
    return this.named(subscription.kind)?.source === source;
  }

  /** The event types the events feed must ask for, for these subscriptions: one sorted list, one cursor. */
  eventTypesFor(subscriptions: readonly Subscription[]): EventType[] {
    const types = new Set<EventType>();
    for (const subscription of subscriptions) {
      const kind = this.named(subscription.kind);
      if (kind?.source === EVENTS_SOURCE) for (const type of kind.eventTypes ?? []) types.add(type);
    }
    return [...types].sort();
  }

  /** Whether some subscription would announce the event (only such events are stored). */
  isWanted(event: AnnouncementEvent, subscriptions: readonly Subscription[]): boolean {
    return subscriptions.some((subscription) => this.targets(event, subscription));
  }

  /** Whether the event is for this subscription: its kind accepts it, and it happened since the subscription. */
  targets(event: AnnouncementEvent, subscription: Subscription): boolean {
    // Event times have whole seconds: an event of the subscription's own second counts as "from now on".
    const since = Math.floor(subscription.since / 1000) * 1000;
    if (subscription.state.status !== 'active' || event.at < since) return false;
    return this.named(subscription.kind)?.accepts(event, subscription) === true;
  }
}
