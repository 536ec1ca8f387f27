import { KPD_CALL_CHANGE, KPD_KIND, KPD_NEW_CALL, KPD_SOURCE, KpdEventDataSchema } from './events.ts';
import { renderKpdCallChanged, renderKpdNewCall } from './render.ts';
import type { AnnouncementKind } from '../../announcements/kinds/kind.ts';

/**
 * `/subscribe kpd`: new KPD calls, and changes of a call's status or verdict, posted to a moderators'
 * channel, read with the guild's own linked key (see `src/features/kpd/feed.ts`).
 */
export const kpdKind: AnnouncementKind = {
  name: KPD_KIND,
  source: KPD_SOURCE,
  needsApiKey: false,

  accepts(event, subscription) {
    if (event.source !== KPD_SOURCE) return false;
    const data = KpdEventDataSchema.safeParse(event.data);
    return data.success && data.data.guildId === subscription.guildId;
  },

  plan(event, _subscription, t, past) {
    const data = KpdEventDataSchema.safeParse(event.data);
    if (!data.success) return undefined;
    if (event.type === KPD_NEW_CALL)
      return { action: 'post', payload: renderKpdNewCall(t, data.data.call, past) };
    if (event.type === KPD_CALL_CHANGE) {
      return {
        action: 'post',
        payload: renderKpdCallChanged(t, data.data.call, data.data.previous ?? {}, past),
      };
    }
    return undefined;
  },
};
