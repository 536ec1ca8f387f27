import { describe, expect, it } from 'vitest';
import { OVERVIEW_CHART_FILE, renderMarketOverview } from '../../../src/features/market/render.ts';
import { buildMarketOverviewSvg } from '../../../src/features/market/overview-chart.ts';
import type { SalesStatistics } from '../../../src/api/schemas/index.ts';
import { HOSTILE, expectSafe, translators } from '../../support/render.ts';

const { en } = translators;
const NOW = Date.UTC(2026, 10, 24, 12);

describe('market overview', () => {
  it('totals the stats page, ranks the most listed and sums the last 7 days of sales (future days left out)', async () => {
    const sales = new Map<number, SalesStatistics>([
      [
        2,
        {
          days: [
            { date: '2026-11-10', average_price: 50, sales: 100 },
            { date: '2026-11-20', average_price: 60, sales: 3 },
            { date: '2026-11-24', average_price: 70.5, sales: 4 },
            { date: '2026-12-30', average_price: 1, sales: 999 },
          ],
        },
      ],
      [1, { days: [] }],
    ]);
    const payload = await renderMarketOverview(en, {
      stats: {
        rows: [
          { skin_index: 1, circulating: 10, on_sale: 2, ask_low: 100, ask_high: 150 },
          { skin_index: 2, circulating: 30, on_sale: 9, ask_low: 40, ask_high: 40 },
          { skin_index: 3, circulating: 5, on_sale: 0 },
        ],
        cursor: null,
      },
      sales,
      skinName: (i) => (i === 2 ? `${HOSTILE} @everyone` : undefined),
      now: NOW,
    });
    expectSafe(payload);
    const fields = Object.fromEntries((payload.embeds?.[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(payload.embeds?.[0]?.description).toBe(
      'The 3 most listed skins · on sale: **11** · in circulation: **45**',
    );
    expect(Object.keys(fields)).toEqual(['Most listed', 'Sales of the last 7 days']);
    const lines = fields['Most listed']?.split('\n') ?? [];
    expect(lines[0]).toMatch(/^1\. \*\*.*\*\* · 9 on sale · 40 KR$/);
    expect(lines[1]).toBe('2. **Unknown skin 1** · 2 on sale · 100 KR–150 KR');
    const recent = fields['Sales of the last 7 days']?.split('\n') ?? [];
    // A date as players write it, and whole KR as every other price.
    expect(recent[0]).toMatch(/: 7 sold · latest sales on Nov 24: 4 sold at 71 KR on average$/);
    expect(recent[1]).toBe('**Unknown skin 1**: no sales');
    expect(payload.embeds?.[0]?.footer?.text).toBe(
      'Prices are the lowest and highest asks now · sales days are UTC days',
    );
    expect(payload.files?.[0]?.name).toBe(OVERVIEW_CHART_FILE);
  });

  it('draws the chart with game text escaped, and an empty market as a message', async () => {
    const chart = buildMarketOverviewSvg({
      title: 'Most listed',
      bars: [{ label: '<script>&"', onSale: 5, sales: 2 }],
      locale: 'en-US',
      labels: {
        onSale: 'On sale',
        sales: 'sold',
        empty: 'Nothing listed',
        outOfRange: (count: number) => `${count} not drawn`,
      },
    });
    expect(chart.svg).not.toContain('<script>');
    expect(chart.svg).toContain('&lt;script&gt;');
    expect(chart.altText).toContain('5 On sale, 2 sold');
    const empty = buildMarketOverviewSvg({
      title: 'Most listed',
      bars: [],
      locale: 'en-US',
      labels: {
        onSale: 'On sale',
        sales: 'sold',
        empty: 'Nothing listed',
        outOfRange: (count: number) => `${count} not drawn`,
      },
    });
    expect(empty.svg).toContain('Nothing listed');
  });

  it('tells a skin that sold nothing from one whose sales are not known, in the chart and its text', () => {
    const chart = buildMarketOverviewSvg({
      title: 'Most listed',
      bars: [
        { label: 'Sold', onSale: 5, sales: 2 },
        { label: 'Quiet', onSale: 4, sales: 0 },
        { label: 'Unread', onSale: 3 },
      ],
      locale: 'en-US',
      labels: {
        onSale: 'On sale',
        sales: 'sold',
        noSales: 'no sales',
        noData: 'sales not known',
        empty: 'Nothing listed',
        outOfRange: (count: number) => `${count} not drawn`,
      },
    });
    expect(chart.svg).toContain('>no sales<');
    expect(chart.svg).toContain('>sales not known<');
    expect(chart.altText).toContain('Quiet: 4 On sale, no sales');
    expect(chart.altText).toContain('Unread: 3 On sale, sales not known');
    expect(chart.altText).toContain('Sold: 5 On sale, 2 sold');
  });

  it('says one skin, not 1 skins, and that it sold nothing in the chart text', async () => {
    const payload = await renderMarketOverview(en, {
      stats: { rows: [{ skin_index: 4, circulating: 1, on_sale: 1 }], cursor: null },
      sales: new Map([[4, { days: [] }]]),
      skinName: () => 'Solo',
      now: NOW,
    });
    expect(payload.embeds?.[0]?.description).toBe(
      'The most listed skin · on sale: **1** · in circulation: **1**',
    );
    expect(payload.files?.[0]?.description).toContain('Solo: 1 On sale, no sales');
  });
});
