import { ApplicationCommandOptionType, type APIEmbed } from 'discord.js';
import { ForbiddenError, LocalRefusalError, NotFoundError, UnauthorizedError } from '../src/api/errors.ts';
import type { ArgsOf } from '../src/discord/args.ts';
import type {
  Command,
  CommandContext,
  CommandSpec,
  ComponentContext,
  ModalContext,
} from '../src/discord/command.ts';
import {
  COMPONENT_LIFETIME_MS,
  decodeComponentId,
  defineComponents,
  type DecodedComponent,
} from '../src/discord/component-id.ts';
import { parsePage, wholeNumber } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import { registerSecret } from '../src/log/index.ts';
import { officialMapNames } from '../src/features/maps/official.ts';
import type { MarketHistory } from '../src/api/schemas/index.ts';
import { localPage, type LocalPage } from '../src/render/pages.ts';
import type { ReplyPayload } from '../src/render/payload.ts';
import { pastTimes, type Row } from '../src/render/common.ts';
import {
  ME_PAGE_SIZE,
  forgottenUpdate,
  renderForgotten,
  renderMarketHistory,
  renderMatchHistory,
  renderOwnListings,
  renderRankedProfile,
  renderRankedProfileRegion,
  renderTrades,
  renderWallet,
  withControls,
  type MePaging,
} from '../src/features/tokens/render.ts';
import { accessTokenMemory, tokenExpiry } from '../src/features/tokens/token-memory.ts';
import { accessTokenProblem, cleanPastedToken } from '../src/secrets/access-token.ts';
import { submittedSecret } from '../src/secrets/modal.ts';
import { tokenModal, wantsRemembering } from '../src/features/tokens/token-modal.ts';

/**
 * `/me`: the token owner's own data. The player's access token is asked for through a modal, checked
 * locally (well-formed, RS256, not expired) so that a token that cannot work sends no request, and used
 * for the reply. By default it is then dropped. When the player chooses "remember" in the modal (an
 * opt-in select, "no" by default), it is kept in this process's memory (`src/features/tokens/token-memory.ts`) for
 * that Discord user until the earlier of its own expiry and 15 minutes: `/me` and its page buttons use
 * it without asking, and "Forget my token" or `/me forget` drop it at once. Never stored, never logged.
 */
const MODAL_LIFETIME_MS = 15 * 60_000;

/**
 * Ids of the modal (a read and its options, never the token), of the page buttons (the same read for
 * another page: with a kept token it answers, without it asks for the token) and of "Forget my token".
 */
const MODALS = {
  wallet: [],
  'market-history': ['page'],
  listings: ['page'],
  trades: ['page'],
  ranked: ['season', 'region'],
  matches: ['page'],
  forget: [],
} as const;
export const ids = defineComponents('me', MODALS);
type Modal = DecodedComponent<typeof MODALS>;
/** A read (what to show, with its options), wherever it comes from: a subcommand, a modal, a button. */
type Read = Modal extends infer M ? (M extends { action: 'forget' } ? never : Omit<M, 'expiresAt'>) : never;

const page = {
  type: ApplicationCommandOptionType.Integer,
  name: 'page',
  min_value: 1,
  max_value: 100,
} as const;

type Args = ArgsOf<typeof data>;
type ReadArgs = Exclude<Args, { subcommand: 'forget' }>;

/** The read a subcommand asks for, as the modal and buttons carry it. */
function readOf(args: ReadArgs): Read {
  switch (args.subcommand) {
    case 'trades':
    case 'matches':
      return { action: args.subcommand, args: { page: String(args.page ?? 1) } };
    case 'market-history':
    case 'listings':
      return { action: args.subcommand, args: { page: '1' } };
    case 'ranked':
      return {
        action: 'ranked',
        args: { season: String(args.season ?? 0), region: String(args.region ?? 0) },
      };
    default:
      return { action: args.subcommand, args: {} };
  }
}

function encodeRead(read: Read, expiresAt: number): string | undefined {
  switch (read.action) {
    case 'trades':
    case 'matches':
    case 'market-history':
    case 'listings':
      return ids.encode[read.action]({ page: read.args.page }, expiresAt);
    case 'ranked':
      return ids.encode.ranked(read.args, expiresAt);
    default:
      return ids.encode[read.action]({}, expiresAt);
  }
}

function pageNumber(read: Read): number {
  return 'page' in read.args ? (parsePage(read.args.page, 100) ?? 1) : 1;
}

/** The page buttons of a paged read: the same read, another page. */
function paging(
  ctx: { readonly now: number },
  action: 'trades' | 'matches' | 'market-history' | 'listings',
  pageNo: number,
  hasNext: boolean,
  totalPages?: number,
): MePaging {
  return {
    pager: ids.pager(ctx.now, (p, at) => ids.encode[action]({ page: p }, at)),
    page: pageNo,
    hasNext,
    totalPages,
  };
}

type ReadContext = ModalContext | CommandContext | ComponentContext;

/** The page buttons of a list read whole and paged here: none when it fits on one page. */
function localPaging(
  ctx: { readonly now: number },
  action: 'market-history' | 'listings',
  slice: LocalPage<unknown>,
): MePaging | undefined {
  if (slice.pages <= 1) return undefined;
  return paging(ctx, action, slice.page, slice.page < slice.pages, slice.pages);
}

/** Reads of the market history (100 entries each, by cursor) one reply makes at most. */
export const MARKET_HISTORY_READS = 4;

/**
 * The token owner's market history, followed by its cursor: the whole of it (`complete`), or its latest
 * {@link MARKET_HISTORY_READS} × 100 entries. Read whole so that the pages and the totals agree.
 */
async function wholeMarketHistory(ctx: ReadContext, token: string) {
  const entries: MarketHistory['entries'] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let reads = 0; reads < MARKET_HISTORY_READS; reads += 1) {
    const page = await ctx.load('marketHistory', { limit: 100, ...(cursor ? { cursor } : {}) }, { token });
    entries.push(...page.entries.slice(0, 100));
    const next = page.cursor ?? undefined;
    // No cursor, an empty page or a cursor seen before: the history is read to its end.
    if (!next || page.entries.length === 0 || seen.has(next)) return { entries, complete: true };
    seen.add(next);
    cursor = next;
  }
  return { entries, complete: false };
}

/** A reply of a read, and its page buttons when it is paged. */
interface ReadReply {
  readonly payload: ReplyPayload;
  readonly paging?: MePaging | undefined;
}

async function read(ctx: ReadContext, modal: Read, token: string): Promise<ReadReply> {
  const t = ctx.t;
  const skinName = (index: number) => ctx.services.names.skinName(index);
  const pageNo = pageNumber(modal);
  const past = pastTimes(ctx.now, ctx.services.log);
  switch (modal.action) {
    case 'wallet':
      return { payload: renderWallet(t, await ctx.load('wallet', {}, { token })) };
    case 'market-history': {
      const { entries, complete } = await wholeMarketHistory(ctx, token);
      return {
        payload: renderMarketHistory(t, { entries, complete, page: pageNo }, skinName, past),
        paging: localPaging(ctx, 'market-history', localPage(entries, pageNo)),
      };
    }
    case 'listings': {
      const listings = await ctx.load('ownListings', {}, { token });
      return {
        payload: renderOwnListings(t, listings, skinName, past, pageNo),
        paging: localPaging(ctx, 'listings', localPage(listings.listings, pageNo)),
      };
    }
    case 'trades': {
      // One more than a page: whether there is a next page, without a total.
      const trades = await ctx.load(
        'tradesHistory',
        { offset: (pageNo - 1) * ME_PAGE_SIZE, limit: ME_PAGE_SIZE + 1, includeOpen: true },
        { token },
      );
      const hasNext = trades.trades.length > ME_PAGE_SIZE && pageNo < 100;
      return {
        payload: renderTrades(t, trades, pageNo, skinName, past),
        paging: paging(ctx, 'trades', pageNo, hasNext),
      };
    }
    case 'ranked': {
      const season = wholeNumber(modal.args.season, 0, Number.MAX_SAFE_INTEGER) ?? 0;
      const region = wholeNumber(modal.args.region, 0, Number.MAX_SAFE_INTEGER) ?? 0;
      try {
        return {
          payload:
            region > 0
              ? renderRankedProfileRegion(
                  t,
                  await ctx.load('rankedProfileRegion', { season, region }, { token }),
                )
              : renderRankedProfile(t, await ctx.load('rankedProfile', { season }, { token })),
        };
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
      const total = history.total;
      const totalPages =
        total === undefined ? undefined : Math.min(100, Math.max(1, Math.ceil(total / ME_PAGE_SIZE)));
      const hasNext =
        totalPages === undefined
          ? history.matches.length >= ME_PAGE_SIZE && pageNo < 100
          : pageNo < totalPages;
      return {
        payload: renderMatchHistory(t, history, pageNo, (id) => mapNames.get(id), past),
        paging: paging(ctx, 'matches', pageNo, hasNext, totalPages),
      };
    }
  }
}

/**
 * Reads with `token` and answers. `kept` is until when the token stays in memory (then the reply says
 * so and carries "Forget my token"); a token the game refuses is dropped from memory at once.
 */
async function answerWith(ctx: ReadContext, modal: Read, token: string, kept: number | undefined) {
  const userId = ctx.interaction.user.id;
  try {
    await ctx.defer({ ephemeral: true });
    const { payload, paging: pages } = await read(ctx, modal, token);
    const forgetId =
      kept === undefined ? undefined : ids.encode.forget({}, Math.min(kept, ctx.now + COMPONENT_LIFETIME_MS));
    await ctx.send({
      ...withControls(ctx.t, payload, { forgetId, keptUntil: kept }, pages),
      ephemeral: true,
    });
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      accessTokenMemory(ctx.services).forget(userId);
      throw new UserError('me:errors.unauthorized');
    }
    if (error instanceof ForbiddenError) throw new UserError('me:errors.forbidden');
    if (error instanceof LocalRefusalError && error.reason === 'bad_token') {
      accessTokenMemory(ctx.services).forget(userId);
      throw new UserError('me:errors.token.malformed');
    }
    throw error;
  }
}

/** Asks for the token for `modal` (a read): the first response of a command or a page button. */
async function askForToken(ctx: CommandContext | ComponentContext, modal: Read): Promise<void> {
  const customId = encodeRead(modal, ctx.now + MODAL_LIFETIME_MS);
  if (customId === undefined) throw new UserError('common:errors.unknownComponent');
  await ctx.responder.showModal(tokenModal(ctx.t, customId, ctx.t.t(`me:modal.title.${modal.action}`)));
}

async function answerModal(ctx: ModalContext): Promise<void> {
  const modal = ids.decode(ctx.id);
  if (!modal || modal.action === 'forget') throw new UserError('common:errors.unknownComponent');
  const raw = submittedSecret(ctx.interaction);
  const token = cleanPastedToken(raw);
  const forgetRaw = registerSecret(raw);
  const forget = registerSecret(token);
  try {
    const problem = accessTokenProblem(token, ctx.now);
    if (problem) throw new UserError(`me:errors.token.${problem}`);
    const memory = accessTokenMemory(ctx.services);
    const userId = ctx.interaction.user.id;
    // A new token replaces whatever was kept; "no" keeps nothing, and drops an older one.
    memory.forget(userId);
    const kept = wantsRemembering(ctx.interaction)
      ? memory.remember(userId, token, tokenExpiry(token))
      : undefined;
    await answerWith(ctx, modal, token, kept);
  } finally {
    forget();
    forgetRaw();
  }
}

/**
 * The "Forget my token" button: drops it, and takes the note and the button off the reply (which keeps
 * its data and page buttons). Already gone (expired, or `/me forget`) reads the same: it is not kept.
 */
async function forgetClicked(ctx: ComponentContext): Promise<void> {
  accessTokenMemory(ctx.services).forget(ctx.interaction.user.id);
  const message = ctx.interaction.message;
  const embeds: APIEmbed[] = message.embeds.map((embed) => embed.toJSON());
  const rows = message.components
    .map((row) => row.toJSON() as Row)
    .filter(
      (row) =>
        !('components' in row) ||
        !row.components.some((c) => 'custom_id' in c && isForgetButton(c.custom_id)),
    );
  await ctx.send(forgottenUpdate(ctx.t, embeds, rows));
}

function isForgetButton(customId: string): boolean {
  const decoded = decodeComponentId(customId);
  return decoded !== undefined && ids.decode(decoded)?.action === 'forget';
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
    { type: ApplicationCommandOptionType.Subcommand, name: 'forget' },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const args = ctx.args;
    if (!Object.hasOwn(MODALS, args.subcommand)) throw new UserError('common:errors.unknownCommand');
    const memory = accessTokenMemory(ctx.services);
    const userId = ctx.interaction.user.id;
    if (args.subcommand === 'forget') {
      await ctx.send(renderForgotten(ctx.t, memory.forget(userId)));
      return;
    }
    const modal = readOf(args);
    const kept = memory.get(userId);
    if (kept) return answerWith(ctx, modal, kept.token, kept.until);
    await askForToken(ctx, modal);
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (!id) throw new UserError('common:errors.unknownComponent');
    if (id.action === 'forget') return forgetClicked(ctx);
    const kept = accessTokenMemory(ctx.services).get(ctx.interaction.user.id);
    if (kept) return answerWith(ctx, id, kept.token, kept.until);
    await askForToken(ctx, id);
  },

  async modal(ctx) {
    return answerModal(ctx);
  },
};
