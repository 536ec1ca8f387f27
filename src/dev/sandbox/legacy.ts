import { badRequest, intQuery, type Route } from './http.ts';
import type { WorldIndex } from './lookup.ts';
import type { FeaturedMaps } from './context.ts';
import type { World } from './world/types.ts';

const BROWSER_PAGE = 20;
/** Browser tabs (`index`): 0 most voted, 1 newest, 2 featured. */
const TABS = 3;

export function legacyRoutes(world: World, index: WorldIndex, featured: FeaturedMaps): Route[] {
  const route = (pattern: string, handler: Route['handler']): Route => ({ pattern, tier: 'open', handler });
  const browser = (query: URLSearchParams) => {
    const tab = intQuery(query, 'index', { min: 0, fallback: 0 });
    if (tab >= TABS) throw badRequest('invalid index');
    return { tab, pos: intQuery(query, 'pos', { min: 0, fallback: 0 }) };
  };
  return [
    route('/webhooks/general/items/prices', () => {
      const prices: Record<string, number | null> = {};
      for (const market of world.market) {
        const last = market.priceHistory.at(-1);
        prices[String(market.skinIndex)] = last ? Math.round(last.averagePrice) : null;
      }
      return prices;
    }),
    route('/webhooks/general/maps/list', ({ query }) => {
      const { tab, pos } = browser(query);
      const maps = world.maps
        .filter((m) => index.mapById(m.id) !== undefined && (tab !== 2 || featured.isFeatured(m.id)))
        .sort((a, b) => (tab === 1 ? b.createdAtMs - a.createdAtMs : b.votes - a.votes) || a.id - b.id);
      return {
        maps: maps
          .slice(pos * BROWSER_PAGE, (pos + 1) * BROWSER_PAGE)
          .map((m) => ({ map_id: m.id, name: m.name, creator_name: m.creatorName, votes: m.votes })),
      };
    }),
    route('/webhooks/general/mods/list', ({ query }) => {
      const { tab, pos } = browser(query);
      const mods = world.mods
        .filter((m) => !m.deleted && !m.creatorBanned && (tab !== 2 || m.featured))
        .sort((a, b) => (tab === 1 ? b.createdAtMs - a.createdAtMs : b.votes - a.votes) || a.id - b.id);
      return {
        mods: mods
          .slice(pos * BROWSER_PAGE, (pos + 1) * BROWSER_PAGE)
          .map((m) => ({ mod_id: m.id, name: m.name, creator_name: m.creatorName, votes: m.votes })),
      };
    }),
  ];
}
