import { ApplicationCommandOptionType } from 'discord.js';
import { officialMapNames } from '../src/features/maps/official.ts';
import { BadRequestError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { defineComponents } from '../src/discord/component-id.ts';
import { MAX_PAGE, parsePage, wholeNumber } from '../src/discord/options.ts';
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
} from '../src/features/leaderboards/render.ts';

type Context = CommandContext | ComponentContext;

const MAX_SEASON = 1000;
const MAX_MAP_ID = 1_000_000;

/** The ids of this command's page buttons; exported for the renderer tests. */
export const ids = defineComponents('leaderboard', {
  ranked: ['region', 'season', 'page'],
  players: ['board', 'season', 'page'],
  clans: ['sort', 'page'],
  raids: ['map', 'page'],
  cup: ['board', 'page'],
});

export const leaderboardIds = {
  ranked: (region: number, season: number | undefined, now: number) =>
    ids.pager(now, (p, at) => ids.encode.ranked({ region, season: season ?? 0, page: p }, at)),
  players: (board: string, season: number | undefined, now: number) =>
    ids.pager(now, (p, at) => ids.encode.players({ board, season: season ?? 0, page: p }, at)),
  clans: (sort: string | undefined, now: number) =>
    ids.pager(now, (p, at) => ids.encode.clans({ sort: sort ?? '', page: p }, at)),
  raids: (mapId: number, now: number) =>
    ids.pager(now, (p, at) => ids.encode.raids({ map: mapId, page: p }, at)),
  cup: (board: string, now: number) => ids.pager(now, (p, at) => ids.encode.cup({ board, page: p }, at)),
};

const season = {
  type: ApplicationCommandOptionType.Integer,
  name: 'season',
  min_value: 0,
  max_value: MAX_SEASON,
} as const;

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
      pager: leaderboardIds.ranked(region, seasonNo > 0 ? seasonNo : undefined, ctx.now),
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
      pager: leaderboardIds.players(board, seasonNo > 0 ? seasonNo : undefined, ctx.now),
    }),
  );
}

async function showClans(ctx: Context, sort: BoardSort | undefined, page: number) {
  const data = await ctx.load('clanLeaderboard', sort ? { sort } : {});
  ctx.services.names.remember('clan', ...data.rows.map((row) => row.clan_name));
  await ctx.send(renderClanBoard(ctx.t, { data, sort, page, pager: leaderboardIds.clans(sort, ctx.now) }));
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
  const mapNames = await officialMapNames(ctx);
  const pager = leaderboardIds.raids(mapId, ctx.now);
  await ctx.send(renderRaidBoard(ctx.t, { data, mapId, mapNames, page, pager }));
}

async function showCup(ctx: Context, board: CupBoard, page: number) {
  const pager = leaderboardIds.cup(board, ctx.now);
  if (board === 'players') {
    const data = await ctx.load('cupPlayerLeaderboard', {});
    ctx.services.names.remember('player', ...data.rows.map((row) => row.player_name));
    await ctx.send(renderCupBoard(ctx.t, { board, data, page, pager }));
  } else {
    const data = await ctx.load('cupTeamLeaderboard', {});
    await ctx.send(renderCupBoard(ctx.t, { board, data, page, pager }));
  }
}

const data = {
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
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    const seasonNo = 'season' in args ? (args.season ?? 0) : 0;
    if (seasonNo < 0 || seasonNo > MAX_SEASON)
      throw new UserError('leaderboard:errors.season', { max: MAX_SEASON });
    switch (args.subcommand) {
      case 'ranked': {
        const page = args.page === undefined ? 1 : parsePage(args.page);
        if (page === undefined) throw new UserError('leaderboard:errors.page', { max: MAX_PAGE });
        return showRanked(ctx, args.region, seasonNo, page);
      }
      case 'players': {
        if (!isPlayerBoard(args.board)) throw new UserError('leaderboard:errors.board');
        return showPlayers(ctx, args.board, seasonNo, 1);
      }
      case 'clans': {
        const { sort } = args;
        if (sort !== undefined && !isBoardSort(sort)) throw new UserError('leaderboard:errors.sort');
        return showClans(ctx, sort, 1);
      }
      case 'raids': {
        const mapId = args.map ?? DEFAULT_RAID_MAP;
        if (mapId < 1 || mapId > MAX_MAP_ID)
          throw new UserError('leaderboard:errors.raidMap', { map: mapId });
        return showRaids(ctx, mapId, 1);
      }
      case 'cup': {
        if (!isCupBoard(args.board)) throw new UserError('leaderboard:errors.board');
        return showCup(ctx, args.board, 1);
      }
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (!id) throw new UserError('common:errors.unknownComponent');
    const page = parsePage(id.args.page) ?? 1;
    switch (id.action) {
      case 'ranked':
        return showRanked(
          ctx,
          wholeNumber(id.args.region, 0, Number.MAX_SAFE_INTEGER) ?? -1,
          wholeNumber(id.args.season, 0, MAX_SEASON) ?? 0,
          page,
        );
      case 'players': {
        const { board } = id.args;
        if (!isPlayerBoard(board)) throw new UserError('common:errors.unknownComponent');
        return showPlayers(ctx, board, wholeNumber(id.args.season, 0, MAX_SEASON) ?? 0, page);
      }
      case 'clans': {
        const { sort } = id.args;
        return showClans(ctx, isBoardSort(sort) ? sort : undefined, page);
      }
      case 'raids':
        return showRaids(ctx, wholeNumber(id.args.map, 1, MAX_MAP_ID) ?? DEFAULT_RAID_MAP, page);
      case 'cup': {
        const { board } = id.args;
        if (!isCupBoard(board)) throw new UserError('common:errors.unknownComponent');
        return showCup(ctx, board, page);
      }
    }
  },
};
