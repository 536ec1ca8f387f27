import type { SandboxContext } from '../context.ts';
import { intParam, notFound, optionalIntQuery, readCursor, writeCursor, type Route } from '../http.ts';
import { wireId } from '../json.ts';
import { Rng, hashSeed } from '../prng.ts';
import type { SkinMarket, World } from '../world/types.ts';
import { route } from './common.ts';

const MARKET_STATS_PAGE = 50;

function skinMarket(world: World, raw: string | undefined): SkinMarket {
  const market = world.market[intParam(raw ?? '', 'id')];
  if (!market) throw notFound('Item');
  return market;
}

/** Items and the market. */
export function marketRoutes(ctx: SandboxContext): Route[] {
  const { world } = ctx;
  const seed = world.seed;
  return [
    route('/items/{id}/view', ({ params }) => {
      const market = skinMarket(world, params['id']);
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
      const market = skinMarket(world, params['id']);
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
      sales: skinMarket(world, params['id']).priceHistory.map((d) => ({
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
      days: skinMarket(world, params['id']).priceHistory.map((d) => ({
        date: d.date,
        average_price: d.averagePrice,
        sales: d.sales,
      })),
    })),
    route('/market/items/{id}/sales', ({ params }) => {
      const market = skinMarket(world, params['id']);
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
  ];
}
