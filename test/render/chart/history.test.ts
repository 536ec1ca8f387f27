import { drawnChart } from '../../support/drawn.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hourFormatter } from '../../../src/render/chart/axis.ts';
import { measureText } from '../../../src/render/chart/font.ts';
import {
  buildHistorySvg,
  renderHistoryChart,
  type HistoryChartInput,
  type HistoryPoint,
} from '../../../src/features/history/chart.ts';
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
} from '../../support/pixels.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const TO = Date.UTC(2024, 2, 31, 12);
const FROM = TO - 30 * DAY;
const TITLE_BAND = { left: 0, top: 10, right: 960, bottom: 50 };
const LEGEND_BAND = { left: 0, top: 52, right: 960, bottom: 80 };
const TIME_LABEL_Y = 480 - 44 + 22;

/** `count` readings evenly over [from, to], a K/D wandering about `base`. */
function readings(count: number, base = 1.4, from = FROM, to = TO): HistoryPoint[] {
  const step = count > 1 ? (to - from) / (count - 1) : 0;
  return Array.from({ length: count }, (_, i) => ({
    at: from + i * step,
    value: base + 0.1 * Math.sin(i / 3),
  }));
}

function input(overrides: Partial<HistoryChartInput> = {}): HistoryChartInput {
  return {
    title: 'K/D — Sn1per, 30 days',
    series: [{ label: 'Sn1per', points: readings(30) }],
    from: FROM,
    to: TO,
    locale: 'en-US',
    decimals: 2,
    labels: { noData: 'No data in this period', outOfRange: (count: number) => `${count} not drawn` },
    ...overrides,
  };
}

function textContents(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);
}

/** XML character data back to the text it encodes (the five entities `escapeXml` writes). */
function unescape(content: string): string {
  const entities: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
  return content.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => entities[name]!);
}

/** The y axis labels: the only right-aligned text. */
function valueLabels(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);
}

function timeLabels(svg: string): string[] {
  return [...svg.matchAll(new RegExp(`<text [^>]*y="${TIME_LABEL_Y}"[^>]*>([^<]*)</text>`, 'g'))].map(
    (match) => match[1]!,
  );
}

/** Each polyline's stroke and vertices. */
function polylines(svg: string): { stroke: string; vertices: Array<[number, number]> }[] {
  return [...svg.matchAll(/<polyline points="([^"]*)"[^>]*stroke="([^"]+)"/g)].map((match) => ({
    stroke: match[2]!,
    vertices: match[1]!.split(' ').map((pair) => pair.split(',').map(Number) as [number, number]),
  }));
}

function circles(svg: string, color: string): number {
  return svg.split(`<circle `).filter((part) => part.includes(`fill="${color}"`)).length;
}

function squares(svg: string, color: string): string[] {
  return [...svg.matchAll(new RegExp(`<rect [^>]*fill="${color}" stroke="${Colors.plot}"[^>]*/>`, 'g'))].map(
    (match) => match[0],
  );
}

describe('renderHistoryChart', () => {
  it('returns a 960×480 PNG of one line, with alt text', async () => {
    const chart = await drawnChart(renderHistoryChart(input()));
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(chart.png)).toEqual({ width: 960, height: 480 });
    expect({ width: chart.width, height: chart.height }).toEqual({ width: 960, height: 480 });
    expect(chart.altText).toMatch(
      /^K\/D — Sn1per, 30 days\. Sn1per: 1\.\d\d \(1\.3\d?–1\.5\d?\)\. Mar 1 – Mar 31\.$/,
    );

    const { svg } = buildHistorySvg(input());
    const lines = polylines(svg);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.stroke).toBe(Colors.player);
    expect(lines[0]!.vertices).toHaveLength(30);
    expect(circles(svg, Colors.player)).toBe(30);
    // One player: the title names them, no legend.
    expect(textContents(svg)).not.toContain('Sn1per');
  });

  it('fits the y axis to the values rather than to zero', async () => {
    const { svg } = buildHistorySvg(input());
    const values = valueLabels(svg).map(Number);
    expect(values[0]).toBeGreaterThanOrEqual(1.2);
    expect(values[values.length - 1]).toBeLessThanOrEqual(1.6);
    expect(values.length).toBeGreaterThanOrEqual(4);
    const ys = polylines(svg)[0]!.vertices.map(([, y]) => y);
    // The line uses most of the plot's 344 pixels of height.
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(200);
  });

  it('gives counts whole ticks, and large counts ticks that differ', async () => {
    const flat = buildHistorySvg(
      input({ decimals: 0, series: [{ label: 'a', points: readings(5).map((p) => ({ ...p, value: 7 })) }] }),
    );
    const flatTicks = valueLabels(flat.svg);
    expect(flatTicks.every((label) => /^\d+$/.test(label))).toBe(true);
    expect(new Set(flatTicks).size).toBe(flatTicks.length);
    expect(flat.altText).toContain('a: 7.');

    const score = readings(20).map((point, i) => ({ ...point, value: 1_234_000 + i * 20 }));
    const big = valueLabels(
      buildHistorySvg(input({ decimals: 0, series: [{ label: 'a', points: score }] })).svg,
    );
    expect(new Set(big).size).toBe(big.length);
    expect(big).toContain('1,234,200');
  });

  it('renders its text with the shipped font only', async () => {
    const { svg } = buildHistorySvg(input({ title: 'Known History Title' }));
    expect(svg).toContain('>Known History Title</text>');
    const withTitle = rasterize(svg);
    const noTitle = rasterize(svg.replace(/<text\b[^>]*>Known History Title<\/text>/, ''));
    expect(differingPixels(withTitle, noTitle, TITLE_BAND)).toBeGreaterThan(300);
    expect(differingPixels(withTitle, noTitle, { left: 0, top: 50, right: 960, bottom: 480 })).toBe(0);
    const noFont = rasterizeWithoutFonts(svg);
    expect(differingPixels(noFont, rasterize(withoutText(svg)), whole(noFont))).toBe(0);
  });

  it('overlays two players in two colours, named in a legend', async () => {
    const chart = input({
      title: 'K/D — Sn1per vs Camper',
      series: [
        { label: 'Sn1per', points: readings(30) },
        { label: 'Camper', points: readings(12, 0.8) },
      ],
    });
    const { svg, altText } = buildHistorySvg(chart);
    const lines = polylines(svg);
    expect(lines.map((line) => line.stroke)).toEqual([Colors.player, Colors.rival]);
    expect(lines.map((line) => line.vertices.length)).toEqual([30, 12]);
    expect(circles(svg, Colors.player)).toBe(30);
    expect(squares(svg, Colors.rival)).toHaveLength(12);
    expect(textContents(svg)).toEqual(expect.arrayContaining(['Sn1per', 'Camper']));
    expect(altText).toMatch(/Sn1per: 1\.\d\d \([\d.–]+\)\. Camper: 0\.\d\d \([\d.–]+\)\./);
    // Both ranges share the axis: the lower player's line sits below the other's.
    const meanY = (i: number) => {
      const ys = lines[i]!.vertices.map(([, y]) => y);
      return ys.reduce((sum, y) => sum + y, 0) / ys.length;
    };
    expect(meanY(1)).toBeGreaterThan(meanY(0));

    const legendText = rasterize(svg);
    const noLegendText = rasterize(svg.replace(/<text\b[^>]*>(Sn1per|Camper)<\/text>/g, ''));
    expect(differingPixels(legendText, noLegendText, LEGEND_BAND)).toBeGreaterThan(200);
    expect((await drawnChart(renderHistoryChart(chart))).png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it('draws at most two players', async () => {
    const three = [1, 2, 3].map((n) => ({ label: `P${n}`, points: readings(5, n) }));
    const { svg } = buildHistorySvg(input({ series: three }));
    expect(polylines(svg)).toHaveLength(2);
    expect(textContents(svg)).not.toContain('P3');
  });

  it('says there is no data when no player has a reading in the span', async () => {
    const cases: HistoryChartInput['series'][] = [
      [],
      [{ label: 'a', points: [] }],
      [{ label: 'b', points: readings(10, 1, FROM - 90 * DAY, FROM - DAY) }],
    ];
    for (const series of cases) {
      const { svg, altText } = buildHistorySvg(input({ series }));
      expect(textContents(svg)).toEqual(['K/D — Sn1per, 30 days', 'No data in this period']);
      expect(altText).toBe('K/D — Sn1per, 30 days. No data in this period.');
      expect(polylines(svg)).toEqual([]);
      expect(svg).not.toContain('<circle');
    }
    const { svg } = buildHistorySvg(input({ series: [] }));
    const raster = rasterize(svg);
    const centre = { left: 300, top: 240, right: 660, bottom: 290 };
    expect(differingPixels(raster, rasterize(withoutText(svg)), centre)).toBeGreaterThan(100);
  });

  it('draws a single reading as a point with its value, never as a line', async () => {
    for (const series of [
      [{ label: 'a', points: [{ at: TO, value: 1.2 }] }],
      [
        { label: 'a', points: [{ at: TO - DAY, value: 1.2 }] },
        { label: 'b', points: readings(10, 1, FROM - 90 * DAY, FROM - DAY) },
      ],
    ]) {
      const { svg, altText } = buildHistorySvg(input({ series }));
      expect(polylines(svg)).toEqual([]);
      expect(circles(svg, Colors.player)).toBe(1);
      // The value beside the point, not only on the axis.
      const label = /<text x="([\d.]+)"[^>]*font-size="14" font-weight="bold"[^>]*>1\.2<\/text>/.exec(svg);
      expect(label).not.toBeNull();
      expect(textContents(svg)).not.toContain('No data in this period');
      expect(altText).toContain('a: 1.2.');
      // The label stays inside the plot, even for a point at the right end.
      expect(Number(label?.[1]) + measureText('1.2', 14, 'bold')).toBeLessThanOrEqual(960 - 24);
    }
    const chart = await drawnChart(
      renderHistoryChart(input({ series: [{ label: 'a', points: [{ at: TO, value: 1 }] }] })),
    );
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(chart.png)).toEqual({ width: 960, height: 480 });
  });

  it('dashes a series from the match history, names it in the legend, and draws the results strip', async () => {
    const matches = readings(8, 2, TO - 5 * DAY, TO - DAY);
    const results = matches.map((point, i) => ({
      at: point.at,
      result: (['win', 'loss', 'draw'] as const)[i % 3]!,
    }));
    const { svg, altText } = buildHistorySvg(
      input({
        series: [{ label: 'Ranked matches (match history)', points: matches, source: 'matches' }],
        results,
        labels: {
          noData: 'No data',
          outOfRange: (count: number) => `${count} not drawn`,
          results: (counts) => `${counts.win} W, ${counts.loss} L, ${counts.draw} D`,
        },
      }),
    );
    expect(svg).toMatch(/<polyline [^>]*stroke-dasharray="7 5"/);
    expect(textContents(svg)).toContain('Ranked matches (match history)');
    expect(svg.match(new RegExp(`<rect [^>]*fill="${Colors.wins}"`, 'g'))).toHaveLength(3);
    expect(svg.match(new RegExp(`<rect [^>]*fill="${Colors.losses}"`, 'g'))).toHaveLength(3);
    expect(altText).toContain('3 W, 3 L, 2 D.');
    // Results outside the span or of no known kind are left out.
    const odd = buildHistorySvg(
      input({
        results: [
          { at: FROM - DAY, result: 'win' },
          { at: Number.NaN, result: 'win' },
          { at: TO, result: 'nope' as 'win' },
        ],
      }),
    );
    expect(odd.svg).not.toContain(`fill="${Colors.wins}" rx`);
  });

  it('draws a player with a single reading as one marker beside the other line', async () => {
    const { svg, altText } = buildHistorySvg(
      input({
        series: [
          { label: 'a', points: readings(10) },
          { label: 'b', points: [{ at: TO - 3 * DAY, value: 1.45 }] },
        ],
      }),
    );
    expect(polylines(svg)).toHaveLength(1);
    const single = squares(svg, Colors.rival);
    expect(single).toHaveLength(1);
    expect(single[0]).toContain('width="10"');
    expect(altText).toContain('b: 1.45.');
  });

  it('drops readings outside the span and non-finite values', async () => {
    const points: HistoryPoint[] = [
      { at: FROM - 1, value: 1 },
      { at: FROM, value: 1.1 },
      { at: FROM + DAY, value: Number.NaN },
      { at: FROM + 2 * DAY, value: Infinity },
      { at: FROM + 3 * DAY, value: -Infinity },
      { at: FROM + 4 * DAY, value: 1e300 },
      { at: Number.NaN, value: 1.2 },
      { at: FROM + 5 * DAY, value: 1.3 },
      { at: TO, value: 1.25 },
      { at: TO + 1, value: 5 },
    ];
    const { svg, altText } = buildHistorySvg(input({ series: [{ label: 'a', points }] }));
    expect(svg).not.toMatch(/NaN|Infinity|e\+/);
    expect(polylines(svg)[0]!.vertices).toHaveLength(3);
    expect(altText).toContain('a: 1.25 (1.1–1.3).');

    const garbage = [Number.NaN, Infinity, -Infinity].map((value, i) => ({ at: FROM + i * DAY, value }));
    expect(textContents(buildHistorySvg(input({ series: [{ label: 'a', points: garbage }] })).svg)).toContain(
      'No data in this period',
    );
  });

  it('joins readings in time order whatever order they come in', async () => {
    const shuffled = readings(8).reverse();
    const xs = polylines(
      buildHistorySvg(input({ series: [{ label: 'a', points: shuffled }] })).svg,
    )[0]!.vertices.map(([x]) => x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it('thins 10,000 readings evenly to 1,000, keeping both ends, and renders them', async () => {
    const many = readings(10_000);
    many[5_000] = { at: many[5_000]!.at, value: 9 };
    const chart = input({ series: [{ label: 'a', points: many }] });
    const { svg, altText } = buildHistorySvg(chart);
    const vertices = polylines(svg)[0]!.vertices;
    expect(vertices).toHaveLength(1_000);
    // So many markers would only blur the line; a few hundred still get theirs.
    expect(circles(svg, Colors.player)).toBe(0);
    const some = buildHistorySvg(input({ series: [{ label: 'a', points: readings(250) }] })).svg;
    expect(circles(some, Colors.player)).toBe(250);
    const xs = vertices.map(([x]) => x);
    // The last reading sits at the right end of the plot (936, less the inset), the rest evenly before it.
    expect(xs[999]).toBe(928);
    const gap = (xs[999]! - xs[0]!) / 999;
    expect(xs.slice(1).every((x, i) => Math.abs(x - xs[i]! - gap) < 0.15)).toBe(true);
    // The spike at reading 5,000 falls between two drawn ones: the axis fits what is drawn, the alt text
    // counts every reading.
    expect(
      valueLabels(svg)
        .map(Number)
        .every((value) => value < 2),
    ).toBe(true);
    expect(altText).toMatch(/\(1\.3–9\)/);
    const png = await drawnChart(renderHistoryChart(chart));
    expect(pngSize(png.png)).toEqual({ width: 960, height: 480 });
  });

  it('labels hours across up to two days and days beyond, a bounded number of them', async () => {
    const spans = [HOUR, 6 * HOUR, DAY, 2 * DAY];
    for (const span of spans) {
      const from = TO - span;
      const labels = timeLabels(
        buildHistorySvg(
          input({ from, locale: 'en-GB', series: [{ label: 'a', points: readings(5, 1, from) }] }),
        ).svg,
      );
      expect(labels.length).toBeGreaterThanOrEqual(2);
      expect(labels.length).toBeLessThanOrEqual(8);
      // Hours, and midnight named by its day.
      expect(
        labels.every((label) => /^\d{1,2}:\d\d$/.test(label) || /^\d{1,2} [A-Z][a-z]{2}$/.test(label)),
      ).toBe(true);
      expect(labels.some((label) => label.includes(':'))).toBe(true);
    }
    for (const days of [3, 30, 120, 400]) {
      const from = TO - days * DAY;
      const labels = timeLabels(
        buildHistorySvg(input({ from, series: [{ label: 'a', points: readings(5, 1, from) }] })).svg,
      );
      expect(labels.length).toBeGreaterThanOrEqual(2);
      expect(labels.length).toBeLessThanOrEqual(8);
      expect(labels.every((label) => /^[A-Z][a-z]{2} \d{1,2}$/.test(label))).toBe(true);
    }
    expect(hourFormatter('en-GB')(Date.UTC(2024, 0, 1, 6, 30))).toBe('6:30');
    expect(hourFormatter('not a locale!')(Date.UTC(2024, 0, 1, 18))).toBe('6:00 PM');
  });

  it('clamps the span to between an hour and 400 days, ending on `to`', async () => {
    const decade = buildHistorySvg(
      input({ from: TO - 3650 * DAY, series: [{ label: 'a', points: readings(100, 1.4, TO - 1000 * DAY) }] }),
    );
    expect(decade.altText).toMatch(/ Feb 25 – Mar 31\.$/);
    // Readings run over 1,000 days, ten apart; only those of the last 400 days are in the span.
    expect(polylines(decade.svg)[0]!.vertices).toHaveLength(40);

    for (const from of [TO, TO + DAY, Number.NaN]) {
      const { altText, svg } = buildHistorySvg(
        input({ from, series: [{ label: 'a', points: readings(3, 1, TO - HOUR) }] }),
      );
      expect(altText).toMatch(/ Mar 31 11:00 AM – Mar 31 12:00 PM\.$/);
      expect(polylines(svg)[0]!.vertices).toHaveLength(3);
    }

    for (const [from, to] of [
      [Number.NaN, Number.NaN],
      [-Infinity, Infinity],
      [0, 1e20],
      [-1e20, -1e19],
    ] as const) {
      const { svg } = buildHistorySvg(input({ from, to }));
      expect(svg).not.toMatch(/NaN|Infinity/);
      expect(() => rasterize(svg)).not.toThrow();
    }
  });

  it('escapes hostile titles and names, which stay inside the image', async () => {
    const hostile = [
      '<script>alert("x")</script>',
      '&amp; & &lt;',
      '{{x}} ${x} %s',
      'مرحبا بالعالم שלום עולם',
      '名前の長いプレイヤー',
      '🔥💀👨‍👩‍👧‍👦',
      'W'.repeat(500),
      'bad\u0000\u0007\uFFFF\uD800name',
    ];
    const series = hostile.map((label, i) => ({ label, points: readings(10, 1 + i / 10) }));
    for (let i = 0; i < hostile.length; i += 2) {
      const chart = input({
        title: `K/D — ${hostile[i]!} vs ${hostile[i + 1]!}`,
        series: series.slice(i, i + 2),
      });
      const { svg, altText } = buildHistorySvg(chart);
      expect(svg).not.toContain('<script');
      for (const forbidden of ['\u0000', '\u0007', '\uFFFF']) expect(svg).not.toContain(forbidden);
      const texts = textContents(svg).map(unescape);
      expect(measureText(texts[0]!, 22, 'bold')).toBeLessThanOrEqual(960 - 48);
      for (const label of texts.slice(1)) expect(measureText(label, 13)).toBeLessThanOrEqual(300);
      expect(codePointLength(altText)).toBeLessThanOrEqual(1024);
      const raster = rasterize(svg);
      const bare = rasterize(withoutText(svg));
      // Nothing is drawn in the right margin but the title's band stays clear of its far end too.
      expect(differingPixels(raster, bare, { left: 938, top: 0, right: 960, bottom: 480 })).toBe(0);
      expect(differingPixels(raster, bare, TITLE_BAND)).toBeGreaterThan(50);
    }
    const { svg } = buildHistorySvg(input({ title: '{{x}} &amp; <b>', series: series.slice(0, 2) }));
    expect(textContents(svg)[0]).toBe('{{x}} &amp;amp; &lt;b&gt;');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    const long = textContents(buildHistorySvg(input({ series: series.slice(6, 8) })).svg).find((label) =>
      label.startsWith('WWW'),
    );
    expect(long!.endsWith('…')).toBe(true);
    expect(
      (await drawnChart(renderHistoryChart(input({ title: hostile.join(' '), series: series.slice(2, 4) }))))
        .png.length,
    ).toBeGreaterThan(1000);
  });

  it('formats values and dates in the locale', async () => {
    const { svg, altText } = buildHistorySvg(input({ locale: 'de-DE' }));
    expect(valueLabels(svg).some((label) => /^1,\d+$/.test(label))).toBe(true);
    expect(timeLabels(svg).some((label) => /^\d+\. März$/.test(label))).toBe(true);
    expect(altText).toMatch(/Sn1per: 1,\d\d/);
  });

  it('always builds a bounded document, whatever the numbers', async () => {
    const finiteOrNot = fc.oneof(
      fc.double(),
      fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, 1e12, -1e12),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.double({ min: FROM - DAY, max: TO + DAY }), value: finiteOrNot }), {
          maxLength: 30,
        }),
        finiteOrNot,
        finiteOrNot,
        finiteOrNot,
        (points, from, to, decimals) => {
          const { svg } = buildHistorySvg(input({ series: [{ label: 'a', points }], from, to, decimals }));
          expect(svg).not.toMatch(/NaN|Infinity/);
          expect(valueLabels(svg).length).toBeLessThanOrEqual(12);
          expect(timeLabels(svg).length).toBeLessThanOrEqual(9);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is deterministic', async () => {
    const chart = input({
      series: [
        { label: 'a', points: readings(50) },
        { label: 'b', points: readings(20, 1) },
      ],
    });
    expect(
      (await drawnChart(renderHistoryChart(chart))).png.equals(
        (await drawnChart(renderHistoryChart(chart))).png,
      ),
    ).toBe(true);
  });
});
