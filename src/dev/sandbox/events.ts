import { Rng, hashSeed } from './prng.ts';
import { DAY_MS } from './time.ts';
import { makeEvent } from './world/events.ts';
import type { ApiEvent, ApiEventType, CommunityMap } from './world/types.ts';

export const EVENT_RETENTION_MS = 30 * DAY_MS;

export const EVENT_SCOPES: Readonly<Record<ApiEventType, string>> = {
  'map.featured': 'events.maps',
  'map.unfeatured': 'events.maps',
};

export interface EventQuery {
  readonly after: number;
  /** The types asked for, already narrowed to what the key's scopes allow. */
  readonly types: ReadonlySet<string>;
  readonly targetType: string | undefined;
  readonly targetIds: ReadonlySet<number> | undefined;
  readonly limit: number;
  readonly nowMs: number;
}

export interface EventsPage {
  readonly events: ApiEvent[];
  readonly next: number;
  readonly has_more: boolean;
}

/** The events history and every event published since; ids only grow, with random gaps. */
export class EventStore {
  readonly #events: ApiEvent[];
  readonly #rng: Rng;

  constructor(history: readonly ApiEvent[], seed: number) {
    this.#events = [...history];
    this.#rng = new Rng(hashSeed(seed, 'published-events'));
  }

  publish(type: ApiEventType, map: CommunityMap, nowMs: number): ApiEvent {
    const lastId = this.#events.at(-1)?.id ?? 1_000;
    const event = makeEvent(lastId + this.#rng.int(1, 9), type, nowMs, map);
    this.#events.push(event);
    return event;
  }

  all(): readonly ApiEvent[] {
    return [...this.#events];
  }

  /**
   * Events newer than `after`, oldest first. A full page ends at its last event; otherwise `next` moves
   * past every event scanned, matching or not, so filtered-out events are not scanned again.
   */
  query(query: EventQuery): EventsPage {
    const oldestKept = query.nowMs - EVENT_RETENTION_MS;
    const page: ApiEvent[] = [];
    let next = query.after;
    let hasMore = false;
    for (const event of this.#events) {
      if (event.id <= query.after) continue;
      const kept = Date.parse(event.created_at) >= oldestKept;
      const matches = kept && this.#matches(event, query);
      if (page.length === query.limit) {
        if (matches) {
          hasMore = true;
          break;
        }
        continue;
      }
      if (matches) page.push(event);
      next = event.id;
    }
    if (page.length === query.limit) next = page.at(-1)?.id ?? next;
    return { events: page, next, has_more: hasMore };
  }

  #matches(event: ApiEvent, query: EventQuery): boolean {
    if (!query.types.has(event.type)) return false;
    if (query.targetType !== undefined && event.target.type !== query.targetType) return false;
    if (query.targetIds !== undefined && !query.targetIds.has(event.target.id)) return false;
    return true;
  }
}
