import {
  dayFormatter,
  hourFormatter,
  niceTicks,
  tickFormatter,
  valueFormatter,
  type Ticks,
} from '../../render/chart/axis.ts';
import { inRange, MAX_CHART_VALUE, MAX_TIME } from '../../render/chart/bounds.ts';

/** The history chart's numbers before anything is drawn: its span, its points in it, its ticks. */
export const MAX_DECIMALS = 3;

export interface HistoryPoint {
  /** When the value was read, milliseconds since the epoch. */
  at: number;
  value: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MIN_SPAN = HOUR_MS;
const MAX_SPAN = 400 * DAY_MS;
const Y_INTERVALS = 5;
const MAX_TIME_LABELS = 8;
export const HOUR_LABELS_UP_TO = 2 * DAY_MS;
const HOUR_STEPS = [0.25, 0.5, 1, 2, 3, 4, 6, 12].map((hours) => hours * HOUR_MS);
const DAY_STEPS = [1, 2, 3, 5, 7, 14, 30, 60, 90].map((days) => days * DAY_MS);

export interface Span {
  start: number;
  end: number;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The x axis: ends on `to` (or `from` plus an hour), at least an hour and at most 400 days long. */
export function spanOf(from: number, to: number): Span {
  const wantedEnd = Number.isFinite(to) ? to : Number.isFinite(from) ? from + MIN_SPAN : 0;
  const end = clamp(wantedEnd, MAX_SPAN - MAX_TIME, MAX_TIME);
  const width = Number.isFinite(from) ? clamp(end - from, MIN_SPAN, MAX_SPAN) : MIN_SPAN;
  return { start: end - width, end };
}

export function pointsInSpan(
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
export function thin(points: readonly HistoryPoint[], max: number): HistoryPoint[] {
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
export function valueTicks(low: number, high: number, decimals: number): Ticks {
  const narrowest = 10 ** -decimals * Y_INTERVALS;
  if (high - low >= narrowest) return niceTicks(low, high, Y_INTERVALS);
  const middle = (low + high) / 2;
  let from = middle - narrowest / 2;
  if (low >= 0 && from < 0) from = 0;
  return niceTicks(from, from + narrowest, Y_INTERVALS);
}

/** Tick labels, compact where the values are large unless that makes two of them alike (`1.2M`, `1.2M`). */
export function tickLabels(locale: string, ticks: Ticks): string[] {
  const compact = ticks.values.map(tickFormatter(locale, ticks));
  if (new Set(compact).size === compact.length) return compact;
  return ticks.values.map(valueFormatter(locale, MAX_DECIMALS));
}

export interface TimeLabel {
  at: number;
  label: string;
}

/**
 * Round times across the span, at most {@link MAX_TIME_LABELS}: hours (midnight named by its day) up to two
 * days, days beyond.
 */
export function timeLabels(span: Span, locale: string): TimeLabel[] {
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
