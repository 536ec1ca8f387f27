import { ApplicationCommandOptionType } from 'discord.js';
import {
  ApiError,
  ForbiddenError,
  LocalRefusalError,
  NotFoundError,
  UnauthorizedError,
} from '../src/api/errors.ts';
import type { ArgsOf } from '../src/discord/args.ts';
import type { Command, CommandSpec, ModalContext } from '../src/discord/command.ts';
import { defineComponents, type DecodedComponent } from '../src/discord/component-id.ts';
import { parsePage, wholeNumber } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import { registerSecret } from '../src/log/index.ts';
import type { ReplyPayload } from '../src/render/payload.ts';
import {
  ME_PAGE_SIZE,
  renderMarketHistory,
  renderMatchHistory,
  renderOwnListings,
  renderRankedProfile,
  renderRankedProfileRegion,
  renderTrades,
  renderWallet,
} from '../src/render/me.ts';
import { accessTokenProblem, cleanPastedToken } from '../src/secrets/access-token.ts';
import { askForSecret, submittedSecret } from '../src/secrets/modal.ts';

/**
 * `/me`: the token owner's own data. The player's access token is asked for through a modal every
 * time, checked locally (well-formed, RS256, not expired) so that a token that cannot work sends no
 * request, used for that one reply, and then dropped: never stored, never logged.
 */
const MODAL_LIFETIME_MS = 15 * 60_000;

/** The modal of each subcommand carries its options, never the token. */
const MODALS = {
  wallet: [],
  'market-history': [],
  listings: [],
  trades: ['page'],
  ranked: ['season', 'region'],
  matches: ['page'],
} as const;
export const ids = defineComponents('me', MODALS);
type Modal = DecodedComponent<typeof MODALS>;

const page = {
  type: ApplicationCommandOptionType.Integer,
  name: 'page',
  min_value: 1,
  max_value: 100,
} as const;

/** The modal's custom id: the subcommand and its options. */
function modalId(args: ArgsOf<typeof data>, expiresAt: number): string | undefined {
  switch (args.subcommand) {
    case 'trades':
    case 'matches':
      return ids.encode[args.subcommand]({ page: args.page ?? 1 }, expiresAt);
    case 'ranked':
      return ids.encode.ranked({ season: args.season ?? 0, region: args.region ?? 0 }, expiresAt);
    default:
      return ids.encode[args.subcommand]({}, expiresAt);
  }
}

async function read(ctx: ModalContext, modal: Modal, token: string): Promise<ReplyPayload> {
  const t = ctx.t;
  const skinName = (index: number) => ctx.services.names.skinName(index);
  const pageNo = 'page' in modal.args ? (parsePage(modal.args.page, 100) ?? 1) : 1;
  switch (modal.action) {
    case 'wallet':
      return renderWallet(t, await ctx.load('wallet', {}, { token }));
    case 'market-history':
      return renderMarketHistory(t, await ctx.load('marketHistory', { limit: 25 }, { token }), skinName);
    case 'listings':
      return renderOwnListings(t, await ctx.load('ownListings', {}, { token }), skinName);
    case 'trades': {
      const trades = await ctx.load(
        'tradesHistory',
        { offset: (pageNo - 1) * ME_PAGE_SIZE, limit: ME_PAGE_SIZE, includeOpen: true },
        { token },
      );
      return renderTrades(t, trades, pageNo, skinName);
    }
    case 'ranked': {
      const season = wholeNumber(modal.args.season, 0, Number.MAX_SAFE_INTEGER) ?? 0;
      const region = wholeNumber(modal.args.region, 0, Number.MAX_SAFE_INTEGER) ?? 0;
      try {
        return region > 0
          ? renderRankedProfileRegion(t, await ctx.load('rankedProfileRegion', { season, region }, { token }))
          : renderRankedProfile(t, await ctx.load('rankedProfile', { season }, { token }));
      } catch (error) {
        if (error instanceof NotFoundError) throw new UserError('me:errors.noRanked');
        throw error;
      }
    }
    case 'matches': {
      const history = await ctx.load(
        'matchHistory',
        { limit: ME_PAGE_SIZE, offset: (pageNo - 1) * ME_PAGE_SIZE },
        { token },
      );
      const mapNames = await officialMapNames(ctx);
      return renderMatchHistory(t, history, pageNo, (id) => mapNames.get(id));
    }
  }
}

/** Map ids of match rows are official maps; their names are a cached game-tier list, optional here. */
async function officialMapNames(ctx: ModalContext): Promise<ReadonlyMap<number, string>> {
  try {
    const maps = await ctx.load('officialMaps', {});
    return new Map(maps.map((map) => [map.id, map.name]));
  } catch (error) {
    if (error instanceof ApiError) return new Map();
    throw error;
  }
}

async function answer(ctx: ModalContext): Promise<void> {
  const modal = ids.decode(ctx.id);
  if (!modal) throw new UserError('common:errors.unknownComponent');
  const raw = submittedSecret(ctx.interaction);
  const token = cleanPastedToken(raw);
  const forgetRaw = registerSecret(raw);
  const forget = registerSecret(token);
  try {
    const problem = accessTokenProblem(token, ctx.now);
    if (problem) throw new UserError(`me:errors.token.${problem}`);
    await ctx.defer({ ephemeral: true });
    await ctx.send(await read(ctx, modal, token));
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new UserError('me:errors.unauthorized');
    if (error instanceof ForbiddenError) throw new UserError('me:errors.forbidden');
    if (error instanceof LocalRefusalError && error.reason === 'bad_token')
      throw new UserError('me:errors.token.malformed');
    throw error;
  } finally {
    forget();
    forgetRaw();
  }
}

const data = {
  name: 'me',
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'wallet' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'market-history' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'listings' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'trades', options: [page] },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'ranked',
      options: [
        { type: ApplicationCommandOptionType.Integer, name: 'season', min_value: 1, max_value: 1000 },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'region',
          choices: [{ value: 2 }, { value: 3 }, { value: 4 }],
        },
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'matches', options: [page] },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const sub = ctx.args.subcommand;
    if (!Object.hasOwn(MODALS, sub)) throw new UserError('common:errors.unknownCommand');
    const customId = modalId(ctx.args, ctx.now + MODAL_LIFETIME_MS);
    if (customId === undefined) throw new UserError('common:errors.unknownComponent');
    await askForSecret(ctx, {
      customId,
      title: ctx.t.t(`me:modal.title.${sub}`),
      label: ctx.t.t('me:modal.label'),
      description: ctx.t.t('me:modal.description'),
      minLength: 20,
      maxLength: 4000,
    });
  },

  async modal(ctx) {
    return answer(ctx);
  },
};
