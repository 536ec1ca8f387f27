import { MAX_TICK_INTERVALS, MAX_TIME } from './bounds.ts';

export interface Ticks {
  min: number;
  max: number;
  step: number;
  values: number[];
}

const NICE_FRACTIONS = [1, 2, 2.5, 5, 10];

/** A step of 0 (a subnormal `raw`) or Infinity (past 1e308) would make no axis: 1 instead. */
function usable(step: number): number {
  return step > 0 && Number.isFinite(step) ? step : 1;
}

/** The smallest "round" step (1, 2, 2.5 or 5 times a power of ten) not below `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const nice = NICE_FRACTIONS.find((candidate) => candidate >= fraction - 1e-9) ?? 10;
  return usable(nice * magnitude);
}

/** The "round" step (1, 2, 2.5 or 5 times a power of ten) nearest to `raw`. */
function nearestNiceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const nice = fraction < 1.5 ? 1 : fraction < 2.25 ? 2 : fraction < 3.5 ? 2.5 : fraction < 7.5 ? 5 : 10;
  return usable(nice * magnitude);
}

function decimalsOf(step: number): number {
  for (let decimals = 0; decimals < 10; decimals++) {
    const scaled = step * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6) return decimals;
  }
  return 10;
}

/**
 * The largest magnitude an axis spans: well past any value a chart keeps (`MAX_CHART_VALUE`), and small
 * enough that a step of a millionth of it is still exact.
 */
const MAX_AXIS_VALUE = 1e15;

function axisValue(value: number, fallback: number): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.min(MAX_AXIS_VALUE, Math.max(-MAX_AXIS_VALUE, value));
}

function intervalsWithin(value: number, fallback: number): number {
  return Number.isFinite(value) ? Math.min(MAX_TICK_INTERVALS, Math.max(1, Math.round(value))) : fallback;
}

function ticksFrom(start: number, step: number, wanted: number): Ticks {
  const decimals = decimalsOf(step);
  const values: number[] = [];
  // Whatever the arithmetic gave, an axis has at most MAX_TICK_INTERVALS intervals.
  const intervals = intervalsWithin(wanted, 1);
  for (let i = 0; i <= intervals; i++) values.push(Number((start + i * step).toFixed(decimals)));
  return { min: values[0] ?? start, max: values[values.length - 1] ?? start, step, values };
}

/**
 * About `target` intervals of a round step covering [min, max]. Bounded whatever it is given: a non-finite
 * end falls back to the other one (or to 0..1), ends are kept within ±1e15, the step is never finer than
 * the ends' magnitude can hold, and there are at most {@link MAX_TICK_INTERVALS} intervals.
 */
export function niceTicks(min: number, max: number, target = 5): Ticks {
  const wanted = intervalsWithin(target, 5);
  const first = axisValue(min, Number.isFinite(max) ? axisValue(max, 0) : 0);
  const second = axisValue(max, Number.isFinite(min) ? first : 1);
  let low = Math.min(first, second);
  let high = Math.max(first, second);
  if (low === high) {
    const pad = low === 0 ? 1 : Math.abs(low) * 0.1;
    low -= pad;
    high += pad;
    if (first >= 0 && low < 0) low = 0;
  }
  // A step below a billionth of the ends' magnitude is lost in their rounding: the count would run away.
  const finest = niceStep(Math.max(Math.abs(low), Math.abs(high)) * 1e-9);
  const step = Math.max(nearestNiceStep((high - low) / wanted), finest);
  const start = Math.floor(low / step + 1e-9) * step;
  const intervals = Math.max(1, Math.ceil((high - start) / step - 1e-9));
  return ticksFrom(start, step, Math.min(intervals, MAX_TICK_INTERVALS));
}

/**
 * Ticks from 0 with exactly `intervals` intervals, so a second axis lines up with the first one's gridlines.
 * Steps are whole numbers when `integer` is set (counts cannot be fractional).
 */
export function zeroBasedTicks(max: number, wanted: number, integer: boolean): Ticks {
  const intervals = intervalsWithin(wanted, 5);
  let step = niceStep(Math.max(axisValue(max, 0), 0) / intervals);
  if (integer) step = Math.max(1, Math.ceil(step));
  if (integer && step > 2 && step < 5) step = 5;
  return ticksFrom(0, step, intervals);
}

/** Maps a value of `[domainMin, domainMax]` onto `[rangeMin, rangeMax]`. */
export function linear(
  domainMin: number,
  domainMax: number,
  rangeMin: number,
  rangeMax: number,
): (value: number) => number {
  const span = domainMax - domainMin;
  // Never a non-finite coordinate (resvg refuses "NaN"), and none absurdly far off the image.
  const reach = Math.abs(rangeMax - rangeMin) * 100 + 1_000;
  const low = Math.min(rangeMin, rangeMax) - reach;
  const high = Math.max(rangeMin, rangeMax) + reach;
  return (value) => {
    const mapped =
      span === 0 || !Number.isFinite(span)
        ? rangeMin
        : rangeMin + ((value - domainMin) / span) * (rangeMax - rangeMin);
    return Number.isFinite(mapped) ? Math.min(high, Math.max(low, mapped)) : rangeMin;
  };
}

function resolveLocale(locale: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf(locale)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

// Intl formats by locale and options, made once: building one (the locale resolved, its data loaded) costs
// more than a chart formats with it, and every chart asks for the same few. Bounded: the locale is data.
const FORMATS_KEPT = 200;
const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function kept<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  const found = formats.get(key) as T | undefined;
  if (found !== undefined) return found;
  if (formats.size >= FORMATS_KEPT) formats.clear();
  const made = make();
  formats.set(key, made);
  return made;
}

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return kept(
    `number ${JSON.stringify([locale, options])}`,
    () => new Intl.NumberFormat(resolveLocale(locale), options),
  );
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return kept(
    `date ${JSON.stringify([locale, options])}`,
    () => new Intl.DateTimeFormat(resolveLocale(locale), options),
  );
}

/**
 * Formats axis values in `locale`: compact (`12K`) once the axis reaches ten thousand, otherwise with as many
 * decimals as the step needs. An unknown or malformed locale falls back to English.
 */
export function tickFormatter(locale: string, ticks: Ticks): (value: number) => string {
  const large = Math.max(Math.abs(ticks.min), Math.abs(ticks.max)) >= 10_000;
  const format = numberFormat(
    locale,
    large
      ? { notation: 'compact', maximumFractionDigits: 1 }
      : { maximumFractionDigits: Math.min(3, decimalsOf(ticks.step)) },
  );
  return (value) => format.format(value);
}

/** Formats a single value as readers expect it in text (alt text, annotations). */
export function valueFormatter(locale: string, maximumFractionDigits = 2): (value: number) => string {
  const format = numberFormat(locale, { maximumFractionDigits });
  return (value) => format.format(value);
}

/** Formats a UTC day (milliseconds since the epoch) as a short month and day in `locale`. */
export function dayFormatter(locale: string): (utcMs: number) => string {
  const format = dateFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return (utcMs) => formatTime(format, utcMs);
}

/** A time Intl can format, or a dash (a time past ±8.64e15 ms, or NaN, makes it throw). */
function formatTime(format: Intl.DateTimeFormat, utcMs: number): string {
  return Number.isFinite(utcMs) && Math.abs(utcMs) <= MAX_TIME ? format.format(new Date(utcMs)) : '–';
}

/** Formats a UTC time (milliseconds since the epoch) as hour and minute in `locale` (`6:00 AM`, `6:00`). */
export function hourFormatter(locale: string): (utcMs: number) => string {
  const format = dateFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  return (utcMs) => formatTime(format, utcMs);
}
