import { ApplicationCommandOptionType } from 'discord.js';
import { BadRequestError } from '../src/api/errors.ts';
import type { Command, CommandContext, ComponentContext } from '../src/discord/command.ts';
import { UserError } from '../src/core/user-error.ts';
import {
  BOARD_SORTS,
  CUP_BOARDS,
  DEFAULT_RAID_MAP,
  PLAYER_BOARDS,
  RANKED_REGIONS,
  isBoardSort,
  isCupBoard,
  isPlayerBoard,
  isRankedRegion,
  renderClanBoard,
  renderCupBoard,
  renderPlayerBoard,
  renderRaidBoard,
  renderRankedLeaderboard,
  type BoardSort,
  type CupBoard,
  type PlayerBoard,
} from '../src/render/leaderboard.ts';

type Context = CommandContext | ComponentContext;

const MAX_SEASON = 1000;
const MAX_PAGE = 1000;
const MAX_MAP_ID = 1_000_000;

const season = {
  type: ApplicationCommandOptionType.Integer,
  name: 'season',
  min_value: 0,
  max_value: MAX_SEASON,
} as const;

/** A whole number within bounds, or `fallback` (component arguments are strings from a custom id). */
export function wholeNumber(
  value: string | number | null | undefined,
  min: number,
  max: number,
  fallback: number,
): number {
  const parsed = typeof value === 'number' ? value : value?.trim() ? Number(value) : Number.NaN;
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) return fallback;
  return parsed;
}

async function showRanked(ctx: Context, region: number, seasonNo: number, page: number) {
  if (!isRankedRegion(region)) throw new UserError('leaderboard:errors.region');
  const data = await ctx.load('rankedLeaderboard', {
    region,
    page,
    ...(seasonNo > 0 ? { season: seasonNo } : {}),
  });
  ctx.services.names.remember('player', ...data.entries.map((entry) => entry.player_name));
  await ctx.send(
    renderRankedLeaderboard(ctx.t, {
      data,
      region,
      season: seasonNo > 0 ? seasonNo : undefined,
      page,
      now: ctx.now,
    }),
  );
}

async function showPlayers(ctx: Context, board: PlayerBoard, seasonNo: number, page: number) {
  const data = await ctx.load('leaderboard', { board, ...(seasonNo > 0 ? { season: seasonNo } : {}) });
  ctx.services.names.remember('player', ...data.rows.map((row) => row.player_name));
  ctx.services.names.remember('clan', ...data.rows.map((row) => row.clan));
  await ctx.send(
    renderPlayerBoard(ctx.t, {
      board,
      data,
      season: seasonNo > 0 ? seasonNo : undefined,
      page,
      now: ctx.now,
    }),
  );
}

async function showClans(ctx: Context, sort: BoardSort | undefined, page: number) {
  const data = await ctx.load('clanLeaderboard', sort ? { sort } : {});
  ctx.services.names.remember('clan', ...data.rows.map((row) => row.clan_name));
  await ctx.send(renderClanBoard(ctx.t, { data, sort, page, now: ctx.now }));
}

async function showRaids(ctx: Context, mapId: number, page: number) {
  let data;
  try {
    data = await ctx.load('raidLeaderboard', { mapId });
  } catch (error) {
    // The game answers 400 `invalid raid map` for a map without a raid board.
    if (error instanceof BadRequestError) throw new UserError('leaderboard:errors.raidMap', { map: mapId });
    throw error;
  }
  ctx.services.names.remember('player', ...data.rows.map((row) => row.player_name));
  await ctx.send(renderRaidBoard(ctx.t, { data, mapId, page, now: ctx.now }));
}

async function showCup(ctx: Context, board: CupBoard, page: number) {
  if (board === 'players') {
    const data = await ctx.load('cupPlayerLeaderboard', {});
    ctx.services.names.remember('player', ...data.rows.map((row) => row.player_name));
    await ctx.send(renderCupBoard(ctx.t, { board, data, page, now: ctx.now }));
  } else {
    const data = await ctx.load('cupTeamLeaderboard', {});
    await ctx.send(renderCupBoard(ctx.t, { board, data, page, now: ctx.now }));
  }
}

export const command: Command = {
  data: {
    name: 'leaderboard',
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'ranked',
        options: [
          {
            type: ApplicationCommandOptionType.Integer,
            name: 'region',
            required: true,
            choices: RANKED_REGIONS.map((value) => ({ value })),
          },
          season,
          { type: ApplicationCommandOptionType.Integer, name: 'page', min_value: 1, max_value: MAX_PAGE },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'players',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'board',
            required: true,
            choices: PLAYER_BOARDS.map((value) => ({ value })),
          },
          season,
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'clans',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'sort',
            choices: BOARD_SORTS.map((value) => ({ value })),
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'raids',
        options: [
          { type: ApplicationCommandOptionType.Integer, name: 'map', min_value: 1, max_value: MAX_MAP_ID },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'cup',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'board',
            required: true,
            choices: CUP_BOARDS.map((value) => ({ value })),
          },
        ],
      },
    ],
  },

  async execute(ctx) {
    const { options } = ctx.interaction;
    const seasonNo = options.getInteger('season') ?? 0;
    if (seasonNo < 0 || seasonNo > MAX_SEASON)
      throw new UserError('leaderboard:errors.season', { max: MAX_SEASON });
    switch (options.getSubcommand()) {
      case 'ranked': {
        const page = options.getInteger('page') ?? 1;
        if (page < 1 || page > MAX_PAGE) throw new UserError('leaderboard:errors.page', { max: MAX_PAGE });
        return showRanked(ctx, options.getInteger('region', true), seasonNo, page);
      }
      case 'players': {
        const board = options.getString('board', true);
        if (!isPlayerBoard(board)) throw new UserError('leaderboard:errors.board');
        return showPlayers(ctx, board, seasonNo, 1);
      }
      case 'clans': {
        const sort = options.getString('sort');
        if (sort !== null && !isBoardSort(sort)) throw new UserError('leaderboard:errors.sort');
        return showClans(ctx, sort ?? undefined, 1);
      }
      case 'raids': {
        const mapId = options.getInteger('map') ?? DEFAULT_RAID_MAP;
        if (mapId < 1 || mapId > MAX_MAP_ID)
          throw new UserError('leaderboard:errors.raidMap', { map: mapId });
        return showRaids(ctx, mapId, 1);
      }
      case 'cup': {
        const board = options.getString('board', true);
        if (!isCupBoard(board)) throw new UserError('leaderboard:errors.board');
        return showCup(ctx, board, 1);
      }
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const { action, args } = ctx.id;
    const page = wholeNumber(args.at(-1), 1, MAX_PAGE, 1);
    switch (action) {
      case 'ranked':
        return showRanked(
          ctx,
          wholeNumber(args[0], 0, Number.MAX_SAFE_INTEGER, -1),
          wholeNumber(args[1], 0, MAX_SEASON, 0),
          page,
        );
      case 'players': {
        const board = args[0];
        if (!isPlayerBoard(board)) throw new UserError('common:errors.unknownComponent');
        return showPlayers(ctx, board, wholeNumber(args[1], 0, MAX_SEASON, 0), page);
      }
      case 'clans': {
        const sort = args[0];
        return showClans(ctx, isBoardSort(sort) ? sort : undefined, page);
      }
      case 'raids':
        return showRaids(ctx, wholeNumber(args[0], 1, MAX_MAP_ID, DEFAULT_RAID_MAP), page);
      case 'cup': {
        const board = args[0];
        if (!isCupBoard(board)) throw new UserError('common:errors.unknownComponent');
        return showCup(ctx, board, page);
      }
      default:
        throw new UserError('common:errors.unknownComponent');
    }
  },
};
