import { Resvg } from '@resvg/resvg-js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { niceTicks, valueFormatter, zeroBasedTicks } from '../../../src/render/chart/axis.ts';
import { MAX_TICK_INTERVALS } from '../../../src/render/chart/bounds.ts';
import { buildProfileCardSvg } from '../../../src/features/players/card.ts';
import { buildHistorySvg } from '../../../src/features/history/chart.ts';
import { buildMarketOverviewSvg } from '../../../src/features/market/overview-chart.ts';
import { buildPriceHistorySvg } from '../../../src/features/market/price-chart.ts';
import { buildRankedStandingSvg } from '../../../src/features/players/ranked-chart.ts';
import type { ChartSvg } from '../../../src/render/chart/png.ts';
import { MAX_LIST_ITEMS } from '../../../src/api/schemas/tolerant.ts';

/**
 * Every chart builder on arbitrary numbers: NaN, ±Infinity, ±1e308, -0, subnormals, empty arrays and
 * arrays as long as a reply's list may be. Each run must finish and give an SVG resvg accepts, with no
 * NaN or Infinity in its coordinates. The work is bounded by the input: at most `RUNS` inputs per
 * builder, each of at most MAX_LIST_ITEMS numbers; no assertion on wall-clock time.
 */
const RUNS = 40;
const say = (count: number) => `${count} not drawn`;

/** Numbers with the edges over-represented: what a hostile or broken upstream sends. */
const anyNumber = fc.oneof(
  fc.constantFrom(
    Number.NaN,
    Infinity,
    -Infinity,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    -0,
    0,
    5e-324,
    1e300,
    1e12,
    1e12 + 1,
    -1,
  ),
  fc.double(),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
);

/** Arrays of any length up to what a reply's list keeps; mostly short, sometimes the whole length. */
function anyArray<T>(item: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(item, { maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(item, fc.integer({ min: 0, max: MAX_LIST_ITEMS }))
        .map(([value, length]) => Array.from({ length }, () => value)),
    },
  );
}

const NOW = Date.UTC(2026, 10, 27);
const DAY = 86_400_000;

/** Parses the SVG as the renderer would (fonts aside): a malformed document throws here. */
function expectDrawable(chart: ChartSvg): void {
  expect(chart.svg).not.toMatch(/="[^"]*(NaN|Infinity)/);
  expect(() => new Resvg(chart.svg, { font: { loadSystemFonts: false }, logLevel: 'off' })).not.toThrow();
}

describe('axis functions on any numbers', () => {
  it('niceTicks and zeroBasedTicks give at most the capped number of finite ticks', () => {
    fc.assert(
      fc.property(anyNumber, anyNumber, anyNumber, (a, b, target) => {
        for (const ticks of [niceTicks(a, b, target), zeroBasedTicks(a, target, b > 0)]) {
          expect(ticks.values.length).toBeLessThanOrEqual(MAX_TICK_INTERVALS + 1);
          expect(ticks.values.every(Number.isFinite)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('chart builders on any numbers', () => {
  it('price history', () => {
    fc.assert(
      fc.property(
        anyArray(fc.tuple(fc.integer({ min: -5, max: 800 }), anyNumber, anyNumber)),
        anyNumber,
        (points, days) => {
          expectDrawable(
            buildPriceHistorySvg({
              title: 'Skin',
              points: points.map(([offset, averagePrice, sales]) => ({
                date: new Date(NOW - offset * DAY).toISOString().slice(0, 10),
                averagePrice,
                sales,
              })),
              days,
              end: '2026-11-27',
              locale: 'en-US',
              labels: { averagePrice: 'Price', sales: 'Sales', noSales: 'None', outOfRange: say },
            }),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('ranked standing', () => {
    const region = fc.record({
      label: fc.string({ maxLength: 20 }),
      mmr: anyNumber,
      wins: anyNumber,
      losses: anyNumber,
      history: anyArray(
        fc.record({ at: fc.oneof(anyNumber, fc.integer({ min: 0, max: NOW })), mmr: anyNumber }),
      ),
    });
    fc.assert(
      fc.property(fc.array(region, { maxLength: 8 }), anyNumber, (regions, now) => {
        expectDrawable(
          buildRankedStandingSvg({
            title: 'Ranked',
            regions,
            locale: 'en-US',
            now: Number.isFinite(now) && now > 0 ? now : NOW,
            labels: {
              mmr: 'MMR',
              wins: 'W',
              losses: 'L',
              none: 'None',
              best: 'best',
              history: 'MMR over time',
              noHistory: 'No history',
              outOfRange: say,
            },
          }),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('history and compare', () => {
    const series = fc.record({
      label: fc.string({ maxLength: 20 }),
      points: anyArray(
        fc.record({
          at: fc.oneof(anyNumber, fc.integer({ min: NOW - 40 * DAY, max: NOW })),
          value: anyNumber,
        }),
      ),
    });
    fc.assert(
      fc.property(
        fc.array(series, { maxLength: 3 }),
        anyNumber,
        anyNumber,
        anyNumber,
        (all, from, to, decimals) => {
          expectDrawable(
            buildHistorySvg({
              title: 'K/D',
              series: all,
              from,
              to,
              locale: 'en-US',
              decimals,
              labels: { noData: 'No data', outOfRange: say },
            }),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('market overview', () => {
    const bar = fc.record({
      label: fc.string({ maxLength: 20 }),
      onSale: anyNumber,
      sales: fc.option(anyNumber, { nil: undefined }),
    });
    fc.assert(
      fc.property(anyArray(bar), (bars) => {
        expectDrawable(
          buildMarketOverviewSvg({
            title: 'Most listed',
            bars,
            locale: 'en-US',
            labels: { onSale: 'on sale', sales: 'sold', empty: 'Nothing', outOfRange: say },
          }),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('profile card (its numbers come formatted)', () => {
    const format = valueFormatter('en-US');
    fc.assert(
      fc.property(
        fc.array(anyNumber, { maxLength: 10 }),
        fc.array(anyNumber, { maxLength: 6 }),
        (stats, mmrs) => {
          expectDrawable(
            buildProfileCardSvg({
              name: 'Player',
              clan: 'CLAN',
              level: `Level ${format(stats[0] ?? 0)}`,
              badges: [],
              stats: stats.map((value, i) => ({ label: `stat ${i}`, value: format(value) })),
              ranked: {
                title: 'Ranked',
                regions: mmrs.map((value, i) => ({ label: `region ${i}`, value: `${format(value)} MMR` })),
                none: 'None',
              },
            }),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
