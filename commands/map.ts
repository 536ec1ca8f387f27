import { nameOption, pageOption, parsePage, playerOption } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { COMPONENT_LIFETIME_MS, defineComponents, type ComponentId } from '../src/discord/component-id.ts';
import { resolvePlayerName } from '../src/players/accounts.ts';
import { findingNames } from '../src/search/not-found.ts';
import { nameSearchOf } from '../src/search/index.ts';
import { UserError } from '../src/core/user-error.ts';
import { pastTimes, text } from '../src/render/common.ts';
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
} from '../src/features/maps/render.ts';
import type { MapInfo } from '../src/api/schemas/index.ts';
import { boardSize } from '../src/features/maps/board-size.ts';

const name = nameOption('map', true);
const player = playerOption;
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

/** The ids of this command's buttons (`''` for the map's own type or order); exported for the tests. */
export const ids = defineComponents('map', {
  leaderboard: ['name', 'type', 'order', 'page'],
  /** A "did you mean" button: runs the subcommand `sub` (`info` or `leaderboard`) for the map `name`. */
  find: ['sub', 'name'],
});

/** A "did you mean" button's id for a map, on the subcommands that take only a map. */
function findId(sub: string, mapName: string, now: number): string | undefined {
  return sub === 'info' || sub === 'leaderboard'
    ? ids.encode.find({ sub, name: mapName }, now + COMPONENT_LIFETIME_MS)
    : undefined;
}

function boardIdArgs(name: string, type: string | undefined, order: number | undefined) {
  return { name, type: isBoardType(type) ? type : '', order: isBoardOrder(order) ? order : '' };
}

export const mapIds = {
  /** The info's button to the first page of the map's own board. */
  leaderboard: (map: Pick<MapInfo, 'name' | 'leaderboard_type' | 'leaderboard_order'>, now: number) =>
    ids.encode.leaderboard(
      { ...boardIdArgs(map.name, map.leaderboard_type, map.leaderboard_order), page: 1 },
      now + COMPONENT_LIFETIME_MS,
    ),
  leaderboardPager: (name: string, type: string | undefined, order: number | undefined, now: number) =>
    ids.pager(now, (p, at) => ids.encode.leaderboard({ ...boardIdArgs(name, type, order), page: p }, at)),
};

export interface BoardQuery {
  readonly type: BoardType | undefined;
  readonly order: BoardOrder | undefined;
  readonly page: number;
}

/**
 * The board a leaderboard button asks for (`''` for the map's own type or order). Undefined when the
 * id was not written by this bot.
 */
export function parseBoardArgs(id: ComponentId): ({ readonly name: string } & BoardQuery) | undefined {
  const decoded = ids.decode(id);
  if (decoded?.action !== 'leaderboard') return undefined;
  const { args } = decoded;
  if (!args.name.trim()) return undefined;
  const boardType = args.type === '' ? undefined : args.type;
  const boardOrder = args.order === '' ? undefined : Number(args.order);
  const pageNo = parsePage(args.page);
  if (boardType !== undefined && !isBoardType(boardType)) return undefined;
  if (boardOrder !== undefined && !isBoardOrder(boardOrder)) return undefined;
  if (pageNo === undefined) return undefined;
  return { name: args.name, type: boardType, order: boardOrder, page: pageNo };
}

/**
 * The `type`, `order` and `page` options, checked again (Discord enforces the choices and bounds, but a
 * stale command definition or a hand-made request may not).
 */
export function boardOptions(options: {
  readonly type?: string | undefined;
  readonly order?: number | undefined;
  readonly page?: number | undefined;
}): BoardQuery {
  const invalid: string[] = [];
  if (options.type !== undefined && !isBoardType(options.type)) invalid.push('type');
  if (options.order !== undefined && !isBoardOrder(options.order)) invalid.push('order');
  const pageNo = options.page === undefined ? 1 : parsePage(options.page);
  if (pageNo === undefined) invalid.push('page');
  if (invalid.length > 0)
    throw new UserError('common:errors.invalidInputFields', { fields: invalid.join(', ') });
  return {
    type: isBoardType(options.type) ? options.type : undefined,
    order: isBoardOrder(options.order) ? options.order : undefined,
    page: pageNo ?? 1,
  };
}

function mapNameOf(value: string | undefined): string {
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
  await ctx.send(
    renderMapInfo(ctx.t, map, mapIds.leaderboard(map, ctx.now), pastTimes(ctx.now, ctx.services.log)),
  );
}

async function showLeaderboard(ctx: Context, mapName: string, query: BoardQuery): Promise<void> {
  const data = await notFoundAs(
    ctx.load('mapLeaderboard', { mapName, page: query.page, ...board(query) }),
    'map:errors.notFound',
    { name: text(mapName, 100) },
  );
  ctx.services.names.remember('map', data.map_name);
  ctx.services.names.remember('player', ...data.entries.map((entry) => entry.player_name));
  // An empty first page of a board type asked for: the map's record tells whether it has that board.
  const ownType =
    data.entries.length === 0 && query.page === 1 && query.type !== undefined
      ? ((await ctx.load('map', { mapName })).leaderboard_type ?? '')
      : undefined;
  await ctx.send(
    renderMapLeaderboard(ctx.t, {
      ownType,
      name: mapName,
      data,
      page: query.page,
      type: query.type,
      order: query.order,
      pager: mapIds.leaderboardPager(
        data.map_name ?? mapName,
        query.type ?? data.leaderboard_type,
        query.order ?? data.leaderboard_order,
        ctx.now,
      ),
      past: pastTimes(ctx.now, ctx.services.log),
    }),
  );
}

/** The board entry of the player whose name is `typed` in another case, if there is such a name and entry. */
async function entryUnderOtherCasing<T>(
  ctx: CommandContext,
  typed: string,
  rankOf: (name: string) => Promise<T>,
): Promise<T | undefined> {
  const asker = { user: ctx.interaction.user.id, guild: ctx.interaction.guildId };
  const other = await nameSearchOf(ctx.services).otherCasing('player', typed, 1_500, asker);
  if (other === undefined) return undefined;
  try {
    return await rankOf(other);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

async function showRank(
  ctx: CommandContext,
  mapName: string,
  playerName: string,
  query: Pick<BoardQuery, 'type' | 'order'>,
): Promise<void> {
  const rankOf = (name: string) =>
    ctx.load('mapLeaderboardPlayer', { mapName, playerName: name, ...board(query) });
  let entry;
  try {
    entry = await rankOf(playerName);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    // The same 404 means "no such map", "no board" or "no entry": the map's record tells which.
    const map = await notFoundAs(ctx.load('map', { mapName }), 'map:errors.notFound', {
      name: text(mapName, 100),
    });
    if (!query.type && !map.leaderboard_type)
      throw new UserError('map:errors.noBoard', { name: text(map.name, 100) });
    // No entry for the name as typed: the player's name in another case (seen, or found by the search).
    entry = await entryUnderOtherCasing(ctx, playerName, rankOf);
    if (entry === undefined)
      throw new UserError('map:errors.noEntry', { player: text(playerName, 100), name: text(map.name, 100) });
  }
  ctx.services.names.remember('map', entry.map_name);
  ctx.services.names.remember('player', entry.player_name);
  // "of N": the board's size, from its pages (the board the entry is on, whatever was asked).
  const onBoard = {
    type: isBoardType(entry.leaderboard_type) ? entry.leaderboard_type : query.type,
    order: isBoardOrder(entry.leaderboard_order) ? entry.leaderboard_order : query.order,
  };
  const size =
    entry.position === undefined
      ? undefined
      : await boardSize(
          (p) => ctx.load('mapLeaderboard', { mapName, page: p, ...board(onBoard) }),
          entry.position,
        );
  await ctx.send(renderMapRank(ctx.t, entry, mapName, pastTimes(ctx.now, ctx.services.log), size));
}

async function showFeatured(ctx: Context): Promise<void> {
  const data = await ctx.load('featuredMaps', {});
  ctx.services.names.remember('map', ...data.maps.map((map) => map.name));
  ctx.services.names.remember('player', ...data.maps.map((map) => map.creator_name));
  await ctx.send(renderFeaturedMaps(ctx.t, data));
}

const data = {
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
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(given) {
    // A map the API does not know: the reply names it and offers close names ("did you mean").
    const ctx = findingNames(given, (kind, found) =>
      kind === 'map' ? findId(given.args.subcommand, found, given.now) : undefined,
    );
    const { args } = ctx;
    if (args.subcommand === 'featured') return showFeatured(ctx);
    const mapName = mapNameOf(args.name);
    switch (args.subcommand) {
      case 'info':
        return showInfo(ctx, mapName);
      case 'leaderboard':
        return showLeaderboard(ctx, mapName, boardOptions(args));
      case 'rank':
        return showRank(
          ctx,
          mapName,
          await resolvePlayerName(ctx.interaction, ctx.services, args.player),
          boardOptions(args),
        );
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const found = ids.decode(ctx.id);
    if (found?.action === 'find' && (found.args.sub === 'info' || found.args.sub === 'leaderboard')) {
      const { sub, name: mapName } = found.args;
      const resolving = findingNames(ctx, (kind, other) =>
        kind === 'map' ? findId(sub, other, ctx.now) : undefined,
      );
      return sub === 'info'
        ? showInfo(resolving, mapName)
        : showLeaderboard(resolving, mapName, { type: undefined, order: undefined, page: 1 });
    }
    const parsed = parseBoardArgs(ctx.id);
    if (!parsed) throw new UserError('common:errors.unknownComponent');
    return showLeaderboard(ctx, parsed.name, parsed);
  },
};
