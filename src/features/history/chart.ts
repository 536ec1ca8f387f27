import { truncate } from '../../render/text.ts';
import { dayFormatter, hourFormatter, linear, valueFormatter } from '../../render/chart/axis.ts';
import {
  clamp,
  HOUR_LABELS_UP_TO,
  MAX_DECIMALS,
  pointsInSpan,
  spanOf,
  thin,
  tickLabels,
  timeLabels,
  valueTicks,
  type HistoryPoint,
  type Span,
} from './chart-data.ts';
import { measureText } from '../../render/chart/font.ts';
import { chartOf, dropped, emptyChart, frame, sentences } from '../../render/chart/layout.ts';
import type { Dropped, PlotArea } from '../../render/chart/layout.ts';
import { toChartImage, type ChartImage, type ChartSvg } from '../../render/chart/png.ts';
import { element, line, num, rect, text } from '../../render/chart/svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN } from '../../render/chart/theme.ts';

export type { HistoryPoint };

export interface HistorySeries {
  /** A player name: any script, any length, possibly markup. */
  label: string;
  points: readonly HistoryPoint[];
  /**
   * Where the values come from: `measured` (the snapshots the bot keeps, a solid line; the default) or
   * `matches` (one value per ranked match of the match history, a dashed line, always named in the legend).
   */
  source?: 'measured' | 'matches' | undefined;
}

export type MatchResult = 'win' | 'loss' | 'draw';

/** One ranked match's result, for the strip along the bottom of the plot. */
export interface MatchResultMark {
  at: number;
  result: MatchResult;
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
  /** Results of ranked matches (a win/loss strip); at most {@link MAX_RESULTS} inside the span are drawn. */
  results?: readonly MatchResultMark[] | undefined;
  labels: {
    noData: string;
    /** The alt text's words for the strip: "3 wins, 1 loss" (only read when there are results). */
    results?: ((counts: Readonly<Record<MatchResult, number>>) => string) | undefined;
    /** The note of a chart that left `count` points out (not finite, out of range). */
    outOfRange: (count: number) => string;
  };
}

const MAX_SERIES = 2;
// More points than the plot has pixels across make no better line, only a slower render.
const MAX_DRAWN = 1_000;
// Beyond this many points markers touch one another, and outlined they hatch the line.
const MAX_MARKERS = 250;
const PLOT_TOP = 92;
const PLOT_BOTTOM = CHART_HEIGHT - 44;
// Points at either end of the span stay on the plot with their whole marker.
const INSET = 8;
const SERIES_COLORS = [Colors.player, Colors.rival] as const;
const MAX_RESULTS = 200;
// The band at the bottom of the plot that the results strip takes (the values are drawn above it).
const STRIP_ROOM = 18;
const RESULT_COLORS: Readonly<Record<MatchResult, string>> = {
  win: Colors.wins,
  loss: Colors.losses,
  draw: Colors.muted,
};
// A name in the alt text is cut to this, so that two long names leave room for the numbers.
const ALT_LABEL_MAX = 100;

interface Plotted {
  label: string;
  color: string;
  /** From the match history: drawn dashed. */
  dashed: boolean;
  /** Every finite point inside the span, oldest first. */
  points: HistoryPoint[];
  /** `points`, thinned evenly to at most {@link MAX_DRAWN}. */
  drawn: HistoryPoint[];
  /** Points left out for a time or a value not finite or out of range (not those outside the span). */
  dropped: number;
}

/** The results inside the span with a drawable time and a known result, oldest first, at most {@link MAX_RESULTS}. */
function resultsInSpan(results: readonly MatchResultMark[], span: Span): MatchResultMark[] {
  const kept: MatchResultMark[] = [];
  for (const mark of results.slice(0, 10 * MAX_RESULTS)) {
    if (!Number.isFinite(mark.at) || !(mark.at >= span.start && mark.at <= span.end)) continue;
    if (!Object.hasOwn(RESULT_COLORS, mark.result)) continue;
    kept.push({ at: mark.at, result: mark.result });
  }
  return kept.sort((a, b) => a.at - b.at).slice(-MAX_RESULTS);
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

/**
 * A stat of one player over time, or of two overlaid: a line per player through the values inside the span,
 * a marker on each unless they are too many to tell apart, the y axis fitted to the values rather than to
 * zero. A series of one value is one marker with its value written beside it, never a line; a series from
 * the match history is dashed, and the results of those matches make a strip along the bottom. With no
 * value at all in the span the chart says so.
 */
export function buildHistorySvg(input: HistoryChartInput): ChartSvg {
  const span = spanOf(input.from, input.to);
  const decimals = Number.isFinite(input.decimals) ? clamp(Math.round(input.decimals), 0, MAX_DECIMALS) : 0;
  const plotted: Plotted[] = input.series.slice(0, MAX_SERIES).map((series, i) => {
    const { points, dropped } = pointsInSpan(series.points, span);
    return {
      label: series.label,
      color: SERIES_COLORS[i] ?? Colors.player,
      dashed: series.source === 'matches',
      points,
      drawn: thin(points, MAX_DRAWN),
      dropped,
    };
  });
  const results = resultsInSpan(input.results ?? [], span);
  const left = dropped(
    plotted.reduce((sum, series) => sum + series.dropped, 0),
    input.labels.outOfRange,
  );
  if (!plotted.some((series) => series.points.length > 0)) {
    const area: PlotArea = { left: MARGIN, top: PLOT_TOP, right: CHART_WIDTH - MARGIN, bottom: PLOT_BOTTOM };
    return emptyChart(input.title, input.labels.noData, area, left);
  }

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
  const yOf = linear(ticks.min, ticks.max, area.bottom - (results.length > 0 ? STRIP_ROOM : 0), area.top);

  const legendItems =
    plotted.length > 1 || plotted.some((series) => series.dashed)
      ? plotted.map((series) => ({ label: series.label, color: series.color, shape: 'line' as const }))
      : [];
  const parts = frame(input.title, area, legendItems);
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
  parts.push(...timeAxis(span, input.locale, area, xOf));
  parts.push(...resultStrip(results, area, xOf));
  const formatValue = valueFormatter(input.locale, decimals);
  plotted.forEach((series, i) => parts.push(...seriesParts(series, i, xOf, yOf, area, formatValue)));

  parts.push(left.note);
  return chartOf(parts, altText(input, plotted, span, decimals, left, results));
}

/** The x axis: its line, and round times across the span that do not overlap. */
function timeAxis(span: Span, locale: string, area: PlotArea, xOf: (at: number) => number): string[] {
  const parts = [line(area.left, area.bottom, area.right, area.bottom, Colors.axis)];
  let previousRight = -Infinity;
  for (const { at, label } of timeLabels(span, locale)) {
    const x = xOf(at);
    const half = measureText(label, Fonts.tick) / 2;
    if (x - half < 4 || x + half > CHART_WIDTH - 4 || x - half < previousRight + 8) continue;
    previousRight = x + half;
    parts.push(line(x, area.bottom, x, area.bottom + 5, Colors.axis));
    parts.push(
      text(label, { x, y: area.bottom + 22, size: Fonts.tick, fill: Colors.muted, anchor: 'middle' }),
    );
  }
  return parts;
}

/** The matches' results along the bottom of the plot: a square each, green a win, red a loss, grey a draw. */
function resultStrip(results: readonly MatchResultMark[], area: PlotArea, xOf: (at: number) => number) {
  const size = results.length > 60 ? 4 : 8;
  const y = area.bottom - STRIP_ROOM / 2 - size / 2;
  return results.map((mark) =>
    rect(xOf(mark.at) - size / 2, y, size, size, RESULT_COLORS[mark.result], { rx: 1 }),
  );
}

/** One series: its line when it has two values or more, its markers, and the value of a lone one. */
function seriesParts(
  series: Plotted,
  i: number,
  xOf: (at: number) => number,
  yOf: (value: number) => number,
  area: PlotArea,
  formatValue: (value: number) => string,
): string[] {
  const parts: string[] = [];
  if (series.drawn.length > 1) {
    parts.push(
      element('polyline', {
        points: series.drawn.map((point) => `${num(xOf(point.at))},${num(yOf(point.value))}`).join(' '),
        fill: 'none',
        stroke: series.color,
        'stroke-width': 2.5,
        'stroke-dasharray': series.dashed ? '7 5' : undefined,
        'stroke-linejoin': 'round',
        'stroke-linecap': 'round',
      }),
    );
  }
  const radius = markerRadius(series.drawn.length);
  if (radius === 0) return parts;
  for (const point of series.drawn) {
    parts.push(marker(i, xOf(point.at), yOf(point.value), radius, series.color));
  }
  const only = series.drawn.length === 1 ? series.drawn[0] : undefined;
  if (only !== undefined) {
    // A lone value is written beside its marker, on the side with room (left of a point at the right end).
    const label = formatValue(only.value);
    const width = measureText(label, Fonts.annotation, 'bold');
    const x = xOf(only.at);
    const left = x + radius + 6 + width > area.right - 4 ? x - radius - 6 - width : x + radius + 6;
    const y = clamp(yOf(only.value) - 8, area.top + Fonts.annotation, area.bottom - 4);
    parts.push(text(label, { x: left, y, size: Fonts.annotation, fill: series.color, weight: 'bold' }));
  }
  return parts;
}

function altText(
  input: HistoryChartInput,
  plotted: readonly Plotted[],
  span: Span,
  decimals: number,
  left: Dropped,
  results: readonly MatchResultMark[],
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
  if (results.length > 0 && input.labels.results) {
    const counts = { win: 0, loss: 0, draw: 0 };
    for (const mark of results) counts[mark.result] += 1;
    parts.push(input.labels.results(counts));
  }
  parts.push(left.sentence);
  return sentences(parts);
}

/** The history chart as a 960×480 PNG; see {@link buildHistorySvg}. */
export function renderHistoryChart(input: HistoryChartInput): Promise<ChartImage | undefined> {
  return toChartImage(buildHistorySvg(input));
}
