import { describe, expect, it } from 'vitest';
import { measureText } from '../../../src/render/chart/font.ts';
import {
  buildRankedStandingSvg,
  renderRankedStandingChart,
  type RankedStandingChartInput,
} from '../../../src/render/chart/ranked-standing.ts';
import { Colors } from '../../../src/render/chart/theme.ts';
import {
  PNG_SIGNATURE,
  differingPixels,
  pngSize,
  rasterize,
  rasterizeWithoutFonts,
  whole,
  withoutText,
} from './pixels.ts';

const labels = { mmr: 'MMR', wins: 'Wins', losses: 'Losses', none: 'No ranked standing this season' };

function input(overrides: Partial<RankedStandingChartInput> = {}): RankedStandingChartInput {
  return {
    title: 'Sn1per — ranked standing',
    regions: [
      { label: 'Europe', mmr: 2140, wins: 120, losses: 80 },
      { label: 'North America', mmr: 1575, wins: 30, losses: 42 },
      { label: 'Asia', mmr: 980, wins: 6, losses: 0 },
    ],
    locale: 'en-US',
    labels,
    ...overrides,
  };
}

function textContents(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);
}

/** Widths of the MMR bars: rects of the MMR colour inside the plot, below the legend. */
function barWidths(svg: string): number[] {
  const pattern = new RegExp(
    `<rect x="[\\d.]+" y="([\\d.]+)" width="([\\d.]+)"[^>]*fill="${Colors.mmr}"`,
    'g',
  );
  return [...svg.matchAll(pattern)].filter((match) => Number(match[1]) > 90).map((match) => Number(match[2]));
}

describe('renderRankedStandingChart', () => {
  it('returns a 960×480 PNG with alt text naming every region', () => {
    const chart = renderRankedStandingChart(input());
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(chart.png)).toEqual({ width: 960, height: 480 });
    expect(chart.altText).toBe(
      'Sn1per — ranked standing. Europe: MMR 2,140, Wins 120, Losses 80. ' +
        'North America: MMR 1,575, Wins 30, Losses 42. Asia: MMR 980, Wins 6, Losses 0.',
    );
  });

  it('draws one MMR bar per region, longest for the highest MMR, annotated with the record', () => {
    const { svg } = buildRankedStandingSvg(input());
    const widths = barWidths(svg);
    expect(widths).toHaveLength(3);
    expect(widths[0]!).toBeGreaterThan(widths[1]!);
    expect(widths[1]!).toBeGreaterThan(widths[2]!);
    expect(widths[0]! / widths[2]!).toBeCloseTo(2140 / 980, 1);
    const texts = textContents(svg);
    expect(texts).toEqual(expect.arrayContaining(['Europe', '2,140', 'Wins 120 · Losses 80', 'Asia', '980']));
  });

  it('splits the strip under each bar by the share of wins', () => {
    const { svg } = buildRankedStandingSvg(
      input({ regions: [{ label: 'EU', mmr: 1000, wins: 3, losses: 1 }] }),
    );
    const win = /<rect [^>]*width="([\d.]+)"[^>]*fill="#23a55a"\/>/.exec(svg);
    const loss = /<rect [^>]*width="([\d.]+)"[^>]*fill="#f23f43"\/>/.exec(svg);
    expect(Number(win![1]) / Number(loss![1])).toBeCloseTo(3, 1);
  });

  it('renders its text with the shipped font only', () => {
    const { svg } = buildRankedStandingSvg(input({ title: 'Known Ranked Title' }));
    const withTitle = rasterize(svg);
    const noTitle = rasterize(svg.replace(/<text\b[^>]*>Known Ranked Title<\/text>/, ''));
    const band = { left: 0, top: 10, right: 960, bottom: 50 };
    expect(differingPixels(withTitle, noTitle, band)).toBeGreaterThan(300);
    const noFont = rasterizeWithoutFonts(svg);
    expect(differingPixels(noFont, rasterize(withoutText(svg)), whole(noFont))).toBe(0);
  });

  it('escapes player names and labels', () => {
    const { svg } = buildRankedStandingSvg(
      input({
        title: `<script>&"'`,
        regions: [{ label: '<img src=x>&"\'', mmr: 1, wins: 0, losses: 0 }],
        labels: { ...labels, wins: '<W>' },
      }),
    );
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;script&gt;&amp;&quot;&apos;');
    expect(svg).toContain('&lt;img src=x&gt;&amp;&quot;&apos;');
    expect(svg).toContain('&lt;W&gt; 0');
    expect(() => rasterize(svg)).not.toThrow();
  });

  it('ellipsizes long region labels and titles', () => {
    const long = 'South America and the Caribbean (far away servers)';
    const { svg } = buildRankedStandingSvg(
      input({ title: 'T'.repeat(200), regions: [{ label: long, mmr: 1200, wins: 1, losses: 1 }] }),
    );
    const texts = textContents(svg);
    const title = texts[0];
    const region = texts.find((content) => content.startsWith('South'));
    expect(title!.endsWith('…')).toBe(true);
    expect(measureText(title!, 22, 'bold')).toBeLessThanOrEqual(912);
    expect(region!.endsWith('…')).toBe(true);
    expect(long.startsWith(region!.slice(0, -1))).toBe(true);
  });

  it('says there is no standing when there are no regions', () => {
    const chart = renderRankedStandingChart(input({ regions: [] }));
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(chart.altText).toBe('Sn1per — ranked standing. No ranked standing this season.');
    const { svg } = buildRankedStandingSvg(input({ regions: [] }));
    expect(textContents(svg)).toEqual(['Sn1per — ranked standing', 'No ranked standing this season']);
    expect(barWidths(svg)).toEqual([]);
  });

  it('handles zero, negative and non-finite numbers', () => {
    const chart = buildRankedStandingSvg(
      input({
        regions: [
          { label: 'A', mmr: 0, wins: 0, losses: 0 },
          { label: 'B', mmr: -50, wins: Number.NaN, losses: Infinity },
        ],
      }),
    );
    expect(chart.svg).not.toMatch(/NaN|Infinity/);
    expect(chart.altText).toContain('B: MMR -50, Wins 0, Losses 0');
    expect(() => rasterize(chart.svg)).not.toThrow();
  });

  it('fits many regions', () => {
    const regions = Array.from({ length: 12 }, (_, i) => ({
      label: `R${i}`,
      mmr: 100 * i,
      wins: i,
      losses: 1,
    }));
    const { svg } = buildRankedStandingSvg(input({ regions }));
    expect(barWidths(svg)).toHaveLength(12);
  });

  it('formats numbers in the locale', () => {
    const { svg, altText } = buildRankedStandingSvg(
      input({ locale: 'de-DE', labels: { mmr: 'MMR', wins: 'Siege', losses: 'Niederlagen', none: '-' } }),
    );
    expect(textContents(svg)).toContain('2.140');
    expect(altText).toContain('Europe: MMR 2.140, Siege 120, Niederlagen 80');
  });

  it('is deterministic', () => {
    expect(renderRankedStandingChart(input()).png.equals(renderRankedStandingChart(input()).png)).toBe(true);
  });
});
