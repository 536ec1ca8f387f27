import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/user-error.ts';
import { parseTurfDate, recentTurfDates, storedTurfDay, turfDayIso } from '../../../src/features/turf/day.ts';
import { turfDay } from '../../../src/api/turf-days.ts';

/** The `day` option: a date (UTC) turned into the spec's turf day, checked against now. */
const NOV_27_NOON = Date.UTC(2026, 10, 27, 12, 0, 0);
const DAY_OF_NOV_27 = 255;

function keyOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof UserError ? error.key : String(error);
  }
}

describe('parseTurfDate', () => {
  it('counts whole UTC days from 2026-03-17', () => {
    expect(parseTurfDate('2026-03-17', NOV_27_NOON)).toBe(0);
    expect(parseTurfDate('2026-03-18', NOV_27_NOON)).toBe(1);
    expect(parseTurfDate('2026-05-20', NOV_27_NOON)).toBe(64);
    expect(parseTurfDate(' 2026-11-27 ', NOV_27_NOON)).toBe(DAY_OF_NOV_27);
    expect(turfDay(NOV_27_NOON)).toBe(DAY_OF_NOV_27);
  });

  it('refuses what is not a real date, naming the allowed range', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '26-11-27', '2026/11/27', 'yesterday', '', '2026-11-2']) {
      expect(
        keyOf(() => parseTurfDate(bad, NOV_27_NOON)),
        bad,
      ).toBe('turf:errors.dateFormat');
    }
    try {
      parseTurfDate('nope', NOV_27_NOON);
    } catch (error) {
      expect((error as UserError).vars).toEqual({ first: '2026-03-17', today: '2026-11-27' });
    }
  });

  it('refuses a date before turf wars began and one still to come', () => {
    expect(keyOf(() => parseTurfDate('2026-03-16', NOV_27_NOON))).toBe('turf:errors.dateBeforeEpoch');
    expect(keyOf(() => parseTurfDate('1999-01-01', NOV_27_NOON))).toBe('turf:errors.dateBeforeEpoch');
    expect(keyOf(() => parseTurfDate('2026-11-28', NOV_27_NOON))).toBe('turf:errors.dateFuture');
    expect(keyOf(() => parseTurfDate('9999-12-31', NOV_27_NOON))).toBe('turf:errors.dateFuture');
  });

  it('lets tomorrow in at UTC midnight, not a millisecond before', () => {
    const midnight = Date.UTC(2026, 10, 28);
    expect(keyOf(() => parseTurfDate('2026-11-28', midnight - 1))).toBe('turf:errors.dateFuture');
    expect(parseTurfDate('2026-11-27', midnight - 1)).toBe(DAY_OF_NOV_27);
    expect(parseTurfDate('2026-11-28', midnight)).toBe(DAY_OF_NOV_27 + 1);
    expect(turfDay(midnight)).toBe(DAY_OF_NOV_27 + 1);
  });
});

describe('turf days read back and offered', () => {
  it('writes a turf day as its date, the inverse of parsing', () => {
    for (const day of [0, 1, 64, DAY_OF_NOV_27])
      expect(parseTurfDate(turfDayIso(day), NOV_27_NOON)).toBe(day);
  });

  it('accepts from a button only a whole day up to today', () => {
    expect(storedTurfDay('64', NOV_27_NOON)).toBe(64);
    expect(storedTurfDay('0', NOV_27_NOON)).toBe(0);
    for (const bad of ['256', '-1', '1e3', '6.5', '', 'x', '99999999'])
      expect(storedTurfDay(bad, NOV_27_NOON), bad).toBeUndefined();
  });

  it('offers the most recent dates first, filtered by what was typed, at most 25', () => {
    const all = recentTurfDates(NOV_27_NOON, '', (day, iso) => `${iso} #${day}`);
    expect(all).toHaveLength(25);
    expect(all[0]).toEqual({ name: '2026-11-27 #255', value: '2026-11-27' });
    expect(all[1]?.value).toBe('2026-11-26');
    const october = recentTurfDates(NOV_27_NOON, '2026-10-0', (_, iso) => iso);
    expect(october.map((c) => c.value)).toEqual([
      '2026-10-09',
      '2026-10-08',
      '2026-10-07',
      '2026-10-06',
      '2026-10-05',
      '2026-10-04',
      '2026-10-03',
      '2026-10-02',
      '2026-10-01',
    ]);
    // Nothing before the epoch, and nothing at all for a date that is no turf day.
    expect(recentTurfDates(Date.UTC(2026, 2, 18, 1), '', (_, iso) => iso).map((c) => c.value)).toEqual([
      '2026-03-18',
      '2026-03-17',
    ]);
    expect(recentTurfDates(NOV_27_NOON, '2025', (_, iso) => iso)).toEqual([]);
  });
});
