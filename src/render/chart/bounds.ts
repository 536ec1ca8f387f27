/**
 * What a chart draws at most. Every number a chart gets comes from upstream or from the snapshots, and
 * one absurd value (1e308, NaN, a negative count) must cost a dropped point and a note, never an axis
 * of a billion ticks: charts keep the values inside these bounds and count the others.
 */

/** No KR price, sale count, MMR or stat comes near this; beyond it a value is garbage. */
export const MAX_CHART_VALUE = 1e12;

/** The most intervals an axis has, whatever its input (a chart asks for about 5). */
export const MAX_TICK_INTERVALS = 20;

/** Date and Intl accept no time further than this from the epoch: a formatter throws on one beyond it. */
export const MAX_TIME = 8.64e15;

/** `value` is a finite number within `[min, max]`. */
export function inRange(value: unknown, min = -MAX_CHART_VALUE, max = MAX_CHART_VALUE): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/** `value` is a finite count or price: 0 up to {@link MAX_CHART_VALUE}. */
export function isDrawableAmount(value: unknown): value is number {
  return inRange(value, 0, MAX_CHART_VALUE);
}

/** `value` is a time Date and Intl can format. */
export function isDrawableTime(value: unknown): value is number {
  return inRange(value, -MAX_TIME, MAX_TIME);
}
