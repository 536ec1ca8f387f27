import { nameOption, pageOption } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type {
  AutocompleteChoice,
  Command,
  CommandContext,
  ComponentContext,
} from '../src/discord/command.ts';
import { resolvePlayerName } from '../src/link/accounts.ts';
import { UserError } from '../src/core/user-error.ts';
import { text } from '../src/render/common.ts';
import {
  BOARD_TYPES,
  isBoardOrder,
  isBoardType,
  renderFeaturedMaps,
  renderMapInfo,
  renderMapLeaderboard,
  renderMapRank,
  type BoardOrder,
  type BoardType,
} from '../src/render/map.ts';

const name = nameOption(true);
const player = {
  type: ApplicationCommandOptionType.String,
  name: 'player',
  required: true,
  min_length: 1,
  max_length: 64,
  autocomplete: true,
} as const;
const type = {
  type: ApplicationCommandOptionType.String,
  name: 'type',
  choices: BOARD_TYPES.map((value) => ({ value })),
} as const;
const order = {
  type: ApplicationCommandOptionType.Integer,
  name: 'order',
  choices: [{ value: 0 }, { value: 1 }],
} as const;
const page = pageOption;

type Context = CommandContext | ComponentContext;

export interface BoardQuery {
  readonly type: BoardType | undefined;
  readonly order: BoardOrder | undefined;
  readonly page: number;
}

/**
 * The board a leaderboard button asks for: `[name, type, order, page]` as `renderMapLeaderboard` writes
 * them (`''` for the map's own type or order). Undefined when the id was not written by this bot.
 */
export function parseBoardArgs(
  args: readonly string[],
): ({ readonly name: string } & BoardQuery) | undefined {
  const [mapName, typeArg = '', orderArg = '', pageArg = '1'] = args;
  if (!mapName?.trim()) return undefined;
  const boardType = typeArg === '' ? undefined : typeArg;
  const boardOrder = orderArg === '' ? undefined : Number(orderArg);
  const pageNo = Number(pageArg);
  if (boardType !== undefined && !isBoardType(boardType)) return undefined;
  if (boardOrder !== undefined && !isBoardOrder(boardOrder)) return undefined;
  if (!Number.isInteger(pageNo) || pageNo < 1 || pageNo > 1000) return undefined;
  return { name: mapName, type: boardType, order: boardOrder, page: pageNo };
}

/**
 * The `type`, `order` and `page` options, checked again (Discord enforces the choices and bounds, but a
 * stale command definition or a hand-made request may not).
 */
export function boardOptions(options: {
  readonly type: string | null;
  readonly order: number | null;
  readonly page: number | null;
}): BoardQuery {
  const invalid: string[] = [];
  if (options.type !== null && !isBoardType(options.type)) invalid.push('type');
  if (options.order !== null && !isBoardOrder(options.order)) invalid.push('order');
  const pageNo = options.page ?? 1;
  if (!Number.isInteger(pageNo) || pageNo < 1 || pageNo > 1000) invalid.push('page');
  if (invalid.length > 0)
    throw new UserError('common:errors.invalidInputFields', { fields: invalid.join(', ') });
  return {
    type: isBoardType(options.type) ? options.type : undefined,
    order: isBoardOrder(options.order) ? options.order : undefined,
    page: pageNo,
  };
}

function mapNameOf(value: string | null): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') throw new UserError('map:errors.nameRequired');
  return trimmed;
}

function board(query: Pick<BoardQuery, 'type' | 'order'>) {
  return {
    ...(query.type ? { type: query.type } : {}),
    ...(query.order === undefined ? {} : { order: query.order }),
  };
}

async function notFoundAs<T>(load: Promise<T>, key: string, vars: Record<string, unknown>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError(key, vars);
    throw error;
  }
}

async function showInfo(ctx: Context, mapName: string): Promise<void> {
  const map = await notFoundAs(ctx.load('map', { mapName }), 'map:errors.notFound', {
    name: text(mapName, 100),
  });
  ctx.services.names.remember('map', map.name);
  ctx.services.names.remember('player', map.creator_name);
  await ctx.send(renderMapInfo(ctx.t, map, ctx.now));
}

async function showLeaderboard(ctx: Context, mapName: string, query: BoardQuery): Promise<void> {
  const data = await notFoundAs(
    ctx.load('mapLeaderboard', { mapName, page: query.page, ...board(query) }),
    'map:errors.notFound',
    { name: text(mapName, 100) },
  );
  ctx.services.names.remember('map', data.map_name);
  ctx.services.names.remember('player', ...data.entries.map((entry) => entry.player_name));
  await ctx.send(
    renderMapLeaderboard(ctx.t, {
      name: mapName,
      data,
      page: query.page,
      type: query.type,
      order: query.order,
      now: ctx.now,
    }),
  );
}

async function showRank(
  ctx: CommandContext,
  mapName: string,
  playerName: string,
  query: Pick<BoardQuery, 'type' | 'order'>,
): Promise<void> {
  let entry;
  try {
    entry = await ctx.load('mapLeaderboardPlayer', { mapName, playerName, ...board(query) });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    // The same 404 means "no such map", "no board" or "no entry": the map's record tells which.
    const map = await notFoundAs(ctx.load('map', { mapName }), 'map:errors.notFound', {
      name: text(mapName, 100),
    });
    if (!query.type && !map.leaderboard_type)
      throw new UserError('map:errors.noBoard', { name: text(map.name, 100) });
    throw new UserError('map:errors.noEntry', { player: text(playerName, 100), name: text(map.name, 100) });
  }
  ctx.services.names.remember('map', entry.map_name);
  ctx.services.names.remember('player', entry.player_name);
  await ctx.send(renderMapRank(ctx.t, entry, mapName));
}

async function showFeatured(ctx: Context): Promise<void> {
  const data = await ctx.load('featuredMaps', {});
  ctx.services.names.remember('map', ...data.maps.map((map) => map.name));
  ctx.services.names.remember('player', ...data.maps.map((map) => map.creator_name));
  await ctx.send(renderFeaturedMaps(ctx.t, data));
}

export const command: Command = {
  data: {
    name: 'map',
    options: [
      { type: ApplicationCommandOptionType.Subcommand, name: 'info', options: [name] },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'leaderboard',
        options: [name, type, order, page],
      },
      { type: ApplicationCommandOptionType.Subcommand, name: 'rank', options: [name, player, type, order] },
      { type: ApplicationCommandOptionType.Subcommand, name: 'featured' },
    ],
  },

  async execute(ctx) {
    const { options } = ctx.interaction;
    const sub = options.getSubcommand();
    if (sub === 'featured') return showFeatured(ctx);
    const mapName = mapNameOf(options.getString('name'));
    const query = boardOptions({
      type: options.getString('type'),
      order: options.getInteger('order'),
      page: options.getInteger('page'),
    });
    switch (sub) {
      case 'info':
        return showInfo(ctx, mapName);
      case 'leaderboard':
        return showLeaderboard(ctx, mapName, query);
      case 'rank':
        return showRank(
          ctx,
          mapName,
          await resolvePlayerName(ctx.interaction, ctx.services, 'player'),
          query,
        );
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    if (ctx.id.action !== 'leaderboard') throw new UserError('common:errors.unknownComponent');
    const parsed = parseBoardArgs(ctx.id.args);
    if (!parsed) throw new UserError('common:errors.unknownComponent');
    return showLeaderboard(ctx, parsed.name, parsed);
  },

  autocomplete(ctx): Promise<AutocompleteChoice[]> {
    const focused = ctx.interaction.options.getFocused(true);
    const kind = focused.name === 'player' ? 'player' : 'map';
    return Promise.resolve(ctx.services.names.suggest(kind, focused.value));
  },
};
