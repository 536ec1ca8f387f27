import type { SandboxContext } from './context.ts';
import {
  HttpError,
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
  type RouteRequest,
} from './http.ts';
import { wireId } from './json.ts';
import { Rng, hashSeed } from './prng.ts';
import { findPlayer, playerLevel } from './records.ts';
import { DAY_MS, HOUR_MS, iso } from './time.ts';
import { compareText } from './world/common.ts';
import { FIRST_MARKET_ID, type Player, type World } from './world/types.ts';

const MARKET_PAGE = 50;

/** The token's player; a token for a player the world does not know is refused like a bad one. */
export function tokenPlayer(ctx: SandboxContext, request: RouteRequest): Player {
  const id = Number(request.claims?.sub);
  const player = Number.isSafeInteger(id) ? ctx.index.playerById(id) : undefined;
  if (!player) throw new HttpError(401, 'Invalid token');
  return player;
}

interface Studio {
  readonly id: number;
  readonly name: string;
  readonly ownerId: number;
  readonly memberIds: readonly number[];
}

function studiosOf(world: World): Studio[] {
  const rng = new Rng(hashSeed(world.seed, 'studios'));
  const creators = [...new Set(world.maps.map((m) => m.creatorId))].slice(0, 6);
  const active = world.players.filter((p) => p.stats.games > 0 && !p.banned);
  return creators.map((ownerId, i) => {
    const owner = world.players.find((p) => p.id === ownerId);
    return {
      id: 700 + i,
      name: `${owner?.name ?? 'Unknown'} Studios`,
      ownerId,
      memberIds: [ownerId, ...rng.sample(active, 2).map((p) => p.id)].filter(
        (id, j, all) => all.indexOf(id) === j,
      ),
    };
  });
}

interface HistoryEntry {
  readonly marketId: bigint;
  readonly skinIndex: number;
  readonly price: number;
  readonly side: 'buy' | 'sell';
  readonly dateMs: number;
}

function marketHistory(world: World, player: Player): HistoryEntry[] {
  const rng = new Rng(hashSeed(world.seed, 'market-history', player.id));
  const count = player.stats.games === 0 ? 0 : rng.int(0, 40);
  let marketId = FIRST_MARKET_ID + 50_000_000n + BigInt(player.id) * 1_000n;
  return Array.from({ length: count }, () => {
    marketId += BigInt(rng.int(1, 20));
    const skin = rng.pick(world.skins);
    return {
      marketId,
      skinIndex: skin.index,
      price: rng.int(20, 20_000),
      side: rng.chance(0.5) ? 'buy' : 'sell',
      dateMs: world.anchorMs - rng.int(0, 200 * 24) * HOUR_MS,
    } as const;
  }).sort((a, b) => b.dateMs - a.dateMs);
}

function trades(world: World, player: Player): Record<string, unknown>[] {
  const rng = new Rng(hashSeed(world.seed, 'trades', player.id));
  const partners = world.players.filter((p) => p.id !== player.id && p.stats.games > 0);
  const count = player.stats.games === 0 ? 0 : rng.int(0, 8);
  return Array.from({ length: count }, (_, i) => {
    const partner = rng.pick(partners);
    const id = player.id * 100 + i;
    const st = i === 0 && rng.chance(0.6) ? 0 : rng.pick([1, 1, 1, 2]);
    const gv = rng.sample(world.skins, rng.int(0, 3)).map((s) => s.index);
    const rc = rng.sample(world.skins, rng.int(0, 3)).map((s) => s.index);
    const amount = rng.chance(0.5) ? rng.int(10, 5_000) : 0;
    // Signed from the owner's side: KR comes in for skins given away, and goes out for skins received.
    const kr = gv.length >= rc.length ? amount : -amount;
    const ts = iso(world.anchorMs - rng.int(0, 120) * DAY_MS - rng.int(0, 23) * HOUR_MS);
    return { id, st, pn: partner.name, gv, rc, kr, ts };
  }).sort((a, b) => compareText(b.ts, a.ts));
}

export function tokenRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  const seed = world.seed;
  const studios = studiosOf(world);
  const route = (pattern: string, handler: (player: Player, request: RouteRequest) => unknown): Route => ({
    pattern,
    tier: 'token',
    handler: (request) => handler(tokenPlayer(ctx, request), request),
  });
  const studioById = (raw: string | undefined): Studio => {
    const id = intParam(raw ?? '', 'id');
    const studio = studios.find((s) => s.id === id);
    if (!studio) throw notFound('Studio');
    return studio;
  };

  return [
    route('/player/me', (player) => {
      const clan = index.clanOf(player);
      const account = {
        id: player.id,
        name: player.name,
        clan: clan?.name ?? '',
        kr: player.kr,
        level: playerLevel(player.stats.score),
        premium: player.premium,
        inventory: index.inventoryOf(player.id).map((item) => [item.skin_index, item.count]),
      };
      return { blob: Buffer.from(JSON.stringify(account), 'utf8').toString('base64') };
    }),
    route('/player/wallet', (player) => {
      const rng = new Rng(hashSeed(seed, 'wallet', player.id));
      return {
        kr: player.kr,
        currencies: [
          { id: 1, name: 'Studio Gems', amount: rng.int(0, 500) },
          { id: 2, name: 'Creator Coins', amount: rng.int(0, 5_000) },
        ],
      };
    }),
    route('/account/usernames', (player) => ({
      usernames: player.previousNames.map((n) => ({ name: n.name, changed_at: iso(n.changedAtMs) })),
    })),
    route('/email/preferences', (player) => {
      const rng = new Rng(hashSeed(seed, 'email', player.id));
      return { newsletter: rng.chance(0.4), market_alerts: rng.chance(0.6), security: true };
    }),
    route('/discord/status', (player) =>
      player.discordTag === null
        ? { linked: false }
        : { linked: true, discord_tag: player.discordTag, linked_at: iso(player.createdAtMs + 30 * DAY_MS) },
    ),
    route('/guest/profile', () => ({ kills: 0, deaths: 0, score: 0, games: 0, time_played: 0 })),
    route('/market/listings', (_player, { query }) => {
      const offset = readCursor(query);
      const skinIndex = optionalIntQuery(query, 'skin_index', 0);
      const listings = world.market
        .filter((m) => skinIndex === undefined || m.skinIndex === skinIndex)
        .flatMap((m) => m.listings);
      const sort = query.get('sort');
      if (sort === 'price_desc') listings.sort((a, b) => b.price - a.price);
      else if (sort === 'newest') listings.sort((a, b) => b.listedAtMs - a.listedAtMs);
      else listings.sort((a, b) => a.price - b.price || a.listedAtMs - b.listedAtMs);
      const end = offset + MARKET_PAGE;
      return {
        listings: listings.slice(offset, end).map((l) => ({
          market_id: wireId(l.marketId),
          skin_index: l.skinIndex,
          price: l.price,
          seller_name: l.sellerName,
          listed_at: iso(l.listedAtMs),
        })),
        cursor: writeCursor(end, listings.length),
      };
    }),
    route('/market/history', (player, { query }) => {
      const offset = readCursor(query);
      const limit = intQuery(query, 'limit', { min: 1, max: 100, fallback: 25 });
      const entries = marketHistory(world, player);
      if (query.get('sort') === 'oldest') entries.reverse();
      const end = offset + limit;
      return {
        entries: entries.slice(offset, end).map((e) => ({
          market_id: e.marketId,
          skin_index: e.skinIndex,
          price: e.price,
          side: e.side,
          date: iso(e.dateMs),
        })),
        cursor: writeCursor(end, entries.length),
      };
    }),
    route('/market/sales', (player) => ({
      listings: index.listingsOf(player.id).map((l) => ({
        market_id: wireId(l.marketId),
        skin_index: l.skinIndex,
        price: l.price,
        listed_at: iso(l.listedAtMs),
      })),
    })),
    route('/market/black-market', (_player, { nowMs }) => {
      const rng = new Rng(hashSeed(seed, 'black-market', Math.floor(nowMs / DAY_MS)));
      return {
        skin_indices: rng
          .sample(world.skins, 8)
          .map((s) => s.index)
          .sort((a, b) => a - b),
      };
    }),
    route('/market/black-market/rank', (player) => {
      const best = index
        .rankedOf(player.id, world.currentSeason)
        .map((r) => ({ record: r, position: index.rankedBoard(r.season, r.region).indexOf(r) + 1 }))
        .sort((a, b) => a.position - b.position)[0];
      return best
        ? {
            season: best.record.season,
            region: best.record.region,
            position: best.position,
            mmr: best.record.mmr,
          }
        : null;
    }),
    route('/skins', (player, { query }) => {
      const page = pageQuery(query);
      const pageSize = intQuery(query, 'page_size', { min: 1, max: 100, fallback: 20 });
      const rng = new Rng(hashSeed(seed, 'custom-skins', player.id));
      const made = world.maps.some((m) => m.creatorId === player.id)
        ? rng.int(1, 30)
        : rng.chance(0.1)
          ? rng.int(1, 4)
          : 0;
      const skins = Array.from({ length: made }, (_, i) => ({
        id: player.id * 1_000 + i,
        name: `${player.name} custom #${i + 1}`,
        status: rng.pick(['approved', 'pending', 'rejected']),
        created_at: iso(world.anchorMs - rng.int(0, 400) * DAY_MS),
      }));
      return { page, skins: pageOf(skins, page, pageSize) };
    }),
    route('/trades/history', (player, { query }) => {
      const offset = intQuery(query, 'offset', { min: 0, fallback: 0 });
      const limit = intQuery(query, 'limit', { min: 1, max: 100, fallback: 25 });
      const open = query.get('open');
      if (open !== null && !['0', '1', 'true', 'false'].includes(open)) throw badRequest('invalid open');
      const includeOpen = open === '1' || open === 'true';
      const all = trades(world, player).filter((t) => includeOpen || t['st'] !== 0);
      return { trades: all.slice(offset, offset + limit) };
    }),
    route('/trades/inventory/{playerId}', (player, { params }) => {
      const other = index.playerById(intParam(params['playerId'] ?? '', 'playerId'));
      if (!other) throw notFound('Player');
      return {
        mine: index.inventoryOf(player.id).map((item) => ({ ...item })),
        theirs: index.inventoryOf(other.id).map((item) => ({ ...item })),
      };
    }),
    route('/trades/player-search', (_player, { query }) => {
      const name = query.get('name') ?? '';
      if (name === '') throw badRequest('name required');
      const found = index.player(name);
      if (!found) throw notFound('Player');
      return { player_id: found.id, player_name: found.name };
    }),
    route('/clans/my-applications', (player) => {
      if (player.clanId !== null) return { clan_ids: null };
      const rng = new Rng(hashSeed(seed, 'applications', player.id));
      const ids = rng.sample(world.clans, rng.int(0, 3)).map((c) => c.id);
      return { clan_ids: ids.length === 0 ? null : ids.sort((a, b) => a - b) };
    }),
    route('/maps/{id}/data', (player, { params, query }) => {
      const map = index.mapById(intParam(params['id'] ?? '', 'id'));
      if (!map) throw notFound('Map');
      const target = query.get('player') ? findPlayer(index, query.get('player') ?? '') : player;
      const rng = new Rng(hashSeed(seed, 'map-data', map.id, target.id));
      return {
        map_id: map.id,
        player: target.name,
        data: rng.chance(0.3)
          ? {}
          : { coins: rng.int(0, 999), checkpoint: rng.int(0, 20), best: rng.int(10_000, 300_000) },
      };
    }),
    route('/maps/{id}/versions', (player, { params }) => {
      const map = index.mapById(intParam(params['id'] ?? '', 'id'));
      if (!map || map.creatorId !== player.id) return [];
      const step = Math.max(1, Math.floor((map.updatedAtMs - map.createdAtMs) / map.versions));
      return Array.from({ length: map.versions }, (_, i) => ({
        version: i + 1,
        created_at: iso(map.createdAtMs + i * step),
        size: 20_000 + i * 1_337,
      })).reverse();
    }),
    route('/studios/mine', (player) =>
      studios
        .filter((s) => s.memberIds.includes(player.id))
        .map((s) => ({ id: s.id, name: s.name, role: s.ownerId === player.id ? 'owner' : 'member' })),
    ),
    route('/studios/invites', (player) => {
      const rng = new Rng(hashSeed(seed, 'studio-invites', player.id));
      return studios
        .filter((s) => !s.memberIds.includes(player.id) && rng.chance(0.05))
        .map((s) => ({
          studio_id: s.id,
          studio_name: s.name,
          invited_at: iso(world.anchorMs - rng.int(0, 20) * DAY_MS),
        }));
    }),
    route('/studios/{id}', (_player, { params }) => {
      const studio = studioById(params['id']);
      return {
        id: studio.id,
        name: studio.name,
        owner_id: studio.ownerId,
        members: studio.memberIds.map((id) => ({
          player_id: id,
          player_name: index.playerById(id)?.name ?? '',
        })),
      };
    }),
    route('/studios/{id}/analytics', (_player, { params }) => {
      const studio = studioById(params['id']);
      const rng = new Rng(hashSeed(seed, 'studio-analytics', studio.id));
      return {
        studio_id: studio.id,
        plays_7d: rng.int(0, 90_000),
        players_7d: rng.int(0, 20_000),
        revenue_7d: rng.int(0, 9_000),
      };
    }),
    route('/studios/{id}/monetization', (_player, { params }) => {
      const studio = studioById(params['id']);
      const rng = new Rng(hashSeed(seed, 'studio-money', studio.id));
      return {
        studio_id: studio.id,
        enabled: rng.chance(0.7),
        share_percent: rng.int(10, 50),
        balance: rng.int(0, 100_000),
      };
    }),
    route('/studios/{id}/skins', (_player, { params }) => {
      const studio = studioById(params['id']);
      const rng = new Rng(hashSeed(seed, 'studio-skins', studio.id));
      return {
        studio_id: studio.id,
        skins: rng.sample(world.skins, 5).map((s) => ({ skin_index: s.index, name: s.name })),
      };
    }),
  ];
}
