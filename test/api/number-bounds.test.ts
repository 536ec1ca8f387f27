import { afterEach, describe, expect, it } from 'vitest';
import * as s from '../../src/api/schemas/index.ts';
import { degradations } from '../../src/api/schemas/tolerant.ts';

/**
 * Upstream numbers are range-checked where they enter (issue 18, finding 1): a price of 1e300 or 1e308
 * becomes unknown for its own field, and the reply, the day's sales and the other days stay.
 */
afterEach(() => degradations.reset());

const skin = (priceHistory: unknown[]) => ({
  skin_index: 7,
  total_listings: 3,
  lowest_price: 1e308,
  average_price: -1e308,
  total_circulating: 40,
  listings: [
    { price: 1e300, seller_name: 'Greedy' },
    { price: 120, seller_name: 'Honest' },
  ],
  owners: [{ player_name: 'Hoarder', count: 1e20 }],
  price_history: priceHistory,
});

describe('number bounds at the schema', () => {
  it('a poisoned price history degrades the poisoned fields only', () => {
    const parsed = s.MarketSkinSchema.parse(
      skin([
        { date: '2026-11-20', average_price: 1e300, sales: 1e9 },
        { date: '2026-11-21', average_price: 1e308, sales: 2 },
        { date: '2026-11-22', average_price: -1e308, sales: -4 },
        { date: '2026-11-23', average_price: 130.5, sales: 3 },
      ]),
    );
    expect(parsed.price_history).toEqual([
      { date: '2026-11-20', sales: 1e9 },
      { date: '2026-11-21', sales: 2 },
      { date: '2026-11-22' },
      { date: '2026-11-23', average_price: 130.5, sales: 3 },
    ]);
    expect(parsed.lowest_price).toBeUndefined();
    expect(parsed.average_price).toBeUndefined();
    expect(parsed.total_listings).toBe(3);
    expect(parsed.listings).toEqual([{ price: 120, seller_name: 'Honest' }]);
    expect(parsed.owners).toEqual([{ player_name: 'Hoarder' }]);
    expect(degradations.seen()).toEqual(
      expect.arrayContaining([
        'PriceHistoryDay.average_price',
        'PriceHistoryDay.sales',
        'MarketSkin.lowest_price',
      ]),
    );
  });

  it('the game tier’s sales statistics and market rows too', () => {
    const stats = s.SalesStatisticsSchema.parse({
      days: [
        { date: '2026-11-20', average_price: 1e300, sales: 1e13 },
        { date: '2026-11-21', average_price: 12, sales: 1 },
      ],
    });
    expect(stats.days).toEqual([{ date: '2026-11-20' }, { date: '2026-11-21', average_price: 12, sales: 1 }]);
    const market = s.MarketStatsSchema.parse({
      rows: [{ skin_index: 1, circulating: 5, on_sale: 1e308, ask_low: -1, ask_high: 9 }],
      cursor: null,
    });
    expect(market.rows).toEqual([{ skin_index: 1, circulating: 5, ask_high: 9 }]);
  });

  it('a ranked MMR past ±1e6 and negative wins are unknown', () => {
    const region = s.RankedRegionSchema.parse({ region: 1, mmr: 1e300, wins: -3, losses: 4 });
    expect(region).toEqual({ region: 1, losses: 4 });
  });
});
