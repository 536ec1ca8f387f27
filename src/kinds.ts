import type { AnnouncementKind } from './announcements/kinds/kind.ts';
import { kpdKind } from './features/kpd/kind.ts';
import { mapsKind } from './features/maps/kind.ts';
import { trackKind } from './features/tracking/kind.ts';
import { turfDigestKind } from './features/turf/digest/kind.ts';
import { remindKind } from './features/turf/reminders/kind.ts';
import { clanLogKind } from './features/clans/log/kind.ts';

export {
  subscriptionIdentity,
  type AnnouncementKind,
  type DeliveryPlan,
} from './announcements/kinds/kind.ts';
export { KindRegistry } from './announcements/kinds/registry.ts';

/**
 * Every announcement kind (`track` is made by `/track` and `remind` by `/remind`, the others are
 * `/subscribe`'s subcommands, in order; `turf` with its daily digest). The composition root (`src/worker.ts`
 * and `src/bot.ts`) hands this list to the announcement pipeline (`startPipeline`); nothing in the
 * announcement subsystem imports it.
 */
export const ANNOUNCEMENT_KINDS: readonly AnnouncementKind[] = [
  mapsKind,
  turfDigestKind,
  kpdKind,
  clanLogKind,
  trackKind,
  remindKind,
];
