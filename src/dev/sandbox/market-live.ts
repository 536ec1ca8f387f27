import type { WorldIndex } from './lookup.ts';
import { FIRST_MARKET_ID, type Listing, type World } from './world/types.ts';

// The market while the sandbox runs: a holder lists a skin at a price of their choosing, and its lowest
// price (what `/market/items/{id}/sales` answers as `ask_low`, what price alerts watch) moves with it.

export interface SandboxMarket {
  /**
   * A holder of the skin lists one unlisted copy of it at `price` KR, at `now()`; the first holder with
   * one unlisted (banned players aside) when no seller is named. Returns the listing. Throws for an
   * unknown skin, a price that is not a positive whole number, or a seller without an unlisted copy.
   */
  list(skinIndex: number, price: number, sellerName?: string): Listing;
}

/** Above every seeded listing id, so that a new listing sorts as the newest. */
const FIRST_LIVE_MARKET_ID = FIRST_MARKET_ID + 40_000_000n;

export class MarketLog implements SandboxMarket {
  readonly #world: World;
  readonly #index: WorldIndex;
  readonly #now: () => number;
  #listed = 0n;

  constructor(world: World, index: WorldIndex, now: () => number) {
    this.#world = world;
    this.#index = index;
    this.#now = now;
  }

  list(skinIndex: number, price: number, sellerName?: string): Listing {
    const market = this.#world.market[skinIndex];
    if (!market) throw new RangeError(`the sandbox world has no skin ${skinIndex}`);
    if (!Number.isSafeInteger(price) || price < 1) throw new RangeError('price must be a positive integer');
    const unlisted = (playerId: number) =>
      this.#index.inventoryOf(playerId).some((item) => item.skin_index === skinIndex && item.count > 0);
    const holder = market.holders.find(
      (h) => (sellerName === undefined ? !h.banned : h.playerName === sellerName) && unlisted(h.playerId),
    );
    if (!holder) {
      throw new Error(`${sellerName ?? 'nobody'} holds an unlisted copy of skin ${skinIndex}`);
    }
    const listing: Listing = {
      marketId: (FIRST_LIVE_MARKET_ID + this.#listed).toString(),
      skinIndex,
      price,
      sellerId: holder.playerId,
      sellerName: holder.playerName,
      listedAtMs: this.#now(),
    };
    this.#listed += 1n;
    this.#index.addListing(listing);
    return listing;
  }
}
