import type { ResultOf, Routes } from '../../api/client.ts';
import type { ParamsOf } from '../../api/route.ts';
import type { Config } from '../../config/index.ts';

type Read = 'itemPrices' | 'skins';

/** What reads the market's lists for a reply: a command's or a button's context (deferring first if it must). */
export interface MarketReader {
  load<N extends Read>(name: N, params: ParamsOf<Routes[N]>): Promise<ResultOf<Routes[N]>>;
  readonly services: {
    readonly config: { readonly game: Pick<Config['game'], 'apiKey'> };
    readonly log: { warn(object: object, message: string): void };
  };
}

/** Pages of the skin list read at most to find the rarities of an inventory's skins (100 skins a page). */
const SKIN_PAGES = 30;

/**
 * What `/player inventory` shows beside each skin: its price from the item prices endpoint (cached six
 * hours) and its rarity from the skin list (pages cached six hours, the same the bot preloads names
 * from), read only until every skin asked about is found. Either failing leaves that column out.
 */
export async function inventoryMarketData(
  ctx: MarketReader,
  skins: readonly number[],
): Promise<{ price: (index: number) => number | undefined; rarity: (index: number) => number | undefined }> {
  let prices: Readonly<Record<number, number | null>> = {};
  try {
    prices = await ctx.load('itemPrices', {});
  } catch (error) {
    ctx.services.log.warn({ err: error }, 'item prices unavailable for an inventory');
  }
  const rarities = new Map<number, number>();
  const wanted = new Set(skins);
  if (ctx.services.config.game.apiKey !== undefined) {
    try {
      for (let page = 1; page <= SKIN_PAGES && [...wanted].some((i) => !rarities.has(i)); page += 1) {
        const list = await ctx.load('skins', { page, perPage: 100 });
        for (const skin of list.skins)
          if (skin.rarity !== undefined) rarities.set(skin.skin_index, skin.rarity);
        if (list.skins.length < (list.per_page ?? 100)) break;
      }
    } catch (error) {
      ctx.services.log.warn({ err: error }, 'skin rarities unavailable for an inventory');
    }
  }
  return {
    price: (index) => {
      const price = prices[index];
      return price === null || price === undefined ? undefined : price;
    },
    rarity: (index) => rarities.get(index),
  };
}
