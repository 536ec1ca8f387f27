import { drawnChart } from '../../support/drawn.ts';
import { describe, expect, it } from 'vitest';
import { measureText } from '../../../src/render/chart/font.ts';
import {
  buildPriceHistorySvg,
  renderPriceHistoryChart,
  type PriceHistoryChartInput,
  type PriceHistoryPoint,
} from '../../../src/features/market/price-chart.ts';
import { element, rect, svgDocument } from '../../../src/render/chart/svg.ts';
import { Colors } from '../../../src/render/chart/theme.ts';
import { codePointLength } from '../../../src/render/text.ts';
import {
  PNG_SIGNATURE,
  differingPixels,
  pngSize,
  rasterize,
  rasterizeWithoutFonts,
  whole,
  withoutText,
  type Raster,
} from '../../support/pixels.ts';

const labels = {
  averagePrice: 'Average price',
  sales: 'Sales',
  noSales: 'No sales in this period',
  outOfRange: (count: number) => `${count} not drawn`,
};
const TITLE_BAND = { left: 0, top: 10, right: 960, bottom: 50 };

function day(offset: number, from = '2024-01-01'): string {
  return new Date(Date.parse(`${from}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

function series(days: number, skip: (i: number) => boolean = () => false): PriceHistoryPoint[] {
  const points: PriceHistoryPoint[] = [];
  for (let i = 0; i < days; i++) {
    if (skip(i)) continue;
    points.push({ date: day(i), averagePrice: 1000 + 300 * Math.sin(i / 7) + i, sales: 1 + ((i * 7) % 19) });
  }
  return points;
}

function input(overrides: Partial<PriceHistoryChartInput> = {}): PriceHistoryChartInput {
  return { title: 'AK-47 Redline', points: series(30), days: 30, locale: 'en-US', labels, ...overrides };
}

/** The sales bars: the rects of the group drawn without anti-aliasing. */
function bars(svg: string): number {
  const group = /<g shape-rendering="crispEdges">(.*?)<\/g>/.exec(svg);
  return group === null ? 0 : (group[1]!.match(/<rect /g) ?? []).length;
}

/** The price line: the path stroked in gold. */
function lineVertices(svg: string): number {
  const match = new RegExp(`<path d="([^"]*)" fill="none" stroke="${Colors.price}"`).exec(svg);
  return match === null ? 0 : (match[1]!.match(/[ML]/g) ?? []).length;
}

/** The dots of traded days: the circles (each closed by `z`) of the path filled in gold. */
function dots(svg: string): number {
  const match = new RegExp(`<path d="([^"]*)" fill="${Colors.price}"`).exec(svg);
  return match === null ? 0 : (match[1]!.match(/z/g) ?? []).length;
}

function textContents(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);
}

/** Pixels where some colour channel of `a` and `b` differs by more than `by`. */
function pixelsApart(a: Raster, b: Raster, by: number): number {
  let count = 0;
  for (let i = 0; i < a.pixels.length; i += 4) {
    for (let channel = i; channel < i + 3; channel++) {
      if (Math.abs(a.pixels[channel]! - b.pixels[channel]!) > by) {
        count += 1;
        break;
      }
    }
  }
  return count;
}

describe('renderPriceHistoryChart', () => {
  it('returns a 960×480 PNG with alt text', async () => {
    const chart = await drawnChart(renderPriceHistoryChart(input()));
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(chart.png)).toEqual({ width: 960, height: 480 });
    expect({ width: chart.width, height: chart.height }).toEqual({ width: 960, height: 480 });
    expect(chart.altText).toMatch(
      /^AK-47 Redline\. Average price: [\d,.]+–[\d,.]+ \(Jan 30: [\d,.]+\)\. Sales: [\d,]+\. Jan 1 – Jan 30\.$/,
    );
  });

  it('renders the title text, with the shipped font only', async () => {
    const { svg } = buildPriceHistorySvg(input({ title: 'Known Title 123' }));
    expect(svg).toContain('>Known Title 123</text>');
    const withTitle = rasterize(svg);
    const noTitle = rasterize(svg.replace(/<text\b[^>]*>Known Title 123<\/text>/, ''));
    expect(differingPixels(withTitle, noTitle, TITLE_BAND)).toBeGreaterThan(300);
    // Only the title differs: everything below its band is the same picture.
    expect(differingPixels(withTitle, noTitle, { left: 0, top: 50, right: 960, bottom: 480 })).toBe(0);

    const noFont = rasterizeWithoutFonts(svg);
    expect(differingPixels(noFont, noTitle, TITLE_BAND)).toBe(0);
    expect(differingPixels(noFont, rasterize(withoutText(svg)), whole(noFont))).toBe(0);
  });

  it('escapes markup in every string it places', async () => {
    const nasty = `<script>alert("x")</script> & 'quotes'`;
    const { svg, altText } = buildPriceHistorySvg(
      input({
        title: nasty,
        labels: { ...labels, averagePrice: '<b>price</b>', sales: 'a & b', noSales: '<none>' },
      }),
    );
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quotes&apos;');
    expect(svg).toContain('&lt;b&gt;price&lt;/b&gt;');
    expect(svg).toContain('a &amp; b');
    expect(altText.startsWith(`${nasty}.`)).toBe(true);
    expect(() => rasterize(svg)).not.toThrow();
  });

  it('survives characters XML forbids', async () => {
    const chart = await drawnChart(
      renderPriceHistoryChart(input({ title: 'bad\u0000\u0007\uFFFF\uD800name' })),
    );
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(buildPriceHistorySvg(input({ title: 'bad\u0000\u0007name' })).svg).toContain('>badname</text>');
  });

  it('ellipsizes a long title to the width of the image', async () => {
    const long = 'Dragon Lore Souvenir Factory New StatTrak '.repeat(5);
    const { svg } = buildPriceHistorySvg(input({ title: long }));
    const shown = textContents(svg)[0]!;
    expect(shown.endsWith('…')).toBe(true);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
    expect(measureText(shown, 22, 'bold')).toBeLessThanOrEqual(960 - 48);
    const raster = rasterize(svg);
    const background = rasterize(withoutText(svg));
    expect(differingPixels(raster, background, { left: 930, top: 0, right: 960, bottom: 60 })).toBe(0);
  });

  it('says there were no sales when the history is empty', async () => {
    const chart = await drawnChart(renderPriceHistoryChart(input({ points: [] })));
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(chart.altText).toBe('AK-47 Redline. No sales in this period.');
    const { svg } = buildPriceHistorySvg(input({ points: [] }));
    expect(textContents(svg)).toEqual(['AK-47 Redline', 'No sales in this period']);
    expect(bars(svg)).toBe(0);
    const raster = rasterize(svg);
    expect(
      differingPixels(raster, rasterize(withoutText(svg)), { left: 300, top: 240, right: 660, bottom: 290 }),
    ).toBeGreaterThan(100);
  });

  it('says there were no sales when every point is outside the window or malformed', async () => {
    const points = [
      { date: '2023-01-01', averagePrice: 5, sales: 1 },
      { date: 'yesterday', averagePrice: 5, sales: 1 },
      { date: '2024-02-30', averagePrice: 5, sales: 1 },
    ];
    const { svg, altText } = buildPriceHistorySvg(input({ points, end: '2024-03-01', days: 7 }));
    expect(altText).toBe('AK-47 Redline. No sales in this period.');
    expect(bars(svg)).toBe(0);
  });

  it('draws 120 days of data: a bar and a dot per day, one line through them', async () => {
    const chart = buildPriceHistorySvg(input({ points: series(120), days: 120 }));
    expect(bars(chart.svg)).toBe(120);
    expect(dots(chart.svg)).toBe(120);
    expect(lineVertices(chart.svg)).toBe(120);
    const png = await drawnChart(renderPriceHistoryChart(input({ points: series(120), days: 120 })));
    expect(pngSize(png.png)).toEqual({ width: 960, height: 480 });
    expect(png.altText).toContain('Jan 1 – Apr 29');
  });

  it('draws its bars on whole pixels without anti-aliasing: two colours along a row, nothing blended', () => {
    const { svg } = buildPriceHistorySvg(input({ points: series(120), days: 120 }));
    const group = /<g shape-rendering="crispEdges">(.*?)<\/g>/.exec(svg)![1]!;
    const barRects = [...group.matchAll(/<rect x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"/g)];
    expect(barRects).toHaveLength(120);
    for (const match of barRects)
      for (const value of match.slice(1)) expect(Number.isInteger(Number(value))).toBe(true);
    const bars = rasterize(withoutText(svg).replace(/<(circle|path|line)\b[^>]*\/>/g, ''));
    // A row just above the axis, inside the plot (its rounded corners are smoothed, as they should be).
    const row = 436 - 6;
    const colours = new Set<number>();
    for (let x = 100; x < 880; x++) colours.add(bars.pixels.readUInt32BE((row * bars.width + x) * 4));
    expect(colours).toEqual(new Set([0x313338ff, 0x5580d4ff]));
  });

  it('rings each dot in the plot colour, drawing what a stroked circle a day drew', () => {
    const { svg } = buildPriceHistorySvg(input({ points: series(120), days: 120 }));
    const gold = new RegExp(`<path d="([^"]*)" fill="${Colors.price}"/>`).exec(svg)![1]!;
    const centres = [...gold.matchAll(/M([\d.]+) ([\d.]+)a([\d.]+)/g)].map(
      (match) => [Number(match[1]) + Number(match[3]), Number(match[2])] as const,
    );
    expect(centres).toHaveLength(120);
    const onPlot = (parts: string[]) =>
      rasterize(svgDocument(960, 480, [rect(0, 0, 960, 480, Colors.plot), ...parts]));
    const rings = new RegExp(`<path d="[^"]*" fill="(${Colors.plot}|${Colors.price})"/>`, 'g');
    const drawn = onPlot([...svg.matchAll(rings)].map((match) => match[0]));
    const stroked = onPlot(
      centres.map(([cx, cy]) =>
        element('circle', { cx, cy, r: 2.5, fill: Colors.price, stroke: Colors.plot, 'stroke-width': 1 }),
      ),
    );
    // Smoothed edges differ by a shade (the stroke's ring is smoothed on both sides); nothing more.
    expect(pixelsApart(drawn, stroked, 48)).toBe(0);
    expect(pixelsApart(drawn, onPlot([]), 48)).toBeGreaterThan(120 * 10);
  });

  it('gives days without sales no bar and bridges the line across them', async () => {
    const points = series(30, (i) => i % 3 === 1);
    const { svg } = buildPriceHistorySvg(input({ points }));
    expect(points).toHaveLength(20);
    expect(bars(svg)).toBe(20);
    expect(dots(svg)).toBe(20);
    expect(lineVertices(svg)).toBe(20);
  });

  it('spans the last `days` days up to `end`, leaving older points out', async () => {
    const { svg, altText } = buildPriceHistorySvg(input({ points: series(60), days: 14, end: '2024-02-20' }));
    // Points run to Feb 29 (day 59); the window is Feb 7..Feb 20.
    expect(bars(svg)).toBe(14);
    expect(altText).toContain('Feb 7 – Feb 20');
    expect(textContents(svg)).toContain('Feb 20');
  });

  it('ends the window on the latest point when no end is given', async () => {
    const { altText } = buildPriceHistorySvg(input({ points: series(10), days: 30 }));
    expect(altText).toContain('Dec 12 – Jan 10');
  });

  it('merges points of the same day, weighting the price by sales', async () => {
    const points = [
      { date: '2024-01-05', averagePrice: 100, sales: 1 },
      { date: '2024-01-05', averagePrice: 200, sales: 3 },
    ];
    const { svg, altText } = buildPriceHistorySvg(input({ points, days: 7 }));
    expect(bars(svg)).toBe(1);
    expect(altText).toContain('Average price: 175 (Jan 5: 175)');
    expect(altText).toContain('Sales: 4.');
  });

  it('draws a single day as a dot without a line', async () => {
    const { svg } = buildPriceHistorySvg(
      input({ points: [{ date: '2024-01-05', averagePrice: 10, sales: 2 }] }),
    );
    expect(dots(svg)).toBe(1);
    expect(lineVertices(svg)).toBe(0);
    expect(bars(svg)).toBe(1);
  });

  it('formats ticks and dates in the locale, compact when large', async () => {
    const big = series(30).map((point) => ({ ...point, averagePrice: point.averagePrice * 100 }));
    const english = textContents(buildPriceHistorySvg(input({ points: big })).svg);
    expect(english.some((label) => /^\d+(\.\d)?K$/.test(label))).toBe(true);
    const german = buildPriceHistorySvg(input({ points: series(30), locale: 'de-DE' }));
    const germanTexts = textContents(german.svg);
    expect(germanTexts.some((label) => /^\d\.\d{3}$/.test(label))).toBe(true);
    expect(germanTexts.some((label) => /^\d+\. Jan\.$/.test(label))).toBe(true);
    // A Japanese date is drawn in runs, the digits in the chart font and the kanji in Noto Sans SC.
    const japanese = textContents(buildPriceHistorySvg(input({ locale: 'ja' })).svg).join('|');
    expect(japanese).toMatch(/\|1\|月\|\d+\|日\|/);
  });

  it('falls back to English for a malformed locale', async () => {
    const { altText } = buildPriceHistorySvg(input({ locale: 'not a locale!' }));
    expect(altText).toContain('Jan 1 – Jan 30');
  });

  it('colours the price gold and the sales blue', async () => {
    const { svg } = buildPriceHistorySvg(input());
    expect(svg).toContain(`stroke="${Colors.price}"`);
    expect(svg).toContain(`fill="${Colors.sales}"`);
    expect(svg).toContain(`fill="${Colors.background}"`);
  });

  it('keeps alt text within the attachment description limit', async () => {
    const { altText } = buildPriceHistorySvg(input({ title: 'x'.repeat(5000) }));
    expect(codePointLength(altText)).toBeLessThanOrEqual(1024);
  });

  it('is deterministic', async () => {
    const a = await drawnChart(renderPriceHistoryChart(input({ points: series(120), days: 120 })));
    const b = await drawnChart(renderPriceHistoryChart(input({ points: series(120), days: 120 })));
    expect(a.png.equals(b.png)).toBe(true);
    expect(a.altText).toBe(b.altText);
  });
});
