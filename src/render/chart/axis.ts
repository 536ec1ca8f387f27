export interface Ticks {
  min: number;
  max: number;
  step: number;
  values: number[];
}

const NICE_FRACTIONS = [1, 2, 2.5, 5, 10];

/** The smallest "round" step (1, 2, 2.5 or 5 times a power of ten) not below `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const nice = NICE_FRACTIONS.find((candidate) => candidate >= fraction - 1e-9) ?? 10;
  return nice * magnitude;
}

/** The "round" step (1, 2, 2.5 or 5 times a power of ten) nearest to `raw`. */
function nearestNiceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const nice = fraction < 1.5 ? 1 : fraction < 2.25 ? 2 : fraction < 3.5 ? 2.5 : fraction < 7.5 ? 5 : 10;
  return nice * magnitude;
}

function decimalsOf(step: number): number {
  for (let decimals = 0; decimals < 10; decimals++) {
    const scaled = step * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6) return decimals;
  }
  return 10;
}

function ticksFrom(start: number, step: number, intervals: number): Ticks {
  const decimals = decimalsOf(step);
  const values: number[] = [];
  for (let i = 0; i <= intervals; i++) values.push(Number((start + i * step).toFixed(decimals)));
  return { min: values[0] ?? start, max: values[values.length - 1] ?? start, step, values };
}

/** About `target` intervals of a round step covering [min, max]. */
export function niceTicks(min: number, max: number, target = 5): Ticks {
  let low = Math.min(min, max);
  let high = Math.max(min, max);
  if (low === high) {
    const pad = low === 0 ? 1 : Math.abs(low) * 0.1;
    low -= pad;
    high += pad;
    if (min >= 0 && low < 0) low = 0;
  }
  const step = nearestNiceStep((high - low) / target);
  const start = Math.floor(low / step + 1e-9) * step;
  const intervals = Math.max(1, Math.ceil((high - start) / step - 1e-9));
  return ticksFrom(start, step, intervals);
}

/**
 * Ticks from 0 with exactly `intervals` intervals, so a second axis lines up with the first one's gridlines.
 * Steps are whole numbers when `integer` is set (counts cannot be fractional).
 */
export function zeroBasedTicks(max: number, intervals: number, integer: boolean): Ticks {
  let step = niceStep(Math.max(max, 0) / intervals);
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
  return (value) => (span === 0 ? rangeMin : rangeMin + ((value - domainMin) / span) * (rangeMax - rangeMin));
}

function resolveLocale(locale: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf(locale)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/**
 * Formats axis values in `locale`: compact (`12K`) once the axis reaches ten thousand, otherwise with as many
 * decimals as the step needs. An unknown or malformed locale falls back to English.
 */
export function tickFormatter(locale: string, ticks: Ticks): (value: number) => string {
  const large = Math.max(Math.abs(ticks.min), Math.abs(ticks.max)) >= 10_000;
  const format = new Intl.NumberFormat(
    resolveLocale(locale),
    large
      ? { notation: 'compact', maximumFractionDigits: 1 }
      : { maximumFractionDigits: Math.min(3, decimalsOf(ticks.step)) },
  );
  return (value) => format.format(value);
}

/** Formats a single value as readers expect it in text (alt text, annotations). */
export function valueFormatter(locale: string, maximumFractionDigits = 2): (value: number) => string {
  const format = new Intl.NumberFormat(resolveLocale(locale), { maximumFractionDigits });
  return (value) => format.format(value);
}

/** Formats a UTC day (milliseconds since the epoch) as a short month and day in `locale`. */
export function dayFormatter(locale: string): (utcMs: number) => string {
  const format = new Intl.DateTimeFormat(resolveLocale(locale), {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  return (utcMs) => format.format(new Date(utcMs));
}

/** Formats a UTC time (milliseconds since the epoch) as hour and minute in `locale` (`6:00 AM`, `6:00`). */
export function hourFormatter(locale: string): (utcMs: number) => string {
  const format = new Intl.DateTimeFormat(resolveLocale(locale), {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  });
  return (utcMs) => format.format(new Date(utcMs));
}
