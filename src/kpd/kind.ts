import { ForbiddenError } from '../api/errors.ts';
import { UserError } from '../core/user-error.ts';
import type { SubscriptionKind } from '../announcements/kinds.ts';
import { renderKpdCallChanged, renderKpdNewCall } from '../render/kpd.ts';
import { KPD_CALL_CHANGE, KPD_KIND, KPD_NEW_CALL, KPD_SOURCE, KpdEventDataSchema } from './events.ts';
import { keyStatusMessage, kpdKeys } from './keys.ts';

/**
 * `/subscribe kpd channel`: new KPD calls, and changes of a call's status or verdict, posted to a
 * moderators' channel, read with the guild's own linked key (see `feed.ts`). Refused while the guild
 * has no working key.
 */
export const kpdKind: SubscriptionKind = {
  name: KPD_KIND,
  source: KPD_SOURCE,
  needsApiKey: false,
  options: [],

  async readOptions(ctx) {
    const guildId = ctx.interaction.guildId;
    if (!guildId) throw new UserError('kpd:errors.guildOnly');
    const result = await kpdKeys(ctx.services).withKey(guildId, async (key) => {
      try {
        await ctx.load('kpdLatestCalls', {}, { apiKey: key.apiKey });
      } catch (error) {
        if (error instanceof ForbiddenError) throw new UserError('kpd:errors.keyRefused');
        throw error;
      }
    });
    if (result.status !== 'ok') throw new UserError(keyStatusMessage(result.status));
    return { options: {} };
  },

  describe() {
    return '';
  },

  accepts(event, subscription) {
    if (event.source !== KPD_SOURCE) return false;
    const data = KpdEventDataSchema.safeParse(event.data);
    return data.success && data.data.guildId === subscription.guildId;
  },

  plan(event, _subscription, t) {
    const data = KpdEventDataSchema.safeParse(event.data);
    if (!data.success) return undefined;
    if (event.type === KPD_NEW_CALL) return { action: 'post', payload: renderKpdNewCall(t, data.data.call) };
    if (event.type === KPD_CALL_CHANGE) {
      return { action: 'post', payload: renderKpdCallChanged(t, data.data.call, data.data.previous ?? {}) };
    }
    return undefined;
  },
};
