import { nameOption, pageOption, parsePage, playerOption, wholeNumber } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { COMPONENT_LIFETIME_MS, defineComponents } from '../src/discord/component-id.ts';
import { readInventoryValue, type InventorySort } from '../src/features/players/inventory.ts';
import { readMmrChanges } from '../src/features/players/mmr-change.ts';
import { inventoryMarketData } from '../src/features/market/inventory.ts';
import { resolvePlayerName } from '../src/players/accounts.ts';
import { nameFound, suggestPlayersOnNotFound } from '../src/search/not-found.ts';
import { UserError } from '../src/core/user-error.ts';
import type { PlayerProfile } from '../src/api/schemas/index.ts';
import { DAY_MS, HOUR_MS } from '../src/players/snapshots.ts';
import {
  HISTORY_STATS,
  isHistoryStat,
  statsOf,
  type HistoryStat,
  type Snapshot,
} from '../src/players/stats.ts';
import { changeFields, renderCompare, renderHistory } from '../src/features/history/render.ts';
import { readRecentMatches } from '../src/features/history/matches.ts';
import { pastTimes } from '../src/render/common.ts';
import { officialMapNames } from '../src/features/maps/official.ts';
import { OPEN_MATCH_BUTTON } from '../src/features/players/matches.ts';
import {
  isProfileSection,
  renderInventory,
  renderListings,
  renderMatches,
  renderPosts,
  renderProfile,
  type ProfileSection,
} from '../src/features/players/render.ts';

// Optional: it defaults to the user's linked account.
const name = nameOption('player', false, 64);
const page = pageOption;

/** The ids of this command's menu and page buttons; exported for the renderer tests. */
export const ids = defineComponents('player', {
  section: ['name'],
  matches: ['name', 'season', 'page'],
  listings: ['name', 'page'],
  posts: ['name', 'page'],
  /** `/player inventory`: a page, in an order (`value` or `count`). */
  inventory: ['name', 'sort', 'page'],
  /** The inventory's sort buttons: the first page in that order (an id of their own, never a page's). */
  resort: ['name', 'sort'],
  /** A "did you mean" button: runs the subcommand `sub` for the player `name`. */
  find: ['sub', 'name'],
});

/** The match buttons of `/player matches`: `/match` answers them. */
const matchButtons = defineComponents(OPEN_MATCH_BUTTON.command, OPEN_MATCH_BUTTON.actions);

export const playerIds = {
  section: (playerName: string, now: number) =>
    ids.encode.section({ name: playerName }, now + COMPONENT_LIFETIME_MS),
  matches: (playerName: string, season: number | undefined, now: number) =>
    ids.pager(now, (p, at) => ids.encode.matches({ name: playerName, season: season ?? 0, page: p }, at)),
  listings: (playerName: string, now: number) =>
    ids.pager(now, (p, at) => ids.encode.listings({ name: playerName, page: p }, at)),
  posts: (playerName: string, now: number) =>
    ids.pager(now, (p, at) => ids.encode.posts({ name: playerName, page: p }, at)),
  inventory: (playerName: string, sort: InventorySort, now: number) =>
    ids.pager(now, (p, at) => ids.encode.inventory({ name: playerName, sort, page: p }, at)),
  openMatch: (matchId: string, now: number) =>
    matchButtons.encode.open({ id: matchId }, now + COMPONENT_LIFETIME_MS),
};

async function showInventory(
  ctx: CommandContext | ComponentContext,
  playerName: string,
  sort: InventorySort,
  page: number,
) {
  const items = await ctx.load('playerInventory', { playerName });
  playerName = nameFound(ctx, playerName);
  ctx.services.names.remember('player', playerName);
  const market = await inventoryMarketData(
    ctx,
    items.map((item) => item.skin_index),
  );
  // A sort button must not share its id with the pager's button for page 1 (Discord refuses duplicates).
  const sortIds = {
    value: ids.encode.resort({ name: playerName, sort: 'value' }, ctx.now + COMPONENT_LIFETIME_MS),
    count: ids.encode.resort({ name: playerName, sort: 'count' }, ctx.now + COMPONENT_LIFETIME_MS),
  };
  return ctx.send(
    renderInventory(ctx.t, playerName, items, (index) => ctx.services.names.skinName(index), {
      ...market,
      sort,
      page,
      pager: playerIds.inventory(playerName, sort, ctx.now),
      sortIds,
    }),
  );
}

async function showProfile(
  ctx: CommandContext | ComponentContext,
  playerName: string,
  section: ProfileSection,
) {
  const profile = await ctx.load('player', { playerName });
  ctx.services.names.remember('player', profile.player_name);
  ctx.services.names.remember('clan', profile.clan);
  const menuId = playerIds.section(profile.player_name, ctx.now);
  const inventory = section === 'overview' ? await readInventoryValue(ctx, profile.player_name) : undefined;
  // The ranked chart's line over time: the standings kept over the last 30 days.
  const rankedHistory =
    section === 'ranked'
      ? (await ctx.services.records.players.snapshots.history(profile.player_id, ctx.now - 30 * DAY_MS)).map(
          (point) => ({ at: point.at, ranked: point.stats.ranked }),
        )
      : undefined;
  const past = pastTimes(ctx.now, ctx.services.log);
  // The rest of the reply is made while the store reads the changes: renderProfile waits for them last
  // (and at once, so that a failed read is never left unheard).
  const changes = section === 'overview' ? changesOf(ctx, profile) : [];
  await ctx.send(
    await renderProfile(ctx.t, {
      profile,
      section,
      menuId,
      changes,
      rankedHistory,
      now: ctx.now,
      past,
      inventory,
    }),
  );
}

/**
 * "Since yesterday" and "since last week" beside the headline numbers, from the snapshots kept; without
 * them, the change since the bot first saw the player today and the ranked matches of the match history.
 */
async function changesOf(ctx: CommandContext | ComponentContext, profile: PlayerProfile) {
  // One read of the snapshots for all three: the store answers one query at a time.
  const kept = await ctx.services.records.players.snapshots.nearAndHistory(
    profile.player_id,
    [
      { at: ctx.now - DAY_MS, toleranceMs: 6 * HOUR_MS },
      { at: ctx.now - 7 * DAY_MS, toleranceMs: DAY_MS },
    ],
    ctx.now - DAY_MS,
  );
  const [day, week] = kept.near;
  if (day && week) return changeFields(ctx.t, statsOf(profile), { day, week });
  const recent = await readRecentMatches(ctx, profile.player_name);
  // The first point of today counts only when neither yesterday's nor last week's is known.
  const earliest = day || week ? undefined : kept.history().find((point) => point.at < ctx.now - HOUR_MS);
  const ranked = recent && { ...recent, now: ctx.now };
  return changeFields(ctx.t, statsOf(profile), { day, week, earliest }, ranked);
}

/** The player's points over the last `days` days, ending with the profile just read. */
async function historyOf(ctx: CommandContext, profile: PlayerProfile, days: number): Promise<Snapshot[]> {
  const kept = await ctx.services.records.players.snapshots.history(
    profile.player_id,
    ctx.now - days * DAY_MS,
  );
  const current = {
    playerId: profile.player_id,
    playerName: profile.player_name,
    at: ctx.now,
    stats: statsOf(profile),
  };
  // The read just made may have been kept already (the snapshot of this very reply): counted once.
  return [...kept.filter((point) => point.at < ctx.now - 60_000), current];
}

async function showHistory(ctx: CommandContext, playerName: string, stat: HistoryStat, days: number) {
  const profile = await ctx.load('player', { playerName });
  ctx.services.names.remember('player', profile.player_name);
  const [points, recent] = await Promise.all([
    historyOf(ctx, profile, days),
    readRecentMatches(ctx, profile.player_name),
  ]);
  await ctx.send(
    await renderHistory(ctx.t, {
      playerName: profile.player_name,
      stat,
      days,
      points,
      now: ctx.now,
      matches: recent?.readings,
    }),
  );
}

async function showCompare(ctx: CommandContext, first: string, second: string) {
  if (first.toLowerCase() === second.toLowerCase()) throw new UserError('player:compare.same');
  const [a, b] = await Promise.all([
    ctx.load('player', { playerName: first }),
    ctx.load('player', { playerName: second }),
  ]);
  for (const profile of [a, b]) ctx.services.names.remember('player', profile.player_name);
  const [historyA, historyB] = await Promise.all([historyOf(ctx, a, 30), historyOf(ctx, b, 30)]);
  // The match histories draw the chart only until both players have two measured points.
  const fromMatches = historyA.length < 2 || historyB.length < 2;
  const [matchesA, matchesB] = fromMatches
    ? await Promise.all([readRecentMatches(ctx, a.player_name), readRecentMatches(ctx, b.player_name)])
    : [undefined, undefined];
  await ctx.send(
    await renderCompare(
      ctx.t,
      { playerName: a.player_name, stats: statsOf(a), history: historyA, matches: matchesA?.readings },
      { playerName: b.player_name, stats: statsOf(b), history: historyB, matches: matchesB?.readings },
      ctx.now,
    ),
  );
}

async function showMatches(
  ctx: CommandContext | ComponentContext,
  playerName: string,
  season: number | undefined,
  pageNo: number,
) {
  const data = await ctx.load('playerMatches', { playerName, page: pageNo, ...(season ? { season } : {}) });
  playerName = nameFound(ctx, playerName);
  const pager = playerIds.matches(playerName, season, ctx.now);
  // One cached `/maps` lookup names every map of the page.
  const mapNames = await officialMapNames(
    ctx,
    data.matches.some((m) => m.map !== undefined),
  );
  const openMatch = (matchId: string) => playerIds.openMatch(matchId, ctx.now);
  const past = pastTimes(ctx.now, ctx.services.log);
  const snapshots = ctx.services.records.players.snapshots;
  const mmrChanges = await readMmrChanges(snapshots, playerName, data.matches, ctx.now);
  await ctx.send(
    renderMatches(ctx.t, {
      name: playerName,
      ...{ data, page: pageNo, season, pager, past, mapNames, openMatch, mmrChanges },
    }),
  );
}

async function showListings(ctx: CommandContext | ComponentContext, playerName: string, pageNo: number) {
  const data = await ctx.load('playerListings', { playerName, page: pageNo });
  playerName = nameFound(ctx, playerName);
  const skinName = (index: number) => ctx.services.names.skinName(index);
  const pager = playerIds.listings(playerName, ctx.now);
  const past = pastTimes(ctx.now, ctx.services.log);
  await ctx.send(renderListings(ctx.t, { name: playerName, data, page: pageNo, pager, past }, skinName));
}

async function showPosts(ctx: CommandContext | ComponentContext, playerName: string, pageNo: number) {
  const data = await ctx.load('playerPosts', { playerName, page: pageNo });
  playerName = nameFound(ctx, playerName);
  const pager = playerIds.posts(playerName, ctx.now);
  const past = pastTimes(ctx.now, ctx.services.log);
  await ctx.send(renderPosts(ctx.t, { name: playerName, data, page: pageNo, pager, past }));
}

const data = {
  name: 'player',
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'profile', options: [name] },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'matches',
      options: [
        name,
        { type: ApplicationCommandOptionType.Integer, name: 'season', min_value: 0, max_value: 1000 },
        page,
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'inventory', options: [name] },
    { type: ApplicationCommandOptionType.Subcommand, name: 'listings', options: [name, page] },
    { type: ApplicationCommandOptionType.Subcommand, name: 'posts', options: [name, page] },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'history',
      options: [
        name,
        {
          type: ApplicationCommandOptionType.String,
          name: 'stat',
          choices: HISTORY_STATS.map((value) => ({ value })),
        },
        { type: ApplicationCommandOptionType.Integer, name: 'days', min_value: 1, max_value: 400 },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'compare',
      options: [
        { ...playerOption, name: 'a' },
        { ...playerOption, name: 'b', required: false },
      ],
    },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(given) {
    // A player the API does not know: the reply names it and offers close names ("did you mean").
    const ctx = suggestPlayersOnNotFound(given, (found) => findId(given.args.subcommand, found, given.now));
    const { args } = ctx;
    // `compare` names its players `a` and `b`; every other subcommand a `name`.
    const playerName =
      args.subcommand === 'compare' ? '' : await resolvePlayerName(ctx.interaction, ctx.services, args.name);
    switch (args.subcommand) {
      case 'profile':
        return showProfile(ctx, playerName, 'overview');
      case 'matches':
        return showMatches(ctx, playerName, args.season, args.page ?? 1);
      case 'inventory':
        return showInventory(ctx, playerName, 'value', 1);
      case 'listings':
        return showListings(ctx, playerName, args.page ?? 1);
      case 'posts':
        return showPosts(ctx, playerName, args.page ?? 1);
      case 'history': {
        const stat = args.stat ?? 'kd';
        if (!isHistoryStat(stat)) throw new UserError('common:errors.unknownCommand');
        return showHistory(ctx, playerName, stat, args.days ?? 30);
      }
      case 'compare':
        return showCompare(
          ctx,
          args.a.trim(),
          await resolvePlayerName(ctx.interaction, ctx.services, args.b),
        );
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (!id) throw new UserError('common:errors.unknownComponent');
    // "Did you mean": the same subcommand, with its defaults, for the name clicked.
    if (id.action === 'find' && isFindable(id.args.sub)) {
      // The button stands in for the slash command: with a name given, only its `user` is read.
      const args = { subcommand: id.args.sub, name: id.args.name };
      return command.execute({ ...ctx, args } as unknown as Parameters<typeof command.execute>[0]);
    }
    switch (id.action) {
      case 'section': {
        const section = ctx.interaction.isStringSelectMenu() ? ctx.interaction.values[0] : undefined;
        return showProfile(ctx, id.args.name, isProfileSection(section) ? section : 'overview');
      }
      case 'matches': {
        const season = wholeNumber(id.args.season, 1, Number.MAX_SAFE_INTEGER);
        return showMatches(ctx, id.args.name, season, parsePage(id.args.page) ?? 1);
      }
      case 'listings':
        return showListings(ctx, id.args.name, parsePage(id.args.page) ?? 1);
      case 'posts':
        return showPosts(ctx, id.args.name, parsePage(id.args.page) ?? 1);
      case 'inventory':
        return showInventory(
          ctx,
          id.args.name,
          id.args.sort === 'count' ? 'count' : 'value',
          parsePage(id.args.page) ?? 1,
        );
      case 'resort':
        return showInventory(ctx, id.args.name, id.args.sort === 'count' ? 'count' : 'value', 1);
    }
  },
};

/** The subcommands that take one player name, which a "did you mean" button can run. */
const FINDABLE = ['profile', 'matches', 'inventory', 'listings', 'posts', 'history'] as const;
type Findable = (typeof FINDABLE)[number];

function isFindable(sub: string): sub is Findable {
  return (FINDABLE as readonly string[]).includes(sub);
}

function findId(sub: string, playerName: string, now: number): string | undefined {
  return isFindable(sub)
    ? ids.encode.find({ sub, name: playerName }, now + COMPONENT_LIFETIME_MS)
    : undefined;
}
