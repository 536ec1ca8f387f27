import type { AnnouncementKind } from '../../../announcements/kinds/kind.ts';
import { numberOption } from '../../../announcements/kinds/kind.ts';
import { turfKind } from '../kind.ts';
import { TURF_DAILY_EVENT, type Subscription } from '../../../announcements/model.ts';
import { DIGEST_OPTION, DigestSchema, IDLE_OPTION, TURF_DIGEST_EVENT } from './model.ts';
import { renderTurfDigest } from './render.ts';

/** Whether a turf subscription gets the daily digest (a clan's, with `digest` on). */
export function wantsDigest(subscription: Subscription): boolean {
  return (
    numberOption(subscription, 'clanId') !== undefined && numberOption(subscription, DIGEST_OPTION) === 1
  );
}

/** Whether its digest lists the roster members who scored nothing. */
export function wantsIdle(subscription: Subscription): boolean {
  return wantsDigest(subscription) && numberOption(subscription, IDLE_OPTION) === 1;
}

/**
 * The turf kind with the daily digest: a clan's subscription with `digest` on gets one digest per turf
 * day (its KR of the day is in it, so the one-line daily earnings post is not made for it); every other
 * turf subscription and event is the turf kind's own.
 */
export function withDigest(turf: AnnouncementKind): AnnouncementKind {
  return {
    ...turf,
    accepts(event, subscription) {
      if (event.type === TURF_DIGEST_EVENT) {
        if (!wantsDigest(subscription)) return false;
        const digest = DigestSchema.safeParse(event.data);
        return digest.success && digest.data.clanId === numberOption(subscription, 'clanId');
      }
      if (event.type === TURF_DAILY_EVENT && wantsDigest(subscription)) return false;
      return turf.accepts(event, subscription);
    },
    plan(event, subscription, t, past) {
      if (event.type !== TURF_DIGEST_EVENT) return turf.plan(event, subscription, t, past);
      const digest = DigestSchema.safeParse(event.data);
      if (!digest.success) return undefined;
      return {
        action: 'post',
        payload: renderTurfDigest(t, { digest: digest.data, idle: wantsIdle(subscription) }),
      };
    },
  };
}

/** The turf kind the bot runs with (`ANNOUNCEMENT_KINDS`) and `/subscribe turf` makes: with the digest. */
export const turfDigestKind: AnnouncementKind = withDigest(turfKind);
