import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../../src/api/errors.ts';
import { stringOption } from '../../src/announcements/kinds/kind.ts';
import { UserError } from '../../src/core/user-error.ts';
import { turfDigestKind, wantsDigest, wantsIdle } from '../../src/features/turf/digest/kind.ts';
import { DIGEST_OPTION, IDLE_OPTION } from '../../src/features/turf/digest/model.ts';
import { text } from '../../src/render/common.ts';
import { defineSubscribeKind } from './kind.ts';

/**
 * `/subscribe turf channel [clan] [digest] [idle]`: every owner change, or only a clan's (and its daily
 * earnings); with `digest`, the clan's daily digest instead of the earnings line (`src/features/turf-digest`),
 * and with `idle` the digest also names the roster members who scored nothing that day.
 */
export const subscribeTurf = defineSubscribeKind({
  kind: turfDigestKind,
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'clan',
      min_length: 1,
      max_length: 64,
      autocomplete: 'clan',
    },
    { type: ApplicationCommandOptionType.Boolean, name: 'digest' },
    { type: ApplicationCommandOptionType.Boolean, name: 'idle' },
  ] as const,

  async read(ctx, args) {
    const asked = args.clan?.trim();
    const digest = args.digest === true;
    const idle = args.idle === true;
    if (!asked) {
      if (digest || idle) throw new UserError('digest:errors.needsClan');
      return { options: {} };
    }
    if (idle && !digest) throw new UserError('digest:errors.idleNeedsDigest');
    try {
      const clan = await ctx.load('clanByName', { clanName: asked });
      ctx.services.names.remember('clan', clan.name);
      return {
        options: {
          clanId: clan.clan_id,
          clanName: clan.name,
          ...(digest ? { [DIGEST_OPTION]: 1 } : {}),
          ...(idle ? { [IDLE_OPTION]: 1 } : {}),
        },
      };
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new UserError('subscribe:errors.clanNotFound', { name: text(asked, 64) });
      throw error;
    }
  },

  describe(t, subscription) {
    const clanName = stringOption(subscription, 'clanName');
    if (clanName === undefined) return t.t('subscriptions:details.allTurf');
    const clan = t.t('subscriptions:details.clan', { clan: text(clanName, 64) });
    if (!wantsDigest(subscription)) return clan;
    return `${clan}\n${t.t(wantsIdle(subscription) ? 'digest:details.idle' : 'digest:details.on')}`;
  },
});
