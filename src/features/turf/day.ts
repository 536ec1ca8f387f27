import { UserError } from '../../core/user-error.ts';
import { DAY_MS, MAX_TURF_DAY, TURF_EPOCH_MS, isTurfDay, turfDay, turfDayDate } from '../../api/turf-days.ts';

/**
 * The `day` option of the turf commands: a calendar date (`YYYY-MM-DD`, a UTC day), turned into the
 * spec's turf day (whole UTC days since 2026-03-17). A user types dates, never day numbers; the game
 * only knows day numbers.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date of a turf day, `YYYY-MM-DD` (UTC). */
export function turfDayIso(day: number): string {
  return new Date(turfDayDate(day)).toISOString().slice(0, 10);
}

/** The UTC midnight a `YYYY-MM-DD` names, or undefined when it is no real calendar date. */
function utcMidnight(value: string): number | undefined {
  const match = DATE.exec(value.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March: a date that does not read back the same does not exist.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day)
    return undefined;
  return ms;
}

/**
 * The turf day of a date given by a user, checked against `now`: a malformed date, one before turf
 * wars began or one after today (UTC) is a user error naming what is allowed.
 */
export function parseTurfDate(value: string, now: number): number {
  const today = turfDay(now);
  const vars = { first: turfDayIso(0), today: turfDayIso(today) };
  const ms = utcMidnight(value);
  if (ms === undefined) throw new UserError('turf:errors.dateFormat', vars);
  if (ms < TURF_EPOCH_MS) throw new UserError('turf:errors.dateBeforeEpoch', vars);
  const day = Math.round((ms - TURF_EPOCH_MS) / DAY_MS);
  if (day > today) throw new UserError('turf:errors.dateFuture', vars);
  return day;
}

/** A turf day read back from a component id: a whole day from 0 to today, else undefined. */
export function storedTurfDay(value: string, now: number): number | undefined {
  if (!/^\d{1,6}$/.test(value)) return undefined;
  const day = Number(value);
  return isTurfDay(day) && day <= Math.min(turfDay(now), MAX_TURF_DAY) ? day : undefined;
}

/** Autocomplete choices for the `day` option: the most recent dates (today first) matching what was typed. */
export function recentTurfDates(
  now: number,
  typed: string,
  label: (day: number, iso: string) => string,
  limit = 25,
): Array<{ name: string; value: string }> {
  const today = turfDay(now);
  const prefix = typed.trim();
  const out: Array<{ name: string; value: string }> = [];
  // Bounded: at most a year of days is looked at, and at most `limit` are given.
  for (let day = today; day >= Math.max(0, today - 366) && out.length < limit; day -= 1) {
    const iso = turfDayIso(day);
    if (iso.startsWith(prefix)) out.push({ name: label(day, iso), value: iso });
  }
  return out;
}
