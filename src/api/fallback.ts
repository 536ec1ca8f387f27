import { z } from 'zod';
import { ForbiddenError, LocalRefusalError, UnauthorizedError } from './errors.ts';
import type { CallOptions, ResultOf, RouteName, Routes } from './client.ts';
import type { ParamsOf } from './route.ts';
import type {
  ClanMembers,
  ClanProfile,
  GameClan,
  GameMap,
  GameMod,
  GamePlayer,
  MapInfo,
  ItemView,
  MapLeaderboard,
  MarketItemSales,
  MarketSkin,
  Mod,
  PlayerProfile,
  SalesStatistics,
} from './schemas/index.ts';
import { float, int } from './schemas/tolerant.ts';

/**
 * The keyless fallback: where the game tier (no key) carries the data of a developer route, a call of
 * that route that cannot be made with a key (none configured, or the key refused with 401/403) is
 * answered from the game tier instead, turned into the developer reply's shape. What the game tier
 * lacks is left out, so the renderer shows that line as unknown rather than failing.
 */
export type AnswerSource = 'developer' | 'game';

/** Which tier answered a call, and the reply in the shape the route promises. */
export interface Answered<T> {
  readonly value: T;
  readonly source: AnswerSource;
}

/** The developer routes the game tier can stand in for. */
export type FallbackRoute =
  'player' | 'clan' | 'clanMembers' | 'map' | 'mapLeaderboard' | 'mod' | 'marketSkin';

/** The developer tier's page of a skin's listings (the game tier's item page has the whole book). */
export const SKIN_LISTINGS_PER_PAGE = 10;

/** The developer tier's page of clan members (the game tier lists them all at once). */
export const CLAN_MEMBERS_PER_PAGE = 10;

type Call = <N extends RouteName>(
  name: N,
  params: ParamsOf<Routes[N]>,
  options?: CallOptions,
) => Promise<ResultOf<Routes[N]>>;

type Adapter = (call: Call, params: never, options: CallOptions) => Promise<unknown>;

const ADAPTERS: { readonly [N in FallbackRoute]: Adapter } = {
  player: async (call, p: { playerName: string }, o) =>
    playerFromGame(await call('gamePlayer', { playerName: p.playerName }, o)),
  clan: async (call, p: { clanName: string }, o) =>
    clanFromGame(await call('clanByName', { clanName: p.clanName }, o)),
  clanMembers: async (call, p: { clanName: string; page?: number }, o) =>
    membersFromGame(await call('clanByName', { clanName: p.clanName }, o), p.page ?? 1),
  map: async (call, p: { mapName: string }, o) =>
    mapFromGame(await call('mapByName', { mapName: p.mapName }, o)),
  mapLeaderboard: async (call, p: ParamsOf<Routes['mapByNameLeaderboard']>, o) =>
    (await call('mapByNameLeaderboard', p, o)) satisfies MapLeaderboard,
  mod: async (call, p: { modName: string }, o) =>
    modFromGame(await call('modByName', { modName: p.modName }, o)),
  marketSkin: async (call, p: { skinIndex: number; page?: number; days?: number }, o) => {
    const { skinIndex } = p;
    const [view, statistics, sales] = await Promise.all([
      call('itemView', { skinIndex }, o),
      call('marketSalesStatistics', { skinIndex }, o),
      call('marketItemSales', { skinIndex }, o),
    ]);
    return skinFromGame(view, statistics, sales, p.page ?? 1, p.days ?? statistics.days.length);
  },
};

export function hasFallback(name: string): name is FallbackRoute {
  return Object.hasOwn(ADAPTERS, name);
}

/**
 * True when the developer key is what failed: none configured (refused locally before any request), or
 * the service refused it (401, 403). Any other failure (a 404, a timeout) is the answer itself.
 */
export function keyRefused(error: unknown): boolean {
  if (error instanceof LocalRefusalError) return error.reason === 'no_api_key';
  return error instanceof UnauthorizedError || error instanceof ForbiddenError;
}

/** How long a key the service refused (401, or 403 `invalid_key`) is not tried again for a fallback route. */
export const REFUSED_KEY_HOLD_MS = 5 * 60_000;

/**
 * Remembers that the service refused the configured key, so that for a while the routes the game tier can
 * stand in for go there at once instead of spending a request that will be refused again. A key without a
 * scope (403 `missing_scope`) is not a refused key: other routes may still take it.
 */
export class KeyRefusals {
  readonly #clock: { now(): number };
  readonly #holdMs: number;
  #until = Number.NEGATIVE_INFINITY;

  constructor(clock: { now(): number }, holdMs = REFUSED_KEY_HOLD_MS) {
    this.#clock = clock;
    this.#holdMs = holdMs;
  }

  remember(error: unknown): void {
    const refused =
      error instanceof UnauthorizedError ||
      (error instanceof ForbiddenError && error.reason === 'invalid_key');
    if (refused) this.#until = this.#clock.now() + this.#holdMs;
  }

  get refused(): boolean {
    return this.#clock.now() < this.#until;
  }
}

/**
 * Calls `name`; when it has a game-tier stand-in and the key is missing or refused, calls that instead
 * (through the same `call`, so it is cached and counted against the budget like any call). A call with
 * a player token or a caller's own key is not redirected: the caller asked for that credential. With
 * `refusals`, a key refused lately is not tried again for such a route until its hold has passed.
 */
export async function callWithFallback<N extends RouteName>(
  call: Call,
  name: N,
  params: ParamsOf<Routes[N]>,
  options: CallOptions = {},
  refusals?: KeyRefusals,
): Promise<Answered<ResultOf<Routes[N]>>> {
  const redirectable = hasFallback(name) && options.token === undefined && options.apiKey === undefined;
  if (!redirectable || !refusals?.refused) {
    try {
      return { value: await call(name, params, options), source: 'developer' };
    } catch (error) {
      if (!redirectable || !keyRefused(error)) throw error;
      refusals?.remember(error);
    }
  }
  const { priority, signal, deadlineMs } = options;
  const gameOptions: CallOptions = {
    ...(priority === undefined ? {} : { priority }),
    ...(signal === undefined ? {} : { signal }),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  };
  const adapter = ADAPTERS[name] as (c: Call, p: unknown, o: CallOptions) => Promise<unknown>;
  const value = (await adapter(call, params, gameOptions)) as ResultOf<Routes[N]>;
  return { value, source: 'game' };
}

/**
 * The packed stats blob of `/players/{name}`: a JSON object with the game's short keys. The spec does
 * not document it; the keys read are those the sandbox and the game client use. Each value is checked
 * on its own, so a key that drifts costs its line only, and an unreadable blob costs the stats only.
 */
const count = int.min(0).max(1e12);
const PackedStatsSchema = z
  .object({
    s: count,
    k: count,
    d: count,
    g: count,
    w: count,
    a: count,
    hs: count,
    ls: count,
    wb: count,
    sh: count,
    h: count,
    tp: count,
    n: count,
    c: z.record(z.string(), float),
  })
  .partial();
type PackedStats = z.output<typeof PackedStatsSchema>;
const STAT_KEYS = Object.keys(PackedStatsSchema.shape) as Array<keyof PackedStats>;

export function parsePackedStats(blob: string | undefined): PackedStats {
  if (blob === undefined || blob.length > 100_000) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(blob);
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const stats: Record<string, unknown> = {};
  for (const key of STAT_KEYS) {
    const parsed = PackedStatsSchema.shape[key].safeParse((raw as Record<string, unknown>)[key]);
    if (parsed.success && parsed.data !== undefined) stats[key] = parsed.data;
  }
  return stats;
}

/** A ratio of two counts, when the divisor is positive. */
function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || b <= 0 ? undefined : a / b;
}

function defined<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) Reflect.deleteProperty(value, key);
  return value;
}

/**
 * The developer profile from the game's flat one. Absent: level, KR, inventory, junk, followers, ranked
 * standings, badges and the flags the game tier does not carry; the renderer shows those as unknown.
 */
export function playerFromGame(game: GamePlayer): PlayerProfile {
  const s = parsePackedStats(game.stats);
  const losses = s.g !== undefined && s.w !== undefined && s.w <= s.g ? s.g - s.w : undefined;
  const misses = s.sh !== undefined && s.h !== undefined && s.h <= s.sh ? s.sh - s.h : undefined;
  return defined({
    player_id: game.player_id,
    player_name: game.player_name,
    clan: game.clan,
    verified: game.verified,
    score: s.s,
    kills: s.k,
    deaths: s.d,
    games: s.g,
    wins: s.w,
    losses,
    assists: s.a,
    headshots: s.hs,
    legshots: s.ls,
    wallbangs: s.wb,
    shots: s.sh,
    hits: s.h,
    misses,
    time_played: s.tp,
    nukes: s.n,
    kdr: ratio(s.k, s.d),
    kpg: ratio(s.k, s.g),
    spk: ratio(s.s, s.k),
    class_stats: s.c,
  });
}

/** The clan profile from the game's; its rank and Discord link are not in the game tier. */
export function clanFromGame(game: GameClan): ClanProfile {
  return defined({
    name: game.name,
    owner_name: game.owner_name,
    score: game.score,
    member_count: game.member_count ?? game.members?.length,
    created_at: game.created_at,
  });
}

/** One page of members from the game's full list (short keys), in the game's order. */
export function membersFromGame(game: GameClan, page: number): ClanMembers {
  const members = game.members ?? [];
  const start = (Math.max(1, page) - 1) * CLAN_MEMBERS_PER_PAGE;
  return {
    page,
    per_page: CLAN_MEMBERS_PER_PAGE,
    members: members
      .slice(start, start + CLAN_MEMBERS_PER_PAGE)
      .map((m) => defined({ player_name: m.n, role: m.r, score: m.s })),
  };
}

export function mapFromGame(game: GameMap): MapInfo {
  return game;
}

export function modFromGame(game: GameMod): Mod {
  return game;
}

/**
 * A market skin from the game's item page (the whole order book, cheapest first here), its daily sales
 * statistics and its ask range and circulation. The top owners are ids only in the game tier: left out.
 */
export function skinFromGame(
  view: ItemView,
  statistics: SalesStatistics,
  sales: MarketItemSales,
  page: number,
  days: number,
): MarketSkin {
  const book = (view.listings ?? []).flatMap((listing) =>
    listing.price === undefined ? [] : [{ price: listing.price, seller_name: listing.seller_name ?? '' }],
  );
  book.sort((a, b) => a.price - b.price);
  const start = (Math.max(1, page) - 1) * SKIN_LISTINGS_PER_PAGE;
  const history = [...statistics.days]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .slice(-Math.max(1, Math.min(days, statistics.days.length)));
  let sold = 0;
  let turnover = 0;
  for (const day of history) {
    if (day.sales === undefined || day.average_price === undefined) continue;
    sold += day.sales;
    turnover += day.sales * day.average_price;
  }
  return defined({
    skin_index: view.skin_index,
    total_listings: book.length,
    lowest_price: book[0]?.price ?? sales.ask_low,
    average_price: sold > 0 ? turnover / sold : undefined,
    total_circulating: sales.circulating,
    listings: book.slice(start, start + SKIN_LISTINGS_PER_PAGE),
    price_history: history,
  });
}
