/**
 * Turf days: whole UTC days counted from 2026-03-17 (turf day 0). The game names days by this number in
 * its turf replies and filters (`day=`), so the bot converts both ways.
 */
export const TURF_EPOCH_MS = Date.UTC(2026, 2, 17);
export const DAY_MS = 86_400_000;
/** The last turf day the bot accepts from upstream: a century after the epoch, far inside `Date`'s range. */
export const MAX_TURF_DAY = 36_525;

/** Whether a value from upstream is a turf day the bot can show (a whole day from 0 to {@link MAX_TURF_DAY}). */
export function isTurfDay(day: unknown): day is number {
  return typeof day === 'number' && Number.isInteger(day) && day >= 0 && day <= MAX_TURF_DAY;
}

/** The turf day an instant falls in; instants before the epoch count as day 0 (turf wars had not begun). */
export function turfDay(nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - TURF_EPOCH_MS) / DAY_MS));
}

/** When a turf day starts: its UTC midnight, in epoch ms (`turfDayDate(day + 1)` is when it ends). */
export function turfDayDate(day: number): number {
  return TURF_EPOCH_MS + day * DAY_MS;
}
