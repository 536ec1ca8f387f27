import { drawnChart } from '../../support/drawn.ts';
import { describe, expect, it } from 'vitest';
import { measureText } from '../../../src/render/chart/font.ts';
import {
  buildRankedStandingSvg,
  renderRankedStandingChart,
} from '../../../src/features/players/ranked-chart.ts';
import type { RankedStandingChartInput } from '../../../src/features/players/ranked-data.ts';
import { Colors } from '../../../src/render/chart/theme.ts';
import {
  PNG_SIGNATURE,
  differingPixels,
  pngSize,
  rasterize,
  rasterizeWithoutFonts,
  whole,
  withoutText,
} from '../../support/pixels.ts';

const labels = {
  mmr: 'MMR',
  wins: 'Wins',
  losses: 'Losses',
  none: 'No ranked standing this season',
  best: 'best',
  history: 'MMR over time',
  noHistory: 'MMR over time shows once the bot has seen this player more than once.',
  outOfRange: (count: number) => `${count} not drawn`,
};
const NOW = Date.UTC(2026, 10, 24);
const DAY = 86_400_000;

function input(overrides: Partial<RankedStandingChartInput> = {}): RankedStandingChartInput {
  return {
    title: 'Sn1per — ranked standing',
    regions: [
      { label: 'Europe', mmr: 2140, wins: 120, losses: 80 },
      { label: 'North America', mmr: 1575, wins: 30, losses: 42 },
      { label: 'Asia', mmr: 980, wins: 6, losses: 0 },
    ],
    locale: 'en-US',
    now: NOW,
    labels,
    ...overrides,
  };
}

/** Europe read daily for ten days, climbing to a best of 2,300 and back down to today's 2,140. */
const europeHistory = Array.from({ length: 10 }, (_, i) => ({
  at: NOW - (10 - i) * DAY,
  mmr: i === 7 ? 2300 : 2000 + i * 10,
}));

function textContents(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);
}

/** Widths of the MMR-against-best bars: the rects of a region's colour in the standings column. */
function barWidths(svg: string, color: string = Colors.mmr): number[] {
  const pattern = new RegExp(`<rect x="24" y="([\\d.]+)" width="([\\d.]+)"[^>]*fill="${color}"`, 'g');
  return [...svg.matchAll(pattern)].filter((match) => Number(match[1]) > 90).map((match) => Number(match[2]));
}

/** The first region's bar track (the best) and fill (the MMR now). */
function trackAndFill(svg: string): [number, number] {
  const track = /<rect x="24" y="[\d.]+" width="([\d.]+)"[^>]*fill="#3f4147"/.exec(svg);
  return [Number(track![1]), barWidths(svg)[0]!];
}

describe('renderRankedStandingChart', () => {
  it('returns a 960×480 PNG with alt text naming every region, its best and the line over time', async () => {
    const chart = await drawnChart(
      renderRankedStandingChart(
        input({
          regions: [
            { label: 'Europe', mmr: 2140, wins: 120, losses: 80, history: europeHistory },
            { label: 'Asia', mmr: 980, wins: 6, losses: 0 },
          ],
        }),
      ),
    );
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(chart.png)).toEqual({ width: 960, height: 480 });
    expect(chart.altText).toBe(
      'Sn1per — ranked standing. Europe: MMR 2,140 (best 2,300), Wins 120, Losses 80. ' +
        'Asia: MMR 980, Wins 6, Losses 0. ' +
        'MMR over time (Nov 14 – Nov 24): Europe 2,000 → 2,140, Asia 980.',
    );
  });

  it('writes each region’s MMR, its best and its record', async () => {
    const { svg } = buildRankedStandingSvg(
      input({ regions: [{ ...input().regions[0]!, history: europeHistory }] }),
    );
    expect(textContents(svg)).toEqual(
      expect.arrayContaining(['Europe', '2,140 MMR', 'best 2,300', 'Wins 120 · Losses 80']),
    );
  });

  it('draws the MMR against the best seen: the fill is the share of the best', async () => {
    const { svg } = buildRankedStandingSvg(
      input({
        regions: [{ label: 'EU', mmr: 1500, wins: 1, losses: 1, history: [{ at: NOW - DAY, mmr: 2000 }] }],
      }),
    );
    const [track, fill] = trackAndFill(svg);
    expect(fill / track).toBeCloseTo(0.75, 2);
    // At its best, the bar is full.
    const atBest = buildRankedStandingSvg(
      input({
        regions: [{ label: 'EU', mmr: 2000, wins: 1, losses: 1, history: [{ at: NOW - DAY, mmr: 1800 }] }],
      }),
    );
    const [bestTrack, bestFill] = trackAndFill(atBest.svg);
    expect(bestFill).toBeCloseTo(bestTrack, 5);
    // With no earlier reading there is no best to measure against: no bar, no "best".
    const alone = buildRankedStandingSvg(
      input({ regions: [{ label: 'EU', mmr: 2000, wins: 1, losses: 1 }] }),
    );
    expect(barWidths(alone.svg)).toEqual([]);
    expect(textContents(alone.svg).join(' ')).not.toContain('best');
  });

  it('draws one line over time per region with history, through every reading and ending on now', async () => {
    const { svg } = buildRankedStandingSvg(
      input({
        regions: [
          { label: 'Europe', mmr: 2140, wins: 1, losses: 1, history: europeHistory },
          { label: 'Asia', mmr: 980, wins: 1, losses: 1, history: [{ at: NOW - 2 * DAY, mmr: 900 }] },
          { label: 'North America', mmr: 1500, wins: 1, losses: 1 },
        ],
      }),
    );
    const paths = [...svg.matchAll(/<path d="([^"]+)"[^>]*stroke="([^"]+)"/g)];
    expect(paths.map((match) => match[2])).toEqual([Colors.mmr, Colors.rival]);
    expect(paths[0]![1]!.split(/[ML]/).filter(Boolean)).toHaveLength(11);
    expect(paths[1]![1]!.split(/[ML]/).filter(Boolean)).toHaveLength(2);
    // The highest reading (2,300) is the highest point of the plot: the smallest y of the Europe line.
    const ys = paths[0]![1]!
      .split(/[ML]/)
      .filter(Boolean)
      .map((point) => Number(point.trim().split(' ')[1]));
    expect(Math.min(...ys)).toBe(ys[7]);
    expect(textContents(svg)).toEqual(expect.arrayContaining(['MMR over time', 'Europe', 'Asia']));
    expect(textContents(svg)).not.toContain(labels.noHistory);
  });

  it('draws a single reading as a point with its value, never a line, and says when the line will show', async () => {
    const { svg, altText } = buildRankedStandingSvg(input());
    expect(svg).not.toContain('<path');
    expect(svg).not.toContain('<polyline');
    const texts = textContents(svg);
    expect(texts).toEqual(expect.arrayContaining(['2,140', '1,575', '980', 'Nov 24']));
    expect(texts.join(' ')).toContain('MMR over time shows once the bot has seen');
    expect(texts.join(' ')).not.toContain('best');
    // One dot per region, in the region's colour.
    expect(svg.match(new RegExp(`<circle [^>]*r="6" fill="${Colors.mmr}"`, 'g'))).toHaveLength(1);
    expect(svg.match(new RegExp(`<circle [^>]*r="6" fill="${Colors.rival}"`, 'g'))).toHaveLength(1);
    expect(altText).toContain('MMR over time (Nov 24): Europe 2,140, North America 1,575, Asia 980.');
    expect(altText.endsWith(labels.noHistory)).toBe(true);
    // The snapshot of the very read the chart shows (a moment ago, the same MMR) is no earlier reading:
    // no flat line from today to today, and no "best" equal to the MMR.
    const sameRead = buildRankedStandingSvg(
      input({
        regions: [{ label: 'EU', mmr: 1220, wins: 7, losses: 3, history: [{ at: NOW - 5, mmr: 1220 }] }],
      }),
    );
    expect(sameRead.svg).not.toContain('<path');
    expect(textContents(sameRead.svg)).toContain('1,220');
    expect(textContents(sameRead.svg).join(' ')).not.toContain('best 1,220');
    // Readings at or after now, or not numbers, are no history.
    const odd = buildRankedStandingSvg(
      input({
        regions: [
          {
            label: 'EU',
            mmr: 1,
            wins: 0,
            losses: 0,
            history: [
              { at: NOW, mmr: 5 },
              { at: NOW + DAY, mmr: 5 },
              { at: Number.NaN, mmr: 5 },
            ],
          },
        ],
      }),
    );
    expect(odd.svg).not.toContain('<path');
    expect(() => rasterize(odd.svg)).not.toThrow();
  });

  it('splits the strip under each bar by the share of wins', async () => {
    const { svg } = buildRankedStandingSvg(
      input({ regions: [{ label: 'EU', mmr: 1000, wins: 3, losses: 1 }] }),
    );
    const win = /<rect [^>]*width="([\d.]+)"[^>]*fill="#23a55a"\/>/.exec(svg);
    const loss = /<rect [^>]*width="([\d.]+)"[^>]*fill="#f23f43"\/>/.exec(svg);
    expect(Number(win![1]) / Number(loss![1])).toBeCloseTo(3, 1);
  });

  it('renders its text with the shipped font only', async () => {
    const { svg } = buildRankedStandingSvg(input({ title: 'Known Ranked Title' }));
    const withTitle = rasterize(svg);
    const noTitle = rasterize(svg.replace(/<text\b[^>]*>Known Ranked Title<\/text>/, ''));
    const band = { left: 0, top: 10, right: 960, bottom: 50 };
    expect(differingPixels(withTitle, noTitle, band)).toBeGreaterThan(300);
    const noFont = rasterizeWithoutFonts(svg);
    expect(differingPixels(noFont, rasterize(withoutText(svg)), whole(noFont))).toBe(0);
  });

  it('escapes player names and labels', async () => {
    const { svg } = buildRankedStandingSvg(
      input({
        title: `<script>&"'`,
        regions: [
          { label: '<img src=x>&"\'', mmr: 1, wins: 0, losses: 0, history: [{ at: NOW - DAY, mmr: 0 }] },
        ],
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

  it('ellipsizes long region labels and titles', async () => {
    const long = 'South America and the Caribbean (far away servers, very far away indeed)';
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

  it('draws a name in the title in its own fonts, whatever comes before it', async () => {
    const { svg } = buildRankedStandingSvg(input({ title: 'Ranked standing of Sniffles 狙击手' }));
    expect(svg).toMatch(/font-family="DejaVu Sans Core"[^>]*>Ranked standing of Sniffles <\/text>/);
    expect(svg).toMatch(/font-family="Noto Sans SC"[^>]*>狙击手<\/text>/);
  });

  it('draws a square for a character no shipped font has', async () => {
    const { svg } = buildRankedStandingSvg(
      input({ regions: [{ label: 'ไทย', mmr: 1, wins: 0, losses: 0 }] }),
    );
    expect(textContents(svg)).toContain('\u25A1\u25A1\u25A1');
  });

  it('says there is no standing when there are no regions', async () => {
    const chart = await drawnChart(renderRankedStandingChart(input({ regions: [] })));
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(chart.altText).toBe('Sn1per — ranked standing. No ranked standing this season.');
    const { svg } = buildRankedStandingSvg(input({ regions: [] }));
    expect(textContents(svg)).toEqual(['Sn1per — ranked standing', 'No ranked standing this season']);
    expect(barWidths(svg)).toEqual([]);
  });

  it('handles zero, negative and non-finite numbers', async () => {
    const chart = buildRankedStandingSvg(
      input({
        regions: [
          { label: 'A', mmr: 0, wins: 0, losses: 0, history: [{ at: NOW - DAY, mmr: Infinity }] },
          {
            label: 'B',
            mmr: -50,
            wins: Number.NaN,
            losses: Infinity,
            history: [{ at: NOW - DAY, mmr: -80 }],
          },
        ],
      }),
    );
    expect(chart.svg).not.toMatch(/NaN|Infinity/);
    expect(chart.altText).toContain('B: MMR -50 (best -50), Wins 0, Losses 0');
    expect(() => rasterize(chart.svg)).not.toThrow();
  });

  it('keeps its limits: six regions, a bounded number of readings', async () => {
    const regions = Array.from({ length: 12 }, (_, i) => ({
      label: `R${i}`,
      mmr: 100 * i,
      wins: i,
      losses: 1,
      history: Array.from({ length: 5_000 }, (_, j) => ({ at: NOW - (j + 1) * 60_000, mmr: j })),
    }));
    const { svg } = buildRankedStandingSvg(input({ regions }));
    expect(new Set(textContents(svg).filter((content) => /^R\d+$/.test(content))).size).toBe(6);
    const paths = [...svg.matchAll(/<path d="([^"]+)"/g)];
    expect(paths).toHaveLength(6);
    for (const path of paths) expect(path[1]!.split(/[ML]/).filter(Boolean).length).toBeLessThanOrEqual(400);
    expect(svg.length).toBeLessThan(200_000);
  });

  it('formats numbers in the locale', async () => {
    const { svg, altText } = buildRankedStandingSvg(
      input({
        locale: 'de-DE',
        labels: { ...labels, wins: 'Siege', losses: 'Niederlagen', best: 'Bestwert' },
      }),
    );
    expect(textContents(svg)).toContain('2.140 MMR');
    expect(altText).toContain('Europe: MMR 2.140, Siege 120, Niederlagen 80');
  });

  it('is deterministic', async () => {
    const withHistory = input({
      regions: [{ label: 'EU', mmr: 2140, wins: 1, losses: 0, history: europeHistory }],
    });
    expect(
      (await drawnChart(renderRankedStandingChart(withHistory))).png.equals(
        (await drawnChart(renderRankedStandingChart(withHistory))).png,
      ),
    ).toBe(true);
  });
});
