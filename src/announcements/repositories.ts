import type { Database } from '../db/index.ts';
import type { Store } from '../store/index.ts';
import { DeliveryRepository, RefRepository } from './records/deliveries.ts';
import { CursorRepository, InboxRepository, TurfStateRepository } from './records/events.ts';
import { SubscriptionRepository } from './records/subscriptions.ts';

/**
 * Typed access to what announcements keep: the records in SQL tables (`records/`), the delivery claims
 * (short leases) in the key-value store. Values are parsed on the way out; a row that does not parse is
 * treated as absent.
 */
export { DeliveryRepository, RefRepository } from './records/deliveries.ts';
export {
  CursorRepository,
  DELIVERY_RECORD_TTL_MS,
  InboxRepository,
  TurfStateRepository,
} from './records/events.ts';
export { SubscriptionRepository, type AddResult } from './records/subscriptions.ts';
export type { AnnouncementRef, Delivery } from './model.ts';

/** Every repository of announcements, opened once (`openRepositories`, at the composition root). */
export interface Repositories {
  readonly subscriptions: SubscriptionRepository;
  readonly cursors: CursorRepository;
  readonly inbox: InboxRepository;
  readonly deliveries: DeliveryRepository;
  readonly refs: RefRepository;
  readonly turf: TurfStateRepository;
}

declare module '../services.ts' {
  interface Records {
    /** Subscriptions, cursors, the inbox, deliveries, message refs and the turf state. */
    readonly announcements: Repositories;
  }
}

export function openRepositories(db: Database, store: Store): Repositories {
  return {
    subscriptions: new SubscriptionRepository(db),
    cursors: new CursorRepository(db),
    inbox: new InboxRepository(db),
    deliveries: new DeliveryRepository(db, store),
    refs: new RefRepository(db),
    turf: new TurfStateRepository(db),
  };
}

/** Deletes the records whose time is up (done events, set-aside events, deliveries, intents, refs). */
export async function purgeExpiredRecords(db: Database, now: number): Promise<number> {
  let removed = 0;
  for (const table of [
    'events_done',
    'quarantine',
    'deliveries',
    'delivery_intents',
    'announcement_refs',
  ] as const) {
    const result = await db.kysely.deleteFrom(table).where('expires_at', '<', now).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
