import { ApplicationCommandOptionType } from 'discord.js';
import {
  ApiError,
  ForbiddenError,
  LocalRefusalError,
  NotFoundError,
  UnauthorizedError,
} from '../src/api/errors.ts';
import type { Command, CommandContext, ModalContext } from '../src/discord/command.ts';
import { encodeComponentId } from '../src/discord/component-id.ts';
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
const SUBCOMMANDS = ['wallet', 'market-history', 'listings', 'trades', 'ranked', 'matches'] as const;
type Sub = (typeof SUBCOMMANDS)[number];

function isSub(value: string): value is Sub {
  return (SUBCOMMANDS as readonly string[]).includes(value);
}

const page = {
  type: ApplicationCommandOptionType.Integer,
  name: 'page',
  min_value: 1,
  max_value: 100,
} as const;

/** What the modal's custom id carries besides the subcommand: only options, never the token. */
function argsOf(ctx: CommandContext, sub: Sub): number[] {
  const options = ctx.interaction.options;
  switch (sub) {
    case 'trades':
    case 'matches':
      return [options.getInteger('page') ?? 1];
    case 'ranked':
      return [options.getInteger('season') ?? 0, options.getInteger('region') ?? 0];
    default:
      return [];
  }
}

async function read(
  ctx: ModalContext,
  sub: Sub,
  args: readonly number[],
  token: string,
): Promise<ReplyPayload> {
  const t = ctx.t;
  const skinName = (index: number) => ctx.services.names.skinName(index);
  const pageNo = Math.max(1, args[0] ?? 1);
  switch (sub) {
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
      const season = Math.max(0, args[0] ?? 0);
      const region = args[1] ?? 0;
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
  const sub = ctx.id.action;
  if (!isSub(sub)) throw new UserError('common:errors.unknownComponent');
  const args = ctx.id.args.map((arg) => Number(arg)).map((value) => (Number.isInteger(value) ? value : 0));
  const raw = submittedSecret(ctx.interaction);
  const token = cleanPastedToken(raw);
  const forgetRaw = registerSecret(raw);
  const forget = registerSecret(token);
  try {
    const problem = accessTokenProblem(token, ctx.now);
    if (problem) throw new UserError(`me:errors.token.${problem}`);
    await ctx.defer({ ephemeral: true });
    await ctx.send(await read(ctx, sub, args, token));
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

export const command: Command = {
  data: {
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
  },

  async execute(ctx) {
    const sub = ctx.interaction.options.getSubcommand();
    if (!isSub(sub)) throw new UserError('common:errors.unknownCommand');
    const customId = encodeComponentId('me', sub, argsOf(ctx, sub), ctx.now + MODAL_LIFETIME_MS);
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
