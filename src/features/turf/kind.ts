import { renderTurfDaily, renderTurfOwnerChange } from '../../announcements/render-posts.ts';
import {
  TURF_DAILY_EVENT,
  TURF_OWNER_EVENT,
  TURF_SOURCE,
  TurfDailySchema,
  TurfOwnerChangeSchema,
} from '../../announcements/model.ts';
import { numberOption, stringOption, type AnnouncementKind } from '../../announcements/kinds/kind.ts';

/**
 * `/subscribe turf`: turf maps changing owner (all of them, or those a clan took or lost) and, for a clan,
 * its earnings of each turf day.
 */
export const turfKind: AnnouncementKind = {
  name: 'turf',
  source: TURF_SOURCE,
  needsApiKey: false,
  filters: ['clanId'],

  accepts(event, subscription) {
    if (event.source !== TURF_SOURCE) return false;
    const clanId = numberOption(subscription, 'clanId');
    if (event.type === TURF_OWNER_EVENT) {
      if (clanId === undefined) return true;
      const change = TurfOwnerChangeSchema.safeParse(event.data);
      return (
        change.success && (change.data.previous?.clanId === clanId || change.data.current?.clanId === clanId)
      );
    }
    if (event.type === TURF_DAILY_EVENT) {
      const daily = TurfDailySchema.safeParse(event.data);
      return clanId !== undefined && daily.success && daily.data.clanId === clanId;
    }
    return false;
  },

  plan(event, subscription, t) {
    const clanId = numberOption(subscription, 'clanId');
    const clanName = stringOption(subscription, 'clanName');
    const clan = clanId === undefined ? undefined : { clanId, clanName: clanName ?? String(clanId) };
    if (event.type === TURF_OWNER_EVENT) {
      const change = TurfOwnerChangeSchema.safeParse(event.data);
      if (!change.success) return undefined;
      return { action: 'post', payload: renderTurfOwnerChange(t, { ...change.data, at: event.at, clan }) };
    }
    if (event.type === TURF_DAILY_EVENT) {
      const daily = TurfDailySchema.safeParse(event.data);
      if (!daily.success) return undefined;
      const { clanId: id, clanName: name, day, kr } = daily.data;
      return {
        action: 'post',
        payload: renderTurfDaily(t, { clan: { clanId: id, clanName: name }, day, kr }),
      };
    }
    return undefined;
  },
};
