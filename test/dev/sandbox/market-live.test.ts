import { describe, expect, it } from 'vitest';
import { FIXED_NOW, get, useClockedSandboxes } from '../../support/sandbox.ts';

/** The market while the sandbox runs: `sandbox.market`. */
const start = useClockedSandboxes();

describe('sandbox market', () => {
  it('a new listing below the lowest price moves ask_low, and the seller lists it', async () => {
    const { sandbox } = await start();
    const skin = sandbox.world.samples.skinIndex;
    const sales = async () =>
      (await get(`${sandbox.urls.base}/market/items/${skin}/sales`)).body.data as { ask_low?: number };
    const before = (await sales()).ask_low ?? 0;
    expect(before).toBeGreaterThan(2);
    const listing = sandbox.market.list(skin, before - 1);
    expect((await sales()).ask_low).toBe(before - 1);
    const view = (await get(`${sandbox.urls.base}/items/${skin}/view`)).body.data as {
      listings: Array<{ price: number; seller_name: string }>;
    };
    expect(view.listings[0]).toMatchObject({ price: before - 1, seller_name: listing.sellerName });
    const own = await get(
      `${sandbox.urls.base}/api/player/${encodeURIComponent(listing.sellerName)}/listings`,
      { 'X-Developer-API-Key': sandbox.keys.default },
    );
    // The seller's newest listing (its id is above 2^53: compared by what else it holds).
    const newest = (own.body.data as { listings: Array<Record<string, unknown>> }).listings[0];
    expect(newest).toMatchObject({ skin_index: skin, price: before - 1 });
    expect(listing.listedAtMs).toBe(FIXED_NOW);
  });

  it('refuses an unknown skin, a price that is not a positive whole number, a seller without a copy', async () => {
    const { sandbox } = await start();
    const skin = sandbox.world.samples.skinIndex;
    expect(() => sandbox.market.list(1_000_000, 10)).toThrow();
    expect(() => sandbox.market.list(skin, 0)).toThrow();
    expect(() => sandbox.market.list(skin, 1.5)).toThrow();
    expect(() => sandbox.market.list(skin, 10, 'nobody-by-this-name')).toThrow();
  });
});
