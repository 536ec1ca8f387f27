import type { SandboxContext } from '../context.ts';
import { findPlayer } from '../records.ts';
import { badRequest, type Route } from '../http.ts';
import { Rng, hashSeed } from '../prng.ts';
import { DAY_MS, iso, ymd } from '../time.ts';
import { compareText } from '../world/common.ts';
import type { World } from '../world/types.ts';
import { route } from './common.ts';

export function playerRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  const seed = world.seed;
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
  ];
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
