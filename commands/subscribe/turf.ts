import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../../src/api/errors.ts';
import { stringOption } from '../../src/announcements/kinds/kind.ts';
import { turfKind } from '../../src/features/turf/kind.ts';
import { UserError } from '../../src/core/user-error.ts';
import { text } from '../../src/render/common.ts';
import { defineSubscribeKind } from './kind.ts';

/** `/subscribe turf channel [clan]`: every owner change, or only a clan's (and its daily earnings). */
export const subscribeTurf = defineSubscribeKind({
  kind: turfKind,
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'clan',
      min_length: 1,
      max_length: 64,
      autocomplete: 'clan',
    },
  ],

  async read(ctx, args) {
    const asked = args.clan?.trim();
    if (!asked) return { options: {} };
    try {
      const clan = await ctx.load('clanByName', { clanName: asked });
      ctx.services.names.remember('clan', clan.name);
      return { options: { clanId: clan.clan_id, clanName: clan.name } };
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new UserError('subscribe:errors.clanNotFound', { name: text(asked, 64) });
      throw error;
    }
  },

  describe(t, subscription) {
    const clanName = stringOption(subscription, 'clanName');
    return clanName === undefined
      ? t.t('subscriptions:details.allTurf')
      : t.t('subscriptions:details.clan', { clan: text(clanName, 64) });
  },
});
