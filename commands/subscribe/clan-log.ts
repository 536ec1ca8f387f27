import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../../src/api/errors.ts';
import { UserError } from '../../src/core/user-error.ts';
import { describeClanLog, statusLine } from '../../src/features/clans/log/describe.ts';
import { clanLogKind } from '../../src/features/clans/log/kind.ts';
import {
  CLAN_LOG_EVENTS,
  MILESTONE_CHOICES,
  eventsChoice,
  milestoneFor,
} from '../../src/features/clans/log/model.ts';
import { clanLogStatus } from '../../src/features/clans/log/plan.ts';
import { text } from '../../src/render/common.ts';
import { nameSearchOf } from '../../src/search/index.ts';
import { defineSubscribeKind } from './kind.ts';

/**
 * `/subscribe clan-log channel clan [events] [milestone]`: a clan's roster changes (joins, leaves, roles,
 * owner; optionally milestones and the clan's rank and size), read in the background (`src/features/clans/log`).
 */
export const subscribeClanLog = defineSubscribeKind({
  kind: clanLogKind,
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'clan',
      required: true,
      min_length: 1,
      max_length: 64,
      autocomplete: 'clan',
    },
    {
      type: ApplicationCommandOptionType.String,
      name: 'events',
      choices: CLAN_LOG_EVENTS.map((value) => ({ value })),
    },
    {
      type: ApplicationCommandOptionType.Integer,
      name: 'milestone',
      choices: MILESTONE_CHOICES.map((value) => ({ value })),
    },
  ] as const,

  async read(ctx, args) {
    const asked = args.clan.trim();
    if (asked === '') throw new UserError('clanlog:errors.clanRequired');
    try {
      const clan = await ctx.load('clanByName', { clanName: asked });
      ctx.services.names.remember('clan', clan.name);
      const events = eventsChoice(args.events);
      const milestone = milestoneFor(events, args.milestone);
      return {
        options: {
          clanId: clan.clan_id,
          clanName: clan.name,
          events,
          ...(milestone === undefined ? {} : { milestone }),
        },
      };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      // Clan names are exact in the game: the names already seen are the only suggestions there are.
      const close = await nameSearchOf(ctx.services).didYouMean('clan', asked);
      throw close.length === 0
        ? new UserError('clanlog:errors.clanNotFound', { name: text(asked, 64) })
        : new UserError('clanlog:errors.clanNotFoundSuggest', {
            name: text(asked, 64),
            names: close.map((name) => text(name, 64)).join(', '),
          });
    }
  },

  describe: describeClanLog,

  async status(services, t, subscriptions) {
    const status = await clanLogStatus(services.records, services.demand, services.config, subscriptions);
    return new Map([...status].map(([id, entry]) => [id, statusLine(t, entry)]));
  },
});
