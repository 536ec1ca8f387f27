import type { SandboxContext } from './context.ts';
import { findMap, findPlayer, mapInfo, mapLeaderboard, modRecord } from './developer.ts';
import {
  badRequest,
  intParam,
  intQuery,
  notFound,
  optionalIntQuery,
  pageOf,
  pageQuery,
  readCursor,
  writeCursor,
  type Route,
} from './http.ts';
import { wireId } from './json.ts';
import { gameList } from './matchmaker.ts';
import { Rng, hashSeed } from './prng.ts';
import { DAY_MS, iso, ymd } from './time.ts';
import type { TurfTotals } from './turf.ts';
import {
  RAID_MAP_IDS,
  TURF_MAP_IDS,
  compareText,
  type Clan,
  type Player,
  type PlayerStats,
  type Post,
  type SkinMarket,
  type World,
} from './world.ts';

const BOARD_ROWS = 100;
const MARKET_STATS_PAGE = 50;

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function kd(kills: number, deaths: number): number {
  return deaths === 0 ? kills : round2(kills / deaths);
}

const PLAYER_BOARDS: Readonly<Record<string, (s: PlayerStats, p: Player) => number>> = {
  score: (s) => s.score,
  kills: (s) => s.kills,
  wins: (s) => s.wins,
  kdr: (s) => kd(s.kills, s.deaths),
  time_played: (s) => s.timePlayed,
  nukes: (s) => s.nukes,
  level: (s) => Math.max(1, Math.floor(0.03 * Math.sqrt(s.score))),
  junk: (_s, p) => p.junk,
};

/** `sort=asc` or `desc`; anything else is the board's default. */
function ascending(query: URLSearchParams, byDefault: boolean): boolean {
  const sort = query.get('sort');
  return sort === 'asc' ? true : sort === 'desc' ? false : byDefault;
}

function sortedRows<T extends { value: number }>(rows: T[], asc: boolean): (T & { position: number })[] {
  return rows
    .sort((a, b) => (asc ? a.value - b.value : b.value - a.value))
    .slice(0, BOARD_ROWS)
    .map((row, index) => ({ position: index + 1, ...row }));
}

function feedPost(post: Post, author: string): Record<string, unknown> {
  return { id: post.id, author, t: post.text, v: post.votes, c: post.commentCount, d: iso(post.dateMs) };
}

function clanPublic(ctx: SandboxContext, clan: Clan): Record<string, unknown> {
  return {
    clan_id: clan.id,
    name: clan.name,
    owner_name: clan.ownerName,
    score: ctx.index.clanScore(clan.id),
    member_count: clan.members.length,
    created_at: iso(clan.createdAtMs),
    members: clan.members
      .map((m) => ({ n: m.playerName, r: m.role, s: ctx.index.playerById(m.playerId)?.stats.score ?? 0 }))
      .sort((a, b) => b.r - a.r || b.s - a.s),
  };
}

function mapFile(world: World, id: number, name: string, creator: string, objectCount: number): unknown {
  const rng = new Rng(hashSeed(world.seed, 'map-file', id));
  const objects = Array.from({ length: objectCount }, () => ({
    p: [rng.int(-400, 400), rng.int(0, 120), rng.int(-400, 400)],
    s: [rng.int(1, 80), rng.int(1, 40), rng.int(1, 80)],
    t: rng.int(0, 12),
    c: rng.int(0, 15),
    ...(rng.chance(0.2) ? { r: [0, rng.float(0, 6.28), 0] } : {}),
  }));
  return {
    id,
    name,
    creator,
    modURL: '',
    ambient: '#97a0a8',
    light: '#f2f8fc',
    sky: '#dce8ed',
    fog: '#8d9aa0',
    fogD: 2_000,
    spawns: Array.from({ length: 16 }, () => [rng.int(-380, 380), 2, rng.int(-380, 380), rng.int(0, 2)]),
    colors: Array.from({ length: 16 }, () => `#${rng.token(6, '0123456789abcdef')}`),
    objects,
  };
}

function turfRow(row: TurfTotals, position: number): Record<string, unknown> {
  return {
    position,
    points: row.points,
    kills: row.kills,
    deaths: row.deaths,
    kd: kd(row.kills, row.deaths),
  };
}

export function gameRoutes(ctx: SandboxContext): Route[] {
  const { world, index, turf } = ctx;
  const seed = world.seed;
  const route = (pattern: string, handler: Route['handler']): Route => ({ pattern, tier: 'open', handler });
  const clanById = (raw: string | undefined): Clan => {
    const clan = index.clanById(intParam(raw ?? '', 'id'));
    if (!clan) throw notFound('Clan');
    return clan;
  };
  const playerById = (raw: string | undefined): Player => {
    const player = index.playerById(intParam(raw ?? '', 'id'));
    if (!player) throw notFound('Player');
    return player;
  };
  const skinMarket = (raw: string | undefined): SkinMarket => {
    const market = world.market[intParam(raw ?? '', 'id')];
    if (!market) throw notFound('Item');
    return market;
  };
  const turfMap = (query: URLSearchParams): number | undefined => {
    const mapId = optionalIntQuery(query, 'map_id', 0);
    if (mapId !== undefined && !TURF_MAP_IDS.some((id) => id === mapId)) throw badRequest('invalid map_id');
    return mapId;
  };
  const turfDay = (query: URLSearchParams): number | undefined => optionalIntQuery(query, 'day', 0);
  const mapFiles = new Map<number, unknown>();

  return [
    route('/players/search', ({ query }) => {
      const q = (query.get('q') ?? '').toLowerCase();
      if (q === '') throw badRequest('q required');
      return {
        players: world.players
          .filter((p) => p.name.toLowerCase().includes(q))
          .slice(0, 25)
          .map((p) => ({
            player_id: p.id,
            player_name: p.name,
            clan: index.clanOf(p)?.name ?? '',
            verified: p.verified,
          })),
      };
    }),
    route('/players/{name}', ({ params }) => {
      const p = findPlayer(index, params['name'] ?? '');
      const s = p.stats;
      return {
        player_id: p.id,
        player_name: p.name,
        clan: index.clanOf(p)?.name ?? '',
        verified: p.verified,
        stats: JSON.stringify({
          s: s.score,
          k: s.kills,
          d: s.deaths,
          g: s.games,
          w: s.wins,
          a: s.assists,
          hs: s.headshots,
          ls: s.legshots,
          wb: s.wallbangs,
          sh: s.shots,
          h: s.hits,
          tp: s.timePlayed,
          n: s.nukes,
          c: p.classStats,
        }),
      };
    }),
    route('/players/{name}/followers', ({ params }) => {
      const p = findPlayer(index, params['name'] ?? '');
      return { players: followRows(world, index.followersOf(p.id), (other) => [other, p.id]) };
    }),
    route('/players/{name}/following', ({ params }) => {
      const p = findPlayer(index, params['name'] ?? '');
      return { players: followRows(world, p.follows, (other) => [p.id, other]) };
    }),
    route('/players/{name}/sales', ({ params }) => {
      const p = findPlayer(index, params['name'] ?? '');
      const rng = new Rng(hashSeed(seed, 'player-sales', p.id));
      const sold = index.listingsOf(p.id).length + index.inventoryOf(p.id).length;
      const days = sold === 0 ? [] : rng.sample([...Array(90).keys()], rng.int(0, 15)).sort((a, b) => a - b);
      return {
        sales: days.map((daysAgo) => {
          const count = rng.int(1, 6);
          return { funds: count * rng.int(30, 4_000), count, date: ymd(world.anchorMs - daysAgo * DAY_MS) };
        }),
      };
    }),
    route('/players/{name}/feed', ({ params }) => {
      const p = findPlayer(index, params['name'] ?? '');
      return {
        posts: index.postsOf(p.id).map((post) => ({
          id: post.id,
          t: post.text,
          v: post.votes,
          c: post.commentCount,
          d: iso(post.dateMs),
        })),
      };
    }),
    route('/clans/by-name/{name}', ({ params }) => {
      const clan = index.clan(params['name'] ?? '');
      if (!clan) throw notFound('Clan');
      return clanPublic(ctx, clan);
    }),
    route('/clans/{id}/profile', ({ params }) => clanPublic(ctx, clanById(params['id']))),
    route('/clans/{id}/loot-config', ({ params }) => {
      const clan = clanById(params['id']);
      const rng = new Rng(hashSeed(seed, 'loot', clan.id));
      const leaderShare = rng.int(0, 30);
      return {
        clan_id: clan.id,
        mode: rng.pick(['points', 'equal']),
        leader_share: leaderShare,
        member_share: 100 - leaderShare,
      };
    }),
    route('/clans/{id}/motd', ({ params }) => ({ motd: clanById(params['id']).motd })),
    route('/clans/recruitment', ({ query }) => {
      const page = pageQuery(query);
      const limit = intQuery(query, 'limit', { min: 1, max: 50, fallback: 10 });
      const region = optionalIntQuery(query, 'region', 0);
      const language = query.get('language') ?? '';
      const clans = world.clans.filter(
        (c) =>
          c.recruiting &&
          (region === undefined || c.region === region) &&
          (language === '' || c.language === language),
      );
      return {
        page,
        limit,
        clans: pageOf(clans, page, limit).map((c) => ({
          clan_id: c.id,
          name: c.name,
          region: c.region,
          language: c.language,
          member_count: c.members.length,
        })),
      };
    }),
    route('/leaderboards/player_clan', ({ query }) => ({
      rows: sortedRows(
        world.clans.map((c) => ({ clan_id: c.id, clan_name: c.name, value: index.clanScore(c.id) })),
        ascending(query, false),
      ),
    })),
    route('/leaderboards/raids/{mapId}', ({ params, query }) => {
      const mapId = intParam(params['mapId'] ?? '', 'mapId');
      if (!RAID_MAP_IDS.some((id) => id === mapId)) throw badRequest('invalid raid map');
      const rng = new Rng(hashSeed(seed, 'raid', mapId));
      const players = rng.sample(
        world.players.filter((p) => !p.banned && p.stats.games > 0),
        BOARD_ROWS,
      );
      return {
        map_id: mapId,
        rows: sortedRows(
          players.map((p) => ({ player_name: p.name, value: rng.int(60_000, 900_000) })),
          ascending(query, true),
        ),
      };
    }),
    route('/leaderboards/krunkcup/players', () => {
      const rng = new Rng(hashSeed(seed, 'cup-players'));
      const players = rng.sample(
        world.players.filter((p) => !p.banned && p.stats.games > 0),
        BOARD_ROWS,
      );
      return {
        rows: sortedRows(
          players.map((p) => ({ player_name: p.name, value: rng.int(0, 5_000) })),
          false,
        ),
      };
    }),
    route('/leaderboards/krunkcup/teams', () => ({
      rows: sortedRows(
        cupTeams(world).map((t) => ({ team_id: t.id, team_name: t.name, value: t.value })),
        false,
      ),
    })),
    route('/leaderboards/krunkcup/teams/{id}/contributors', ({ params }) => {
      const id = intParam(params['id'] ?? '', 'id');
      const team = cupTeams(world).find((t) => t.id === id);
      if (!team) throw notFound('Team');
      return { team_id: team.id, rows: team.contributors };
    }),
    route('/leaderboards/{type}', ({ params, query }) => {
      const type = params['type'] ?? '';
      const valueOf = Object.hasOwn(PLAYER_BOARDS, type) ? PLAYER_BOARDS[type] : undefined;
      if (!valueOf) throw badRequest('invalid leaderboard type');
      const season =
        intQuery(query, 'season', { min: 0, fallback: world.currentSeason }) || world.currentSeason;
      const rows = world.players
        .filter((p) => !p.banned && p.stats.games > 0)
        .map((p) => {
          const base = valueOf(p.stats, p);
          const factor =
            season === world.currentSeason
              ? 1
              : new Rng(hashSeed(seed, 'season-board', season, p.id)).float(0.2, 0.9);
          return {
            player_name: p.name,
            clan: index.clanOf(p)?.name ?? '',
            value: Number.isInteger(base) ? Math.round(base * factor) : round2(base * factor),
          };
        });
      return { type, season, rows: sortedRows(rows, ascending(query, false)) };
    }),
    route('/maps', () => world.officialMaps.map((m) => ({ id: m.id, name: m.name }))),
    route('/maps/by-name/{name}', ({ params }) => {
      const map = findMap(index, params['name'] ?? '');
      return { ...mapInfo(map, ctx.featured.isFeatured(map.id)), creator_id: map.creatorId };
    }),
    route('/maps/by-name/{name}/leaderboard', ({ params, query }) =>
      mapLeaderboard(findMap(index, params['name'] ?? ''), query),
    ),
    route('/maps/{id}', ({ params }) => {
      const id = intParam(params['id'] ?? '', 'id');
      let file = mapFiles.get(id);
      if (file === undefined) {
        const official = world.officialMaps[id];
        const community = index.mapById(id);
        if (official) file = mapFile(world, id, official.name, 'Krunker', 2_000);
        else if (community) file = mapFile(world, id, community.name, community.creatorName, 150);
        else throw notFound('Map');
        mapFiles.set(id, file);
      }
      return file;
    }),
    route('/mods/by-name/{name}', ({ params }) => {
      const mod = index.mod(params['name'] ?? '');
      if (!mod) throw notFound('Mod');
      return modRecord(mod);
    }),
    route('/items/{id}/view', ({ params }) => {
      const market = skinMarket(params['id']);
      return {
        skin_index: market.skinIndex,
        name: world.skins[market.skinIndex]?.name ?? '',
        listings: market.listings.map((l) => ({
          market_id: wireId(l.marketId),
          price: l.price,
          seller_name: l.sellerName,
        })),
      };
    }),
    route('/items/{id}/instances', ({ params }) => {
      const market = skinMarket(params['id']);
      const skin = world.skins[market.skinIndex];
      const rng = new Rng(hashSeed(seed, 'instances', market.skinIndex));
      const instances: Record<string, unknown>[] = [];
      for (const holder of market.holders) {
        for (let i = 0; i < holder.count; i++) {
          instances.push({
            holder: holder.playerName,
            serial: instances.length + 1,
            ...(skin?.hasWear === true ? { wear: rng.float(0, 1, 3) } : {}),
          });
        }
      }
      return { instances };
    }),
    route('/items/{id}/sales', ({ params }) => ({
      sales: skinMarket(params['id']).priceHistory.map((d) => ({
        kr: Math.round(d.averagePrice * d.sales),
        count: d.sales,
        date: d.date,
      })),
    })),
    route('/market/stats', ({ query }) => {
      const offset = readCursor(query);
      const rarity = optionalIntQuery(query, 'rarity', 0);
      const season = optionalIntQuery(query, 'season', 0);
      const rows = world.market
        .filter((m) => {
          const skin = world.skins[m.skinIndex];
          return (
            (rarity === undefined || skin?.rarity === rarity) &&
            (season === undefined || skin?.season === season)
          );
        })
        .map((m) => ({
          skin_index: m.skinIndex,
          circulating: m.totalCirculating,
          on_sale: m.listings.length,
          ...(m.listings.length > 0
            ? { ask_low: m.listings[0]?.price ?? 0, ask_high: m.listings.at(-1)?.price ?? 0 }
            : {}),
        }));
      const sort = query.get('sort');
      if (sort === 'rarity') {
        rows.sort(
          (a, b) =>
            (world.skins[b.skin_index]?.rarity ?? 0) - (world.skins[a.skin_index]?.rarity ?? 0) ||
            a.skin_index - b.skin_index,
        );
      } else if (sort === 'circulating')
        rows.sort((a, b) => b.circulating - a.circulating || a.skin_index - b.skin_index);
      else if (sort === 'on_sale') rows.sort((a, b) => b.on_sale - a.on_sale || a.skin_index - b.skin_index);
      const end = offset + MARKET_STATS_PAGE;
      return { rows: rows.slice(offset, end), cursor: writeCursor(end, rows.length) };
    }),
    route('/market/items/{id}/sales-statistics', ({ params }) => ({
      days: skinMarket(params['id']).priceHistory.map((d) => ({
        date: d.date,
        average_price: d.averagePrice,
        sales: d.sales,
      })),
    })),
    route('/market/items/{id}/sales', ({ params }) => {
      const market = skinMarket(params['id']);
      return {
        ...(market.listings.length > 0
          ? { ask_low: market.listings[0]?.price ?? 0, ask_high: market.listings.at(-1)?.price ?? 0 }
          : {}),
        circulating: market.totalCirculating,
        top_owner_ids: market.holders
          .filter((h) => !h.banned)
          .slice(0, 10)
          .map((h) => h.playerId),
      };
    }),
    route('/social/feed', ({ query }) => {
      const tab = query.get('tab') ?? 'global';
      if (tab !== 'global') throw badRequest('invalid tab');
      return {
        posts: world.posts
          .slice(-30)
          .reverse()
          .map((post) => feedPost(post, index.playerById(post.playerId)?.name ?? '')),
      };
    }),
    route('/social/news', () => ({ posts: news(world) })),
    route('/social/post/{id}', ({ params }) => {
      const post = index.post(intParam(params['id'] ?? '', 'id'));
      if (!post) throw notFound('Post');
      return feedPost(post, index.playerById(post.playerId)?.name ?? '');
    }),
    route('/shop/displays', () => shopDisplays(world)),
    route('/shop/wild-offer', ({ nowMs }) => {
      const day = Math.floor(nowMs / DAY_MS);
      if (day % 2 === 1) return { available: false, error: 'No offer available' };
      const rng = new Rng(hashSeed(seed, 'wild-offer', day));
      const skin = rng.pick(world.skins);
      return {
        available: true,
        id: day,
        skin_index: skin.index,
        name: skin.name,
        price: rng.int(100, 5_000),
        ends_at: iso((day + 1) * DAY_MS),
      };
    }),
    route('/ranked/shop', () => {
      const rng = new Rng(hashSeed(seed, 'ranked-shop'));
      return rng
        .sample(world.skins, 12)
        .map((s) => ({ skin_index: s.index, name: s.name, rarity: s.rarity, price: rng.int(200, 3_000) }));
    }),
    route('/spins/wheels', () => {
      const rng = new Rng(hashSeed(seed, 'wheels'));
      return ['Basic', 'Premium', 'Elite'].map((name, index) => ({
        id: index + 1,
        name,
        cost: [500, 1_500, 5_000][index] ?? 0,
        pool: rng.sample(world.skins, 10).map((s) => ({ skin_index: s.index, weight: rng.int(1, 100) })),
      }));
    }),
    route('/titles', () =>
      ['Rookie', 'Sharpshooter', 'Veteran', 'Legend', 'Turf Lord', 'Market Mogul'].map((name, i) => ({
        id: i + 1,
        name,
        rarity: Math.min(6, i),
      })),
    ),
    route('/lottery/{id}', ({ params, nowMs }) => {
      const id = intParam(params['id'] ?? '', 'id');
      if (id < 1 || id > 3) throw notFound('Lottery');
      const rng = new Rng(hashSeed(seed, 'lottery', id));
      return {
        id,
        name: `Lottery #${id}`,
        ends_at: iso(Math.floor(nowMs / DAY_MS + id) * DAY_MS),
        entries: rng.int(100, 50_000),
        prizes: rng.sample(world.skins, 3).map((s) => s.index),
      };
    }),
    route('/game-list', ({ nowMs }) => gameList(world, nowMs)),
    route('/krunkcup/wristband', () => ({
      season: world.currentSeason,
      tiers: [
        { tier: 1, points: 0, reward: 'Bronze band' },
        { tier: 2, points: 1_000, reward: 'Silver band' },
        { tier: 3, points: 5_000, reward: 'Gold band' },
      ],
    })),
    route('/creators/events', () => [
      {
        id: 1,
        name: 'Map Jam',
        starts_at: iso(world.anchorMs - 3 * DAY_MS),
        ends_at: iso(world.anchorMs + 11 * DAY_MS),
      },
      {
        id: 2,
        name: 'Skin Contest',
        starts_at: iso(world.anchorMs + 14 * DAY_MS),
        ends_at: iso(world.anchorMs + 28 * DAY_MS),
      },
    ]),
    route('/territorial-wars/status', ({ nowMs }) => {
      const day = turf.dayOf(nowMs);
      return {
        day,
        maps: TURF_MAP_IDS.map((mapId) => {
          const owner = turf.owner(day, mapId);
          return {
            map_id: mapId,
            owner: owner ? { clan_id: owner.id, clan_name: owner.name } : null,
            top_clans: turf
              .clanStandings([day], mapId)
              .slice(0, 5)
              .map((row, i) => ({
                position: i + 1,
                clan_id: row.id,
                clan_name: row.name,
                points: row.points,
              })),
          };
        }),
      };
    }),
    route('/territorial-wars/clan/{id}', ({ params, nowMs }) => {
      const clan = clanById(params['id']);
      const day = turf.dayOf(nowMs);
      const standing = turf.clanStandings([day]);
      const position = standing.findIndex((row) => row.id === clan.id);
      return {
        clan_id: clan.id,
        clan_name: clan.name,
        position: position === -1 ? null : position + 1,
        points: standing[position]?.points ?? 0,
        maps_owned: TURF_MAP_IDS.filter((mapId) => turf.owner(day, mapId)?.id === clan.id),
      };
    }),
    route('/territorial-wars/clan/{id}/earnings', ({ params, nowMs }) => {
      const clan = clanById(params['id']);
      return {
        clan_id: clan.id,
        days: turf
          .finishedDays(turf.dayOf(nowMs))
          .map((day) => ({ day, kr: turf.clanEarnings(clan.id, day) })),
      };
    }),
    route('/territorial-wars/clan/{id}/payouts', ({ params, query, nowMs }) => {
      const clan = clanById(params['id']);
      const day = turfDay(query);
      const today = turf.dayOf(nowMs);
      if (day !== undefined) {
        return {
          clan_id: clan.id,
          day,
          payouts: day < today ? turf.payouts(clan.id, day).map(payoutRow) : [],
        };
      }
      const sums = new Map<number, { playerId: number; playerName: string; kr: number }>();
      for (const finished of turf.finishedDays(today)) {
        for (const payout of turf.payouts(clan.id, finished)) {
          const sum = sums.get(payout.playerId);
          if (sum) sum.kr += payout.kr;
          else sums.set(payout.playerId, { ...payout });
        }
      }
      return {
        clan_id: clan.id,
        day: null,
        payouts: [...sums.values()].sort((a, b) => b.kr - a.kr).map(payoutRow),
      };
    }),
    route('/territorial-wars/clan/{id}/players', ({ params, query, nowMs }) => {
      const clan = clanById(params['id']);
      const day = turfDay(query) ?? turf.dayOf(nowMs);
      const mapId = turfMap(query);
      return {
        clan_id: clan.id,
        day,
        players: turf.playerStandings([day], mapId, clan.id).map((row) => ({
          player_id: row.id,
          player_name: row.name,
          points: row.points,
          kills: row.kills,
          deaths: row.deaths,
        })),
      };
    }),
    route('/territorial-wars/player/{id}', ({ params }) => {
      const player = playerById(params['id']);
      const clan = index.clanOf(player);
      return {
        player_id: player.id,
        player_name: player.name,
        clan_id: clan?.id ?? null,
        clan_name: clan?.name ?? null,
      };
    }),
    route('/territorial-wars/player/{id}/contributions', ({ params, query, nowMs }) => {
      const player = playerById(params['id']);
      const day = turfDay(query);
      const days = day === undefined ? turf.seasonDays(turf.dayOf(nowMs)) : [day];
      const contributions = days.flatMap((d) =>
        turf
          .clanDays(d)
          .flatMap((row) =>
            row.players
              .filter((p) => p.playerId === player.id)
              .map((p) => ({ day: d, map_id: row.mapId, points: p.points, kills: p.kills })),
          ),
      );
      return { player_id: player.id, contributions };
    }),
    route('/territorial-wars/player/{id}/earnings', ({ params, nowMs }) => {
      const player = playerById(params['id']);
      const earnings: { day: number; kr: number }[] = [];
      if (player.clanId !== null) {
        for (const day of turf.finishedDays(turf.dayOf(nowMs))) {
          const kr = turf.payouts(player.clanId, day).find((p) => p.playerId === player.id)?.kr ?? 0;
          if (kr > 0) earnings.push({ day, kr });
        }
      }
      return { player_id: player.id, earnings };
    }),
    route('/territorial-wars/leaderboards/top-performing-clans', ({ query, nowMs }) => {
      const day = turfDay(query) ?? turf.dayOf(nowMs);
      const mapId = turfMap(query);
      const clanName = query.get('clan_name');
      const rows = turf
        .clanStandings([day], mapId)
        .slice(0, BOARD_ROWS)
        .map((row, i) => ({ ...turfRow(row, i + 1), clan_id: row.id, clan_name: row.name }))
        .filter((row) => clanName === null || row.clan_name === clanName);
      return { rows };
    }),
    route('/territorial-wars/leaderboards/top-grossing-clans', ({ query, nowMs }) => {
      const clanName = query.get('clan_name');
      const rows = turf
        .grossing(turf.dayOf(nowMs))
        .slice(0, BOARD_ROWS)
        .map((row, i) => ({ position: i + 1, clan_id: row.clanId, clan_name: row.clanName, kr: row.kr }))
        .filter((row) => clanName === null || row.clan_name === clanName);
      return { rows };
    }),
    route('/territorial-wars/leaderboards/top-performing-players', async ({ query, nowMs }) => {
      const mapId = turfMap(query);
      const playerName = query.get('player_name');
      const rows = turf
        .playerStandings(turf.seasonDays(turf.dayOf(nowMs)), mapId)
        .slice(0, BOARD_ROWS)
        .map((row, i) => {
          const player = index.playerById(row.id);
          return {
            ...turfRow(row, i + 1),
            player_id: row.id,
            player_name: row.name,
            clan_name: player ? (index.clanOf(player)?.name ?? '') : '',
          };
        })
        .filter((row) => playerName === null || row.player_name === playerName);
      await ctx.sleep(ctx.latency.topPlayersMs);
      return { rows };
    }),
  ];
}

function payoutRow(p: { playerId: number; playerName: string; kr: number }): Record<string, unknown> {
  return { player_id: p.playerId, player_name: p.playerName, kr: p.kr };
}

function followRows(
  world: World,
  ids: readonly number[],
  pair: (other: number) => [number, number],
): Record<string, unknown>[] {
  const byId = new Map(world.players.map((p) => [p.id, p]));
  return ids
    .map((id) => {
      const [follower, followed] = pair(id);
      const daysAgo = new Rng(hashSeed(world.seed, 'follow', follower, followed)).int(0, 700);
      return {
        player_id: id,
        player_name: byId.get(id)?.name ?? '',
        followed_at: iso(world.anchorMs - daysAgo * DAY_MS),
      };
    })
    .sort((a, b) => compareText(b.followed_at, a.followed_at));
}

interface CupTeam {
  readonly id: number;
  readonly name: string;
  readonly value: number;
  readonly contributors: { player_name: string; value: number }[];
}

function cupTeams(world: World): CupTeam[] {
  const rng = new Rng(hashSeed(world.seed, 'cup-teams'));
  return world.clans.slice(0, 16).map((clan, i) => {
    const contributors = clan.members
      .slice(0, 5)
      .map((m) => ({ player_name: m.playerName, value: rng.int(0, 2_000) }))
      .sort((a, b) => b.value - a.value);
    return {
      id: i + 1,
      name: `${clan.name} Cup`,
      value: contributors.reduce((sum, c) => sum + c.value, 0),
      contributors,
    };
  });
}

function news(world: World): Record<string, unknown>[] {
  return [
    { title: 'Turf wars: a new season', body: 'Claim Burg, Sandstorm and Subzero for your clan.' },
    { title: 'Market update', body: 'Listings now show their full history.' },
    { title: 'Ranked season', body: `Season ${world.currentSeason} is live in every region.` },
    { title: 'Map Jam', body: 'Build a map in two weeks and win a featured spot.' },
  ].map((item, i) => ({ id: 900 + i, ...item, date: iso(world.anchorMs - (i * 5 + 1) * DAY_MS) }));
}

function shopDisplays(world: World): Record<string, unknown> {
  const rng = new Rng(hashSeed(world.seed, 'shop'));
  return {
    displays: ['Featured', 'Bundles', 'Premium'].map((name, i) => ({
      id: i + 1,
      name,
      children: [
        {
          id: (i + 1) * 10,
          name: `${name} items`,
          products: rng.sample(world.skins, 4).map((skin, j) => ({
            id: (i + 1) * 100 + j,
            skin_index: skin.index,
            name: skin.name,
            price:
              name === 'Premium'
                ? { recurring: 'monthly', currency: 'USD', amount: 4.99 }
                : { currency: 'USD', amount: [0.99, 2.99, 4.99, 9.99][j] ?? 0.99 },
          })),
        },
      ],
    })),
  };
}
