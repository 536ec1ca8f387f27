import { truncate } from '../../render/text.ts';
import {
  dayFormatter,
  hourFormatter,
  linear,
  niceTicks,
  tickFormatter,
  valueFormatter,
  type Ticks,
} from '../../render/chart/axis.ts';
import { inRange, MAX_CHART_VALUE, MAX_TIME } from '../../render/chart/bounds.ts';
import { measureText } from '../../render/chart/font.ts';
import {
  background,
  droppedNote,
  droppedSentence,
  emptyMessage,
  legend,
  plotBackground,
  sentences,
  title,
  type PlotArea,
} from '../../render/chart/layout.ts';
import { chartSvg, toChartImage, type ChartImage, type ChartSvg } from '../../render/chart/png.ts';
import { element, line, num, rect, svgDocument, text } from '../../render/chart/svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN } from '../../render/chart/theme.ts';

export interface HistoryPoint {
  /** When the value was read, milliseconds since the epoch. */
  at: number;
  value: number;
}

export interface HistorySeries {
  /** A player name: any script, any length, possibly markup. */
  label: string;
  points: readonly HistoryPoint[];
}

export interface HistoryChartInput {
  title: string;
  /** One series for a history, two for a compare; any further ones are left out. */
  series: readonly HistorySeries[];
  /** The x axis, milliseconds since the epoch; the span is kept within 1 hour..400 days, ending on `to`. */
  from: number;
  to: number;
  locale: string;
  /** Decimals of the values (2 for a ratio, 0 for a count), kept within 0..3. */
  decimals: number;
  labels: {
    noData: string;
    /** The note of a chart that left `count` points out (not finite, out of range). */
    outOfRange: (count: number) => string;
  };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MIN_SPAN = HOUR_MS;
const MAX_SPAN = 400 * DAY_MS;
const MAX_SERIES = 2;
// More points than the plot has pixels across make no better line, only a slower render.
const MAX_DRAWN = 1_000;
// Beyond this many points markers touch one another, and outlined they hatch the line.
const MAX_MARKERS = 250;
const MAX_DECIMALS = 3;
const Y_INTERVALS = 5;
const PLOT_TOP = 92;
const PLOT_BOTTOM = CHART_HEIGHT - 44;
// Points at either end of the span stay on the plot with their whole marker.
const INSET = 8;
const MAX_TIME_LABELS = 8;
const HOUR_LABELS_UP_TO = 2 * DAY_MS;
const HOUR_STEPS = [0.25, 0.5, 1, 2, 3, 4, 6, 12].map((hours) => hours * HOUR_MS);
const DAY_STEPS = [1, 2, 3, 5, 7, 14, 30, 60, 90].map((days) => days * DAY_MS);
const SERIES_COLORS = [Colors.player, Colors.rival] as const;
// A name in the alt text is cut to this, so that two long names leave room for the numbers.
const ALT_LABEL_MAX = 100;

interface Span {
  start: number;
  end: number;
}

interface Plotted {
  label: string;
  color: string;
  /** Every finite point inside the span, oldest first. */
  points: HistoryPoint[];
  /** `points`, thinned evenly to at most {@link MAX_DRAWN}. */
  drawn: HistoryPoint[];
  /** Points left out for a time or a value not finite or out of range (not those outside the span). */
  dropped: number;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The x axis: ends on `to` (or `from` plus an hour), at least an hour and at most 400 days long. */
function spanOf(from: number, to: number): Span {
  const wantedEnd = Number.isFinite(to) ? to : Number.isFinite(from) ? from + MIN_SPAN : 0;
  const end = clamp(wantedEnd, MAX_SPAN - MAX_TIME, MAX_TIME);
  const width = Number.isFinite(from) ? clamp(end - from, MIN_SPAN, MAX_SPAN) : MIN_SPAN;
  return { start: end - width, end };
}

function pointsInSpan(
  points: readonly HistoryPoint[],
  span: Span,
): { points: HistoryPoint[]; dropped: number } {
  const kept: HistoryPoint[] = [];
  let dropped = 0;
  for (const { at, value } of points) {
    if (!Number.isFinite(at)) {
      dropped += 1;
      continue;
    }
    if (!(at >= span.start && at <= span.end)) continue;
    // No stat comes near 1e12; beyond it a value is garbage, and the tick arithmetic could overflow.
    if (!inRange(value, -MAX_CHART_VALUE, MAX_CHART_VALUE)) {
      dropped += 1;
      continue;
    }
    kept.push({ at, value });
  }
  return { points: kept.sort((a, b) => a.at - b.at), dropped };
}

/** At most `max` of `points`, evenly spaced by index, the first and the last always among them. */
function thin(points: readonly HistoryPoint[], max: number): HistoryPoint[] {
  if (points.length <= max) return [...points];
  const stride = (points.length - 1) / (max - 1);
  const kept: HistoryPoint[] = [];
  for (let i = 0; i < max; i++) {
    const point = points[Math.round(i * stride)];
    if (point !== undefined) kept.push(point);
  }
  return kept;
}

/**
 * Ticks around the data rather than from zero, so that a K/D wandering about 1.4 fills the plot; a range
 * narrower than `decimals` can show is widened, so that no two ticks read the same.
 */
function valueTicks(low: number, high: number, decimals: number): Ticks {
  const narrowest = 10 ** -decimals * Y_INTERVALS;
  if (high - low >= narrowest) return niceTicks(low, high, Y_INTERVALS);
  const middle = (low + high) / 2;
  let from = middle - narrowest / 2;
  if (low >= 0 && from < 0) from = 0;
  return niceTicks(from, from + narrowest, Y_INTERVALS);
}

/** Tick labels, compact where the values are large unless that makes two of them alike (`1.2M`, `1.2M`). */
function tickLabels(locale: string, ticks: Ticks): string[] {
  const compact = ticks.values.map(tickFormatter(locale, ticks));
  if (new Set(compact).size === compact.length) return compact;
  return ticks.values.map(valueFormatter(locale, MAX_DECIMALS));
}

interface TimeLabel {
  at: number;
  label: string;
}

/**
 * Round times across the span, at most {@link MAX_TIME_LABELS}: hours (midnight named by its day) up to two
 * days, days beyond.
 */
function timeLabels(span: Span, locale: string): TimeLabel[] {
  const width = span.end - span.start;
  const hourly = width <= HOUR_LABELS_UP_TO;
  const fits = (step: number): boolean => Math.floor(width / step) + 1 <= MAX_TIME_LABELS;
  const step =
    (hourly ? HOUR_STEPS : DAY_STEPS).find(fits) ??
    Math.ceil(width / DAY_MS / (MAX_TIME_LABELS - 1)) * DAY_MS;
  const formatDay = dayFormatter(locale);
  const formatHour = hourFormatter(locale);
  const labels: TimeLabel[] = [];
  for (let at = Math.ceil(span.start / step) * step; at <= span.end; at += step) {
    if (labels.length > MAX_TIME_LABELS) break;
    const midnight = ((at % DAY_MS) + DAY_MS) % DAY_MS === 0;
    labels.push({ at, label: hourly && !midnight ? formatHour(at) : formatDay(at) });
  }
  return labels;
}

function marker(series: number, x: number, y: number, radius: number, color: string): string {
  // The second player's squares tell the lines apart where colour does not (colour blindness, greyscale).
  return series === 0
    ? element('circle', { cx: x, cy: y, r: radius, fill: color, stroke: Colors.plot, 'stroke-width': 1 })
    : rect(x - radius, y - radius, 2 * radius, 2 * radius, color, { stroke: Colors.plot, 'stroke-width': 1 });
}

/** The markers' size for a series of `count` drawn points; 0 when they would only blur a dense line. */
function markerRadius(count: number): number {
  if (count === 1) return 5;
  if (count <= 60) return 3.5;
  return count <= MAX_MARKERS ? 2.5 : 0;
}

function emptyChart(input: HistoryChartInput, dropped: number): ChartSvg {
  const area: PlotArea = { left: MARGIN, top: PLOT_TOP, right: CHART_WIDTH - MARGIN, bottom: PLOT_BOTTOM };
  const svg = svgDocument(CHART_WIDTH, CHART_HEIGHT, [
    background(),
    title(input.title),
    plotBackground(area),
    emptyMessage(input.labels.noData, area),
    droppedNote(dropped, input.labels.outOfRange),
  ]);
  return chartSvg(
    svg,
    sentences([input.title, input.labels.noData, droppedSentence(dropped, input.labels.outOfRange)]),
  );
}

/**
 * A stat of one player over time, or of two overlaid: a line per player through the values inside the span,
 * a marker on each unless they are too many to tell apart, the y axis fitted to the values rather than to
 * zero. With no player having two values in the span there is no line to draw, and the chart says so.
 */
export function buildHistorySvg(input: HistoryChartInput): ChartSvg {
  const span = spanOf(input.from, input.to);
  const decimals = Number.isFinite(input.decimals) ? clamp(Math.round(input.decimals), 0, MAX_DECIMALS) : 0;
  const plotted: Plotted[] = input.series.slice(0, MAX_SERIES).map((series, i) => {
    const { points, dropped } = pointsInSpan(series.points, span);
    return {
      label: series.label,
      color: SERIES_COLORS[i] ?? Colors.player,
      points,
      drawn: thin(points, MAX_DRAWN),
      dropped,
    };
  });
  const dropped = plotted.reduce((sum, series) => sum + series.dropped, 0);
  if (!plotted.some((series) => series.points.length >= 2)) return emptyChart(input, dropped);

  // Fitted to what is drawn: a reading thinned out must not squash the line that is.
  let low = Infinity;
  let high = -Infinity;
  for (const series of plotted) {
    for (const point of series.drawn) {
      low = Math.min(low, point.value);
      high = Math.max(high, point.value);
    }
  }
  const ticks = valueTicks(low, high, decimals);
  const valueLabels = tickLabels(input.locale, ticks);
  let widest = 0;
  for (const label of valueLabels) widest = Math.max(widest, measureText(label, Fonts.tick));
  const area: PlotArea = {
    left: MARGIN + widest + 10,
    top: PLOT_TOP,
    right: CHART_WIDTH - MARGIN,
    bottom: PLOT_BOTTOM,
  };
  const xOf = linear(span.start, span.end, area.left + INSET, area.right - INSET);
  const yOf = linear(ticks.min, ticks.max, area.bottom, area.top);

  const parts: string[] = [background(), title(input.title)];
  if (plotted.length > 1) {
    parts.push(
      legend(
        plotted.map((series) => ({ label: series.label, color: series.color, shape: 'line' as const })),
        area.left,
      ),
    );
  }
  parts.push(plotBackground(area));

  ticks.values.forEach((value, i) => {
    const y = yOf(value);
    parts.push(line(area.left, y, area.right, y, Colors.grid));
    parts.push(
      text(valueLabels[i] ?? '', {
        x: area.left - 8,
        y: y + Fonts.tick * 0.35,
        size: Fonts.tick,
        fill: Colors.muted,
        anchor: 'end',
      }),
    );
  });

  parts.push(line(area.left, area.bottom, area.right, area.bottom, Colors.axis));
  let previousRight = -Infinity;
  for (const { at, label } of timeLabels(span, input.locale)) {
    const x = xOf(at);
    const half = measureText(label, Fonts.tick) / 2;
    if (x - half < 4 || x + half > CHART_WIDTH - 4 || x - half < previousRight + 8) continue;
    previousRight = x + half;
    parts.push(line(x, area.bottom, x, area.bottom + 5, Colors.axis));
    parts.push(
      text(label, { x, y: area.bottom + 22, size: Fonts.tick, fill: Colors.muted, anchor: 'middle' }),
    );
  }

  plotted.forEach((series, i) => {
    if (series.drawn.length > 1) {
      parts.push(
        element('polyline', {
          points: series.drawn.map((point) => `${num(xOf(point.at))},${num(yOf(point.value))}`).join(' '),
          fill: 'none',
          stroke: series.color,
          'stroke-width': 2.5,
          'stroke-linejoin': 'round',
          'stroke-linecap': 'round',
        }),
      );
    }
    const radius = markerRadius(series.drawn.length);
    if (radius === 0) return;
    for (const point of series.drawn) {
      parts.push(marker(i, xOf(point.at), yOf(point.value), radius, series.color));
    }
  });

  parts.push(droppedNote(dropped, input.labels.outOfRange));
  const svg = svgDocument(CHART_WIDTH, CHART_HEIGHT, parts);
  return chartSvg(svg, altText(input, plotted, span, decimals, dropped));
}

function altText(
  input: HistoryChartInput,
  plotted: readonly Plotted[],
  span: Span,
  decimals: number,
  dropped: number,
): string {
  const formatValue = valueFormatter(input.locale, decimals);
  const formatDay = dayFormatter(input.locale);
  const formatHour = hourFormatter(input.locale);
  const parts = [input.title];
  for (const series of plotted) {
    const label = truncate(series.label, ALT_LABEL_MAX);
    const last = series.points[series.points.length - 1];
    if (last === undefined) {
      parts.push(`${label}: ${input.labels.noData}`);
      continue;
    }
    let low = Infinity;
    let high = -Infinity;
    for (const point of series.points) {
      low = Math.min(low, point.value);
      high = Math.max(high, point.value);
    }
    const range = formatValue(low) === formatValue(high) ? '' : ` (${formatValue(low)}–${formatValue(high)})`;
    parts.push(`${label}: ${formatValue(last.value)}${range}`);
  }
  const moment = (at: number): string =>
    span.end - span.start <= HOUR_LABELS_UP_TO ? `${formatDay(at)} ${formatHour(at)}` : formatDay(at);
  parts.push(`${moment(span.start)} – ${moment(span.end)}`);
  parts.push(droppedSentence(dropped, input.labels.outOfRange));
  return sentences(parts);
}

/** The history chart as a 960×480 PNG; see {@link buildHistorySvg}. */
export function renderHistoryChart(input: HistoryChartInput): Promise<ChartImage | undefined> {
  return toChartImage(buildHistorySvg(input));
}
