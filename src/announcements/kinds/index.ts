import type { AnnouncementKind } from './kind.ts';
import { kpdKind } from './kpd.ts';
import { mapsKind } from './maps.ts';
import { turfKind } from './turf.ts';

export { subscriptionIdentity, type AnnouncementKind, type DeliveryPlan } from './kind.ts';
export { KindRegistry } from './registry.ts';

/**
 * Every announcement kind, in `/subscribe`'s order of subcommands. The composition root (`src/bot.ts`)
 * hands this list to `startAnnouncements`; nothing in the announcement subsystem imports it.
 */
export const ANNOUNCEMENT_KINDS: readonly AnnouncementKind[] = [mapsKind, turfKind, kpdKind];
