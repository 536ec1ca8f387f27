import type { SandboxContext } from './context.ts';
import { EVENT_SCOPES } from './events.ts';
import {
  HttpError,
  badRequest,
  intParam,
  intQuery,
  notFound,
  optionalIntQuery,
  pageOf,
  pageQuery,
  type Route,
  type RouteRequest,
} from './http.ts';
import { wireId } from './json.ts';
import { KPD_LATEST_CALLS } from './kpd-live.ts';
import { DAY_MS, iso, startOfUtcDay } from './time.ts';
import { compareText } from './world/common.ts';
import {
  boardChoice,
  findMap,
  findPlayer,
  mapInfo,
  mapLeaderboard,
  matchDetails,
  modRecord,
  playerProfile,
  rankedRow,
  round2,
  standings,
} from './records.ts';

const PAGE = 10;
const MAX_OWNERS = 100;

/** `season`: omitted means `omitted`, 0 the current season. */
function seasonQuery(
  ctx: SandboxContext,
  query: URLSearchParams,
  omitted: number | undefined,
): number | undefined {
  const season = optionalIntQuery(query, 'season', 0);
  if (season === undefined) return omitted;
  return season === 0 ? ctx.world.currentSeason : season;
}

function marketSkin(ctx: SandboxContext, request: RouteRequest): Record<string, unknown> {
  const skinIndex = intParam(request.params['skinIndex'] ?? '', 'skinIndex');
  const page = pageQuery(request.query);
  const days = intQuery(request.query, 'days', { min: 1, max: 120, fallback: 30 });
  const market = ctx.world.market[skinIndex];
  if (!market) throw notFound('Skin');
  const today = startOfUtcDay(request.nowMs);
  const history = market.priceHistory.filter((d) => d.dayMs > today - days * DAY_MS && d.dayMs <= today);
  const week = market.priceHistory.filter((d) => d.dayMs > today - 7 * DAY_MS && d.dayMs <= today);
  const weekSales = week.reduce((sum, d) => sum + d.sales, 0);
  const weekValue = week.reduce((sum, d) => sum + d.averagePrice * d.sales, 0);
  return {
    skin_index: skinIndex,
    total_listings: market.listings.length,
    lowest_price: market.listings[0]?.price ?? 0,
    average_price: weekSales === 0 ? 0 : round2(weekValue / weekSales),
    total_circulating: market.totalCirculating,
    listings: pageOf(market.listings, page, PAGE).map((l) => ({
      price: l.price,
      seller_name: l.sellerName,
      listed_at: iso(l.listedAtMs),
    })),
    owners: market.holders
      .filter((h) => !h.banned)
      .slice(0, MAX_OWNERS)
      .map((h) => ({ player_name: h.playerName, count: h.count })),
    price_history: history.map((d) => ({ date: d.date, average_price: d.averagePrice, sales: d.sales })),
  };
}

function events(ctx: SandboxContext, request: RouteRequest): unknown {
  const { query, key } = request;
  const after = intQuery(query, 'after', { min: 0, fallback: 0 });
  const limit = intQuery(query, 'limit', { min: 1, max: 100, fallback: 100 });
  const allowed = new Set(
    Object.entries(EVENT_SCOPES)
      .filter(([, scope]) => key?.scopes.some((held) => held === scope) === true)
      .map(([type]) => type),
  );
  const rawTypes = query.get('types');
  let types = allowed;
  if (rawTypes !== null) {
    const asked = rawTypes.split(',').map((t) => t.trim());
    if (asked.some((t) => !Object.hasOwn(EVENT_SCOPES, t))) throw badRequest('invalid types');
    types = new Set(asked.filter((t) => allowed.has(t)));
  }
  const targetType = query.get('target_type') ?? undefined;
  if (targetType === '') throw badRequest('invalid target_type');
  const rawIds = query.get('target_id');
  let targetIds: Set<number> | undefined;
  if (rawIds !== null) {
    if (targetType === undefined) throw badRequest('target_id requires target_type');
    const ids = rawIds.split(',').map((id) => id.trim());
    if (ids.length > 100) throw badRequest('too many target_id values (at most 100)');
    targetIds = new Set(ids.map((id) => intParam(id, 'target_id')));
  }
  return ctx.events.query({ after, types, targetType, targetIds, limit, nowMs: request.nowMs });
}

export function developerRoutes(ctx: SandboxContext): Route[] {
  const { index, world } = ctx;
  const route = (pattern: string, handler: Route['handler']): Route => ({
    pattern,
    tier: 'developer',
    handler,
  });
  const clanNamed = (name: string | undefined) => {
    const clan = index.clan(name ?? '');
    if (!clan) throw notFound('Clan');
    return clan;
  };
  return [
    route('/api/clan/{clanName}', ({ params }) => {
      const clan = clanNamed(params['clanName']);
      return {
        name: clan.name,
        owner_name: clan.ownerName,
        score: index.clanScore(clan.id),
        rank: index.clanRank(clan.id),
        member_count: clan.members.length,
        created_at: iso(clan.createdAtMs),
        discord: clan.discord,
      };
    }),
    route('/api/clan/{clanName}/members', ({ params, query }) => {
      const clan = clanNamed(params['clanName']);
      const page = pageQuery(query);
      const members = clan.members
        .map((m) => {
          const player = index.playerById(m.playerId);
          return {
            player_name: m.playerName,
            role: m.role,
            verified: player?.verified ?? false,
            score: player?.stats.score ?? 0,
          };
        })
        .sort((a, b) => b.role - a.role || b.score - a.score || compareText(a.player_name, b.player_name));
      return { page, per_page: PAGE, members: pageOf(members, page, PAGE) };
    }),
    {
      pattern: '/api/events',
      tier: 'developer',
      eventsWindow: true,
      handler: (request) => events(ctx, request),
    },
    route('/api/kpd/latest-calls', ({ key }) => {
      if (!key?.scopes.includes('kpd')) throw new HttpError(403, 'Missing scope: kpd');
      // Up to 50, newest first (observed): older calls leave the list as new ones come.
      return world.kpdCalls.slice(0, KPD_LATEST_CALLS).map((call) => ({ ...call }));
    }),
    route('/api/leaderboard/{region}', ({ params, query }) => {
      const region = intParam(params['region'] ?? '', 'region');
      const page = pageQuery(query);
      const season = seasonQuery(ctx, query, world.currentSeason) ?? world.currentSeason;
      const board = index.rankedBoard(season, region);
      return {
        page,
        per_page: PAGE,
        season,
        region,
        entries: pageOf(
          board.map((record, position) => ({ record, position: position + 1 })),
          page,
          PAGE,
        ).map(({ record, position }) => ({ position, player_name: record.playerName, ...rankedRow(record) })),
      };
    }),
    route('/api/map/{mapName}', ({ params }) => {
      const map = findMap(index, params['mapName'] ?? '');
      return mapInfo(map, ctx.featured.isFeatured(map.id));
    }),
    route('/api/maps/featured', () => {
      const maps = ctx.featured
        .ids()
        .map((id) => index.mapById(id))
        .filter((map) => map !== undefined)
        .map((map) => ({
          map_id: map.id,
          name: map.name,
          creator_id: map.creatorId,
          creator_name: map.creatorName,
        }));
      return { maps, count: maps.length };
    }),
    route('/api/map/{mapName}/leaderboard', ({ params, query }) =>
      mapLeaderboard(findMap(index, params['mapName'] ?? ''), query),
    ),
    route('/api/map/{mapName}/leaderboard/player/{playerName}', ({ params, query }) => {
      const map = findMap(index, params['mapName'] ?? '');
      const choice = boardChoice(map, query);
      if (choice.type === '') throw notFound('Leaderboard');
      const row = standings(map, choice).find(({ entry }) => entry.playerName === params['playerName']);
      if (!row) throw notFound('Leaderboard entry');
      return {
        map_name: map.name,
        leaderboard_type: choice.type,
        leaderboard_order: choice.order,
        player_name: row.entry.playerName,
        position: row.position,
        value: row.entry.value,
        date: iso(row.entry.dateMs),
      };
    }),
    route('/api/market/skin/{skinIndex}', async (request) => {
      const reply = marketSkin(ctx, request);
      const skinIndex = Number(request.params['skinIndex']);
      const warm = ctx.warmSkins.has(skinIndex);
      ctx.warmSkins.add(skinIndex);
      await ctx.sleep(warm ? ctx.latency.marketSkinWarmMs : ctx.latency.marketSkinColdMs);
      return reply;
    }),
    route('/api/match/{matchId}', ({ params }) => {
      const id = params['matchId'] ?? '';
      if (!/^\d+$/.test(id)) throw badRequest('invalid matchId');
      const match = index.match(id.replace(/^0+(?=\d)/, ''));
      if (!match) throw notFound('Match');
      return matchDetails(match);
    }),
    route('/api/mods', ({ query }) => {
      const page = pageQuery(query);
      const mods = world.mods
        .filter((m) => !m.deleted && !m.creatorBanned)
        .sort((a, b) => b.votes - a.votes || a.id - b.id);
      return { page, per_page: PAGE, mods: pageOf(mods, page, PAGE).map(modRecord) };
    }),
    route('/api/mods/{modName}', ({ params }) => {
      const mod = index.mod(params['modName'] ?? '');
      if (!mod) throw notFound('Mod');
      return modRecord(mod);
    }),
    route('/api/player/{playerName}', ({ params }) =>
      playerProfile(ctx, findPlayer(index, params['playerName'] ?? '')),
    ),
    route('/api/player/{playerName}/inventory', ({ params }) =>
      index.inventoryOf(findPlayer(index, params['playerName'] ?? '').id).map((item) => ({ ...item })),
    ),
    route('/api/player/{playerName}/listings', ({ params, query }) => {
      const player = findPlayer(index, params['playerName'] ?? '');
      const page = pageQuery(query);
      return {
        page,
        per_page: PAGE,
        listings: pageOf(index.listingsOf(player.id), page, PAGE).map((l) => ({
          market_id: wireId(l.marketId),
          skin_index: l.skinIndex,
          price: l.price,
          listed_at: iso(l.listedAtMs),
        })),
      };
    }),
    route('/api/player/{playerName}/matches', ({ params, query }) => {
      const player = findPlayer(index, params['playerName'] ?? '');
      const page = pageQuery(query);
      const season = seasonQuery(ctx, query, undefined);
      const matches = index.matchesOf(player.id).filter((m) => season === undefined || m.season === season);
      return {
        page,
        per_page: PAGE,
        matches: pageOf(matches, page, PAGE).map((match) => {
          const p = match.participants.find((x) => x.playerId === player.id);
          return {
            match_id: wireId(match.id),
            date: iso(match.dateMs),
            map: match.map,
            duration: match.duration,
            season: match.season,
            region: match.region,
            kills: p?.kills ?? 0,
            deaths: p?.deaths ?? 0,
            assists: p?.assists ?? 0,
            score: p?.score ?? 0,
            damage_done: p?.damageDone ?? 0,
            headshots: p?.headshots ?? 0,
            accuracy: p?.accuracy ?? 0,
            objective_score: p?.objectiveScore ?? 0,
            kr: p?.kr ?? 0,
            victory: p?.victory ?? 0,
            rounds_won: p?.roundsWon ?? 0,
            team: p?.team ?? 0,
            play_time: p?.playTime ?? 0,
          };
        }),
      };
    }),
    route('/api/player/{playerName}/posts', ({ params, query }) => {
      const player = findPlayer(index, params['playerName'] ?? '');
      const page = pageQuery(query);
      return {
        page,
        per_page: PAGE,
        posts: pageOf(index.postsOf(player.id), page, PAGE).map((p) => ({
          date: iso(p.dateMs),
          text: p.text,
          votes: p.votes,
          comment_count: p.commentCount,
        })),
      };
    }),
    route('/api/skins', ({ query }) => {
      const page = pageQuery(query);
      const perPage = intQuery(query, 'per_page', { min: 1, max: 100, fallback: 50 });
      const season = optionalIntQuery(query, 'season', 0);
      const skins = world.skins.filter((s) => season === undefined || s.season === season);
      return {
        page,
        per_page: perPage,
        skins: pageOf(skins, page, perPage).map((s) => ({
          skin_index: s.index,
          name: s.name,
          rarity: s.rarity,
          season: s.season,
        })),
      };
    }),
  ];
}
