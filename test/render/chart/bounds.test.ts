import { drawnChart } from '../../support/drawn.ts';
import { describe, expect, it } from 'vitest';
import {
  dayFormatter,
  hourFormatter,
  linear,
  niceTicks,
  zeroBasedTicks,
} from '../../../src/render/chart/axis.ts';
import { MAX_TICK_INTERVALS } from '../../../src/render/chart/bounds.ts';
import { buildHistorySvg } from '../../../src/features/history/chart.ts';
import { buildMarketOverviewSvg } from '../../../src/features/market/overview-chart.ts';
import {
  buildPriceHistorySvg,
  renderPriceHistoryChart,
  type PriceHistoryPoint,
} from '../../../src/features/market/price-chart.ts';
import { buildRankedStandingSvg } from '../../../src/features/players/ranked-chart.ts';
import { PNG_SIGNATURE } from '../../support/pixels.ts';

/**
 * One absurd upstream number (issue 18, finding 1): a day of 1e300 KR × 1e9 sales made the price axis span
 * Infinity, `niceTicks` then added ticks until the heap ran out, and Node died with an uncatchable error.
 * Every axis function is bounded whatever it gets, and the charts leave such values out and say so.
 */
const say = (count: number) => `${count} not drawn`;
const END = '2026-11-27';

function day(offset: number): string {
  return new Date(Date.UTC(2026, 10, 27) - offset * 86_400_000).toISOString().slice(0, 10);
}

function history(points: PriceHistoryPoint[]) {
  return {
    title: 'Poisoned',
    points,
    days: 30,
    end: END,
    locale: 'en-US',
    labels: { averagePrice: 'Average price', sales: 'Sales', noSales: 'No sales', outOfRange: say },
  };
}

const honest: PriceHistoryPoint[] = [
  { date: day(3), averagePrice: 120, sales: 4 },
  { date: day(2), averagePrice: 130, sales: 2 },
];

describe('axis functions stay bounded', () => {
  it.each([
    [-1e308, 1e308],
    [1e300, 1e300 * 1e9],
    [-Infinity, Infinity],
    [Number.NaN, Number.NaN],
    [0, Number.MAX_VALUE],
    [1e15, 1e15 + 0.001],
    [5e-324, 1e-323],
  ])('niceTicks(%d, %d) has at most the capped number of finite ticks', (min, max) => {
    const ticks = niceTicks(min, max, 5);
    expect(ticks.values.length).toBeGreaterThanOrEqual(2);
    expect(ticks.values.length).toBeLessThanOrEqual(MAX_TICK_INTERVALS + 1);
    expect(ticks.values.every(Number.isFinite)).toBe(true);
  });

  it('caps the intervals asked for', async () => {
    expect(niceTicks(0, 100, 1e9).values.length).toBeLessThanOrEqual(MAX_TICK_INTERVALS + 1);
    expect(zeroBasedTicks(1e308, 1e9, true).values.length).toBeLessThanOrEqual(MAX_TICK_INTERVALS + 1);
    expect(zeroBasedTicks(Infinity, Number.NaN, false).values.every(Number.isFinite)).toBe(true);
  });

  it('maps onto finite coordinates only', async () => {
    expect(Number.isFinite(linear(-1e308, 1e308, 0, 100)(5))).toBe(true);
    expect(Number.isFinite(linear(0, 1, 0, 100)(1e308))).toBe(true);
    expect(linear(0, 1, 0, 100)(Number.NaN)).toBe(0);
  });

  it('formats a time Intl cannot hold as a dash instead of throwing', async () => {
    expect(dayFormatter('en-US')(1e300)).toBe('–');
    expect(hourFormatter('en-US')(Number.NaN)).toBe('–');
  });
});

describe('the price history chart', () => {
  it('draws a day of 1e300 KR × 1e9 sales as a note, not as an endless axis', async () => {
    const chart = await drawnChart(
      renderPriceHistoryChart(history([...honest, { date: day(1), averagePrice: 1e300, sales: 1e9 }])),
    );
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(chart.altText).toContain('1 not drawn');
  });

  it('leaves prices of ±1e308, NaN and negative counts out and counts them', async () => {
    const { svg, altText } = buildPriceHistorySvg(
      history([
        ...honest,
        { date: day(1), averagePrice: 1e308, sales: 3 },
        { date: day(1), averagePrice: -1e308, sales: 3 },
        { date: day(0), averagePrice: Number.NaN, sales: 3 },
        { date: day(0), averagePrice: 10, sales: -5 },
      ]),
    );
    expect(altText).toContain('4 not drawn');
    expect(svg).toContain('4 not drawn');
    expect(svg).not.toMatch(/NaN|Infinity/);
    // The honest days are still drawn: 120 and 130 KR.
    expect(altText).toContain('120–130');
  });

  it('says nothing when nothing was left out', async () => {
    expect(buildPriceHistorySvg(history(honest)).altText).not.toContain('not drawn');
  });

  it('says so even when nothing is left to draw', async () => {
    const { svg } = buildPriceHistorySvg(history([{ date: day(1), averagePrice: 1e300, sales: 1e9 }]));
    expect(svg).toContain('No sales');
    expect(svg).toContain('1 not drawn');
  });
});

describe('the other charts', () => {
  it('ranked standing: an MMR of ±1e308 is left out and said', async () => {
    const { svg, altText } = buildRankedStandingSvg({
      title: 'Ranked',
      locale: 'en-US',
      now: Date.UTC(2026, 10, 27),
      regions: [
        {
          label: 'Europe',
          mmr: 1e308,
          wins: 1e308,
          losses: 3,
          history: [
            { at: Date.UTC(2026, 10, 20), mmr: -1e308 },
            { at: Date.UTC(2026, 10, 21), mmr: 1500 },
            { at: 1e300, mmr: 1600 },
          ],
        },
      ],
      labels: {
        mmr: 'MMR',
        wins: 'Wins',
        losses: 'Losses',
        none: 'None',
        best: 'best',
        history: 'MMR over time',
        noHistory: 'No history',
        outOfRange: say,
      },
    });
    expect(altText).toContain('4 not drawn');
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it('history: values past 1e12 are left out and said', async () => {
    const to = Date.UTC(2026, 10, 27);
    const { altText } = buildHistorySvg({
      title: 'K/D',
      series: [
        {
          label: 'a',
          points: [
            { at: to - 3_600_000, value: 1 },
            { at: to - 7_200_000, value: 2 },
            { at: to - 10_800_000, value: 1e308 },
            { at: Number.NaN, value: 1 },
          ],
        },
      ],
      from: to - 86_400_000,
      to,
      locale: 'en-US',
      decimals: 2,
      labels: { noData: 'No data', outOfRange: say },
    });
    expect(altText).toContain('2 not drawn');
  });

  it('market overview: counts of 1e308 are left out and said', async () => {
    const { svg, altText } = buildMarketOverviewSvg({
      title: 'Most listed',
      bars: [
        { label: 'a', onSale: 1e308, sales: 1 },
        { label: 'b', onSale: 4, sales: -1e308 },
        { label: 'c', onSale: 3, sales: 2 },
      ],
      locale: 'en-US',
      labels: { onSale: 'on sale', sales: 'sold', empty: 'Nothing', outOfRange: say },
    });
    expect(altText).toContain('2 not drawn');
    expect(svg).not.toMatch(/NaN|Infinity/);
  });
});
