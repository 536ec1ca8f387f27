import {
  dayFormatter,
  linear,
  niceTicks,
  tickFormatter,
  valueFormatter,
  zeroBasedTicks,
} from '../../render/chart/axis.ts';
import { isDrawableAmount } from '../../render/chart/bounds.ts';
import { measureText } from '../../render/chart/font.ts';
import { chartOf, dropped, emptyChart, frame, sentences, type PlotArea } from '../../render/chart/layout.ts';
import type { ChartImage, ChartSvg } from '../../render/chart/png.ts';
import { chartImage } from '../../render/image/images.ts';
import { element, line, num, rect, text } from '../../render/chart/svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN, over } from '../../render/chart/theme.ts';

export interface PriceHistoryPoint {
  /** `YYYY-MM-DD`, a UTC day. */
  date: string;
  /** KR; a point without a finite price of 0..1e12 (an unknown one too) is not drawn, and counted. */
  averagePrice: number;
  /** A count of 0..1e12, or the point is not drawn (and counted). */
  sales: number;
}

export interface PriceHistoryChartInput {
  title: string;
  points: readonly PriceHistoryPoint[];
  /** How many days the x axis spans, ending on `end` (kept within 1..730). */
  days: number;
  locale: string;
  labels: {
    averagePrice: string;
    sales: string;
    noSales: string;
    /**
     * The note of a chart that left `count` points out (out of range, unknown): the same words for the same
     * locale, as `t` gives them (the image cache keys the chart by its data and locale, not by this).
     */
    outOfRange: (count: number) => string;
  };
  /** The last day of the x axis (`YYYY-MM-DD`, UTC), normally today; defaults to the latest point's day. */
  end?: string | undefined;
}

const DAY_MS = 86_400_000;
const MAX_DAYS = 730;
const PLOT_TOP = 92;
const PLOT_BOTTOM = CHART_HEIGHT - 44;
const DATE_STEPS = [1, 2, 3, 5, 7, 10, 14, 15, 21, 30, 45, 60, 90, 120, 180, 365];
const MAX_DATE_LABELS = 8;

interface Day {
  index: number;
  price: number | undefined;
  sales: number;
}

function parseDay(value: string | undefined): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? ms
    : undefined;
}

interface Bucketed {
  series: Day[];
  /** Points inside the window left out: a price or a sale count not finite or outside 0..1e12. */
  dropped: number;
}

/**
 * Points inside the window, one per day; several points on one day merge, price weighted by sales. Only
 * prices and counts of 0..1e12 are summed (their products and sums stay finite, far from 1e308); the
 * others are counted, for the chart to say so.
 */
function bucket(points: readonly PriceHistoryPoint[], start: number, days: number): Bucketed {
  const byIndex = new Map<number, { weighted: number; weight: number; prices: number[]; sales: number }>();
  let dropped = 0;
  for (const point of points) {
    const ms = parseDay(point.date);
    if (ms === undefined) continue;
    const index = Math.round((ms - start) / DAY_MS);
    if (index < 0 || index >= days) continue;
    if (!isDrawableAmount(point.averagePrice) || !isDrawableAmount(point.sales)) {
      dropped += 1;
      continue;
    }
    const sales = point.sales;
    const entry = byIndex.get(index) ?? { weighted: 0, weight: 0, prices: [], sales: 0 };
    entry.prices.push(point.averagePrice);
    entry.weighted += point.averagePrice * sales;
    entry.weight += sales;
    entry.sales += sales;
    byIndex.set(index, entry);
  }
  const series = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, entry]) => ({
      index,
      sales: entry.sales,
      price:
        entry.weight > 0
          ? entry.weighted / entry.weight
          : entry.prices.length > 0
            ? entry.prices.reduce((sum, price) => sum + price, 0) / entry.prices.length
            : undefined,
    }))
    .filter((day) => day.sales > 0 || day.price !== undefined);
  return { series, dropped };
}

/**
 * Average price per day as a gold line over daily sales as blue bars, price on the left axis and sales on the
 * right, across the last `days` days. The game reports only days with sales: a day without any has no bar and
 * no dot, and the line bridges it, because the last traded price still stands until the next sale; the dots
 * show which days really traded.
 */
export function buildPriceHistorySvg(input: PriceHistoryChartInput): ChartSvg {
  const days = Number.isFinite(input.days) ? Math.min(MAX_DAYS, Math.max(1, Math.floor(input.days))) : 1;
  const latest = input.points.reduce<number | undefined>((max, point) => {
    const ms = parseDay(point.date);
    return ms !== undefined && (max === undefined || ms > max) ? ms : max;
  }, undefined);
  const end = parseDay(input.end) ?? latest;
  const start = end === undefined ? 0 : end - (days - 1) * DAY_MS;
  const bucketed = end === undefined ? { series: [], dropped: 0 } : bucket(input.points, start, days);
  const { series } = bucketed;
  const left = dropped(bucketed.dropped, input.labels.outOfRange);
  const priced = series.filter((day): day is Day & { price: number } => day.price !== undefined);

  if (series.length === 0) {
    const area: PlotArea = { left: MARGIN, top: PLOT_TOP, right: CHART_WIDTH - MARGIN, bottom: PLOT_BOTTOM };
    return emptyChart(input.title, input.labels.noSales, area, left);
  }

  const prices = priced.map((day) => day.price);
  const priceTicks =
    prices.length > 0 ? niceTicks(Math.min(...prices), Math.max(...prices), 5) : niceTicks(0, 1, 5);
  const intervals = Math.max(1, priceTicks.values.length - 1);
  const maxSales = Math.max(...series.map((day) => day.sales));
  const salesTicks = zeroBasedTicks(maxSales, intervals, true);
  const formatPrice = tickFormatter(input.locale, priceTicks);
  const formatSales = tickFormatter(input.locale, salesTicks);
  const formatDay = dayFormatter(input.locale);

  const priceLabels = priceTicks.values.map(formatPrice);
  const salesLabels = salesTicks.values.map(formatSales);
  const widest = (labels: string[]): number => Math.max(...labels.map((l) => measureText(l, Fonts.tick)));
  const area: PlotArea = {
    left: MARGIN + widest(priceLabels) + 10,
    top: PLOT_TOP,
    right: CHART_WIDTH - MARGIN - widest(salesLabels) - 10,
    bottom: PLOT_BOTTOM,
  };
  const slot = (area.right - area.left) / days;
  const xOf = (index: number): number => area.left + (index + 0.5) * slot;
  const yPrice = linear(priceTicks.min, priceTicks.max, area.bottom, area.top);
  const ySales = linear(0, salesTicks.max, area.bottom, area.top);

  const parts = frame(input.title, area, [
    { label: input.labels.averagePrice, color: Colors.price, shape: 'line' },
    { label: input.labels.sales, color: Colors.sales, shape: 'box' },
  ]);

  priceTicks.values.forEach((value, i) => {
    const y = yPrice(value);
    parts.push(line(area.left, y, area.right, y, Colors.grid));
    const baseline = y + Fonts.tick * 0.35;
    parts.push(
      text(priceLabels[i] ?? '', {
        x: area.left - 8,
        y: baseline,
        size: Fonts.tick,
        fill: Colors.price,
        anchor: 'end',
      }),
      text(salesLabels[i] ?? '', { x: area.right + 8, y: baseline, size: Fonts.tick, fill: Colors.sales }),
    );
  });

  parts.push(...salesBars(series, slot, xOf, ySales, area.bottom));

  parts.push(line(area.left, area.bottom, area.right, area.bottom, Colors.axis));
  const dateStep =
    DATE_STEPS.find((step) => days / step <= MAX_DATE_LABELS) ?? Math.ceil(days / MAX_DATE_LABELS);
  for (let index = days - 1; index >= 0; index -= dateStep) {
    const x = xOf(index);
    const label = formatDay(start + index * DAY_MS);
    const half = measureText(label, Fonts.tick) / 2;
    if (x - half < 4 || x + half > CHART_WIDTH - 4) continue;
    parts.push(line(x, area.bottom, x, area.bottom + 5, Colors.axis));
    parts.push(
      text(label, { x, y: area.bottom + 22, size: Fonts.tick, fill: Colors.muted, anchor: 'middle' }),
    );
  }

  if (priced.length > 1) {
    const path = priced
      .map((day, i) => `${i === 0 ? 'M' : 'L'}${num(xOf(day.index))} ${num(yPrice(day.price))}`)
      .join(' ');
    parts.push(
      element('path', {
        d: path,
        fill: 'none',
        stroke: Colors.price,
        'stroke-width': 2.5,
        'stroke-linejoin': 'round',
        'stroke-linecap': 'round',
      }),
    );
  }
  const radius = priced.length === 1 ? 5 : slot >= 8 ? 3.5 : 2.5;
  parts.push(
    ...dots(
      priced.map((day) => [xOf(day.index), yPrice(day.price)]),
      radius,
    ),
  );

  parts.push(left.note);
  return chartOf(parts, altText(input, series, priced, start, days, left.sentence));
}

/**
 * A bar a day with sales, in the sales blue as it shows at 85 % over the plot, on whole pixels and drawn
 * without anti-aliasing: the same look as translucent smoothed bars, for a fraction of resvg's work (120
 * thin bars were a third of the chart's drawing). Nothing without a day of sales.
 */
function salesBars(
  series: readonly Day[],
  slot: number,
  xOf: (index: number) => number,
  ySales: (sales: number) => number,
  plotBottom: number,
): string[] {
  const barWidth = Math.round(Math.max(1, Math.min(40, slot * 0.7)));
  const bottom = Math.round(plotBottom);
  const fill = over(Colors.sales, 0.85, Colors.plot);
  const bars: string[] = [];
  for (const day of series) {
    if (day.sales <= 0) continue;
    const top = Math.min(Math.round(ySales(day.sales)), bottom - 1);
    bars.push(rect(Math.round(xOf(day.index) - barWidth / 2), top, barWidth, bottom - top, fill));
  }
  return bars.length === 0 ? [] : [element('g', { 'shape-rendering': 'crispEdges' }, bars)];
}

/**
 * A gold dot on each traded day, ringed in the plot's colour so that it stands out of the line: every
 * ring as one path, then every dot as another. What a stroked circle a day draws, for less than half of
 * resvg's work (each element, and each stroke, has a set-up of its own).
 */
function dots(centres: ReadonlyArray<readonly [number, number]>, radius: number): string[] {
  const circles = (r: number): string =>
    centres
      .map(([x, y]) => `M${num(x - r)} ${num(y)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`)
      .join('');
  return centres.length === 0
    ? []
    : [
        element('path', { d: circles(radius + 0.5), fill: Colors.plot }),
        element('path', { d: circles(radius - 0.5), fill: Colors.price }),
      ];
}

function altText(
  input: PriceHistoryChartInput,
  series: readonly Day[],
  priced: readonly (Day & { price: number })[],
  start: number,
  days: number,
  said: string,
): string {
  const formatValue = valueFormatter(input.locale);
  const formatCount = valueFormatter(input.locale, 0);
  const formatDay = dayFormatter(input.locale);
  const parts = [input.title];
  const last = priced[priced.length - 1];
  if (last !== undefined) {
    const prices = priced.map((day) => day.price);
    const low = formatValue(Math.min(...prices));
    const high = formatValue(Math.max(...prices));
    const range = low === high ? low : `${low}–${high}`;
    parts.push(
      `${input.labels.averagePrice}: ${range} (${formatDay(start + last.index * DAY_MS)}: ${formatValue(last.price)})`,
    );
  }
  const totalSales = series.reduce((sum, day) => sum + day.sales, 0);
  parts.push(`${input.labels.sales}: ${formatCount(totalSales)}`);
  parts.push(`${formatDay(start)} – ${formatDay(start + (days - 1) * DAY_MS)}`);
  parts.push(said);
  return sentences(parts);
}

/** The price history chart as a 960×480 PNG; see {@link buildPriceHistorySvg}. */
export function renderPriceHistoryChart(input: PriceHistoryChartInput): Promise<ChartImage | undefined> {
  // Kept by the input: the note of points left out is the locale's words (the locale is in the key).
  const { outOfRange: _note, ...labels } = input.labels;
  return chartImage({ kind: 'price-history', data: { ...input, labels } }, () => buildPriceHistorySvg(input));
}
