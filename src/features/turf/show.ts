import { NotFoundError } from '../../api/errors.ts';
import type { GameClan, TurfClanPlayers } from '../../api/schemas/index.ts';
import { UserError } from '../../core/user-error.ts';
import type { CommandContext, ComponentContext } from '../../discord/command.ts';
import { gather } from '../../discord/gather.ts';
import { clanNotFound } from '../../search/not-found.ts';
import { turfDay } from '../../api/turf-days.ts';
import { ignoredOptions, renderTurfBoard, type TurfBoard, type TurfBoardData } from './boards.ts';
import { renderTurfClanWithMaps } from './contributions.ts';
import { parseTurfDate } from './day.ts';
import { turfPagers } from './ids.ts';
import { isTurfMapId, TURF_MAP_IDS } from './maps.ts';
import { renderTurfPayouts } from './payouts.ts';

/** The command half of the turf centre: loads what a reply needs and renders it. */
type Context = CommandContext | ComponentContext;

function asker(ctx: Context) {
  return { user: ctx.interaction.user.id, guild: ctx.interaction.guildId };
}

/** A clan by its exact name; when there is none, "did you mean" buttons rerun `sub` for a close name. */
async function findClan(
  ctx: Context,
  clanName: string,
  sub: 'clan' | 'payouts',
  day?: number,
): Promise<GameClan> {
  try {
    return await ctx.load('clanByName', { clanName });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const idFor = (name: string) => turfPagers.find(sub, name, day, ctx.now);
    throw await clanNotFound(ctx.services, clanName, idFor, 'turf:errors.clanNotFound', asker(ctx));
  }
}

/** The `day` option: a date of the turf season up to today, as its turf day; undefined when not given. */
export function dayOption(value: string | undefined, now: number): number | undefined {
  return value === undefined ? undefined : parseTurfDate(value, now);
}

/** The `map` option: one of the turf maps; Discord offers only those, a stale definition may not. */
export function mapOption(value: number | undefined): number | undefined {
  if (value === undefined || isTurfMapId(value)) return value;
  throw new UserError('turf:errors.map');
}

/** `/turf clan`: the clan's standing today, its earnings, and who played on each map today. */
export async function showTurfClan(ctx: Context, clanName: string): Promise<void> {
  const found = await findClan(ctx, clanName, 'clan');
  const clanId = found.clan_id;
  const [clan, earnings] = await gather(ctx, [
    () => ctx.load('turfClan', { clanId }),
    () => ctx.load('turfClanEarnings', { clanId }),
  ] as const);
  // One call a map (today's day is the default): the clan's totals are their sum, no call of their own.
  const perMap = await gather<TurfClanPlayers[]>(
    ctx,
    TURF_MAP_IDS.map((mapId) => () => ctx.load('turfClanPlayers', { clanId, mapId })),
  );
  const maps = TURF_MAP_IDS.flatMap((mapId, i) => {
    const data = perMap[i];
    return data ? [{ mapId, players: data }] : [];
  });
  ctx.services.names.remember('clan', found.name, clan.clan_name);
  ctx.services.names.remember('player', ...maps.flatMap((m) => m.players.players.map((p) => p.player_name)));
  const today = turfDay(ctx.now);
  await ctx.send(renderTurfClanWithMaps(ctx.t, { clan, earnings, maps, today, now: ctx.now }));
}

async function sendPayouts(
  ctx: Context,
  clan: { readonly id: number; readonly name: string },
  day: number | undefined,
  page: number,
): Promise<void> {
  const payouts = await ctx.load('turfClanPayouts', {
    clanId: clan.id,
    ...(day === undefined ? {} : { day }),
  });
  ctx.services.names.remember('player', ...payouts.payouts.map((p) => p.player_name));
  await ctx.send(
    renderTurfPayouts(ctx.t, {
      clanName: clan.name,
      payouts,
      day,
      today: turfDay(ctx.now),
      page,
      pager: turfPagers.payouts(clan.id, day, ctx.now),
    }),
  );
}

/** `/turf payouts`: who in the clan was paid what on `day`, or this season without one. */
export async function showTurfPayouts(
  ctx: Context,
  clanName: string,
  day: number | undefined,
): Promise<void> {
  const found = await findClan(ctx, clanName, 'payouts', day);
  ctx.services.names.remember('clan', found.name);
  await sendPayouts(ctx, { id: found.clan_id, name: found.name }, day, 1);
}

/** Another page of payouts: the button carries the clan's id, whose turf record gives its name. */
export async function showTurfPayoutsPage(
  ctx: Context,
  clanId: number,
  day: number | undefined,
  page: number,
): Promise<void> {
  const clan = await ctx.load('turfClan', { clanId });
  await sendPayouts(ctx, { id: clanId, name: clan.clan_name }, day, page);
}

async function loadBoard(
  ctx: Context,
  board: TurfBoard,
  day: number,
  mapId: number | undefined,
): Promise<TurfBoardData> {
  const map = mapId === undefined ? {} : { mapId };
  switch (board) {
    case 'clans':
      return { board, data: await ctx.load('turfTopPerformingClans', { day, ...map }) };
    case 'grossing':
      return { board, data: await ctx.load('turfTopGrossingClans', {}) };
    case 'players':
      // The spec calls this board slow (seconds): defer before asking.
      return { board, data: await ctx.load('turfTopPerformingPlayers', map, { slow: true }) };
  }
}

export interface BoardAsk {
  readonly board: TurfBoard;
  /** The day given, if any (the clans board shows today without one). */
  readonly day: number | undefined;
  readonly mapId: number | undefined;
  readonly page: number;
}

/** `/turf leaderboard`: one of the three boards, 25 rows a page. */
export async function showTurfBoard(ctx: Context, ask: BoardAsk): Promise<void> {
  const { board, mapId, page } = ask;
  const day = ask.day ?? turfDay(ctx.now);
  const rows = await loadBoard(ctx, board, day, mapId);
  if (rows.board === 'players') {
    ctx.services.names.remember('player', ...rows.data.rows.map((r) => r.player_name));
    ctx.services.names.remember('clan', ...rows.data.rows.map((r) => r.clan_name));
  } else ctx.services.names.remember('clan', ...rows.data.rows.map((r) => r.clan_name));
  const ignored = ignoredOptions(board, { day: ask.day !== undefined, map: mapId !== undefined });
  // The clans board's pages keep the day they started on, even when a page is turned after midnight.
  const pagerDay = board === 'clans' ? day : ask.day;
  await ctx.send(
    renderTurfBoard(ctx.t, {
      rows,
      day,
      mapId,
      ignored,
      page,
      pager: turfPagers.board(board, pagerDay, mapId, ctx.now),
    }),
  );
}
