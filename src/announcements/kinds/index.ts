import type { AnnouncementKind } from './kind.ts';
import { kpdKind } from './kpd.ts';
import { mapsKind } from './maps.ts';
import { trackKind } from './track.ts';
import { turfDigestKind } from '../../features/turf-digest/kind.ts';
import { remindKind } from '../../features/reminders/kind.ts';

export { subscriptionIdentity, type AnnouncementKind, type DeliveryPlan } from './kind.ts';
export { KindRegistry } from './registry.ts';

/**
 * Every announcement kind (`track` is made by `/track` and `remind` by `/remind`, the others are
 * `/subscribe`'s subcommands, in order; `turf` with its daily digest). The composition root (`src/bot.ts`)
 * hands this list to `startAnnouncements`; nothing in the announcement subsystem imports it.
 */
export const ANNOUNCEMENT_KINDS: readonly AnnouncementKind[] = [
  mapsKind,
  turfDigestKind,
  kpdKind,
  trackKind,
  remindKind,
];
