import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { defineComponents, type ComponentId } from '../src/discord/component-id.ts';
import { parsePage, skinOption, wholeNumber } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import {
  DEFAULT_DAYS,
  OVERVIEW_SALES,
  renderMarketOverview,
  renderMarketSkin,
} from '../src/features/market/render.ts';
import type { SalesStatistics } from '../src/api/schemas/index.ts';
import { pastTimes } from '../src/render/common.ts';

const MIN_DAYS = 1;
const MAX_DAYS = 120;

/** The ids of this command's page buttons; exported for the renderer tests. */
export const ids = defineComponents('market', { listings: ['skin', 'days', 'page'] });

export const marketIds = {
  listings: (skinIndex: number, days: number, now: number) =>
    ids.pager(now, (p, at) => ids.encode.listings({ skin: skinIndex, days, page: p }, at)),
};

function isSkinIndex(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function isDays(value: number): boolean {
  return Number.isInteger(value) && value >= MIN_DAYS && value <= MAX_DAYS;
}

async function showSkin(
  ctx: CommandContext | ComponentContext,
  skinIndex: number,
  days: number,
  page: number,
): Promise<void> {
  let data;
  try {
    // The market endpoint takes over 10 s when cold: a miss defers at once, before it is asked. A cached
    // answer (a page button, a repeat) is the reply itself, one request to Discord rather than two.
    data = await ctx.load('marketSkin', { skinIndex, days, page });
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError('market:notFound', { index: skinIndex });
    throw error;
  }
  const { names } = ctx.services;
  names.remember('player', ...(data.listings ?? []).map((listing) => listing.seller_name));
  names.remember('player', ...(data.owners ?? []).map((owner) => owner.player_name));
  await ctx.send(
    await renderMarketSkin(ctx.t, {
      data,
      skinName: names.skinName(skinIndex),
      days,
      page,
      now: ctx.now,
      pager: marketIds.listings(data.skin_index, days, ctx.now),
      past: pastTimes(ctx.now, ctx.services.log),
    }),
  );
}

/** The arguments of a `listings` button; anything else is not a button this command made. */
export function listingsArgs(id: ComponentId): { skinIndex: number; days: number; page: number } {
  const decoded = ids.decode(id);
  if (decoded?.action !== 'listings') throw new UserError('common:errors.unknownComponent');
  const { args } = decoded;
  const skinIndex = wholeNumber(args.skin, 0, Number.MAX_SAFE_INTEGER);
  const days = wholeNumber(args.days, MIN_DAYS, MAX_DAYS);
  const page = parsePage(args.page);
  if (skinIndex === undefined || days === undefined || page === undefined) {
    throw new UserError('common:errors.unknownComponent');
  }
  return { skinIndex, days, page };
}

const data = {
  name: 'market',
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'skin',
      options: [
        skinOption,
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'days',
          min_value: MIN_DAYS,
          max_value: MAX_DAYS,
        },
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'overview' },
  ],
} as const satisfies CommandSpec;

/**
 * The market's own statistics (the first page of `/market/stats`, sorted by what is on sale) and the
 * recent sales of its most listed skins (`/market/items/{id}/sales-statistics`, a few requests, each
 * cached a minute). A skin whose sales cannot be read is shown without them.
 */
async function showOverview(ctx: CommandContext): Promise<void> {
  const stats = await ctx.load('marketStats', { sort: 'on_sale' }, { slow: true });
  const listed = [...stats.rows]
    .sort((a, b) => (b.on_sale ?? 0) - (a.on_sale ?? 0) || a.skin_index - b.skin_index)
    .slice(0, OVERVIEW_SALES);
  const sales = new Map<number, SalesStatistics>();
  for (const row of listed) {
    try {
      sales.set(row.skin_index, await ctx.load('marketSalesStatistics', { skinIndex: row.skin_index }));
    } catch (error) {
      ctx.services.log.debug({ err: error, skin: row.skin_index }, 'sales statistics unavailable');
    }
  }
  await ctx.send(
    await renderMarketOverview(ctx.t, {
      stats,
      sales,
      skinName: (index) => ctx.services.names.skinName(index),
      now: ctx.now,
    }),
  );
}

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    if (args.subcommand === 'overview') return showOverview(ctx);
    if ((args.subcommand as string) !== 'skin') throw new UserError('common:errors.unknownCommand');
    const skinIndex = args.skin;
    const days = args.days ?? DEFAULT_DAYS;
    if (!isSkinIndex(skinIndex)) throw new UserError('market:invalidSkin');
    if (!isDays(days)) throw new UserError('market:invalidDays', { min: MIN_DAYS, max: MAX_DAYS });
    return showSkin(ctx, skinIndex, days, 1);
  },

  async component(ctx) {
    const { skinIndex, days, page } = listingsArgs(ctx.id);
    return showSkin(ctx, skinIndex, days, page);
  },
};
