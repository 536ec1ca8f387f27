import { ForbiddenError } from '../../src/api/errors.ts';
import { kpdKind } from '../../src/features/kpd/kind.ts';
import { UserError } from '../../src/core/user-error.ts';
import { keyStatusMessage } from '../../src/features/kpd/keys.ts';
import { defineSubscribeKind } from './kind.ts';

/** `/subscribe kpd channel`: refused while the guild has no working KPD key (checked with one call). */
export const subscribeKpd = defineSubscribeKind({
  kind: kpdKind,
  options: [],

  async read(ctx) {
    const guildId = ctx.interaction.guildId;
    if (!guildId) throw new UserError('kpd:errors.guildOnly');
    const result = await ctx.services.records.kpdKeys.withKey(guildId, async (key) => {
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
});
