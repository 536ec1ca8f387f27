import type { SandboxContext } from '../context.ts';
import { intParam, notFound, type Route } from '../http.ts';
import { Rng, hashSeed } from '../prng.ts';
import { DAY_MS, iso } from '../time.ts';
import type { World } from '../world/types.ts';
import { route } from './common.ts';

/** The shop, spins, titles and lotteries. */
export function shopRoutes(ctx: SandboxContext): Route[] {
  const { world } = ctx;
  const seed = world.seed;
  return [
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
  ];
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
