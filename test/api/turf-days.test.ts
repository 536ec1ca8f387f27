import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TierClient } from '../../src/api/client.ts';
import {
  TURF_EPOCH_MS as SANDBOX_EPOCH_MS,
  startSandbox,
  type Sandbox,
} from '../../src/dev/sandbox/index.ts';
import { DAY_MS, TURF_EPOCH_MS, turfDay, turfDayDate } from '../../src/api/turf-days.ts';
import { TURF_MAP_NAMES, turfMapName } from '../../src/api/turf-maps.ts';

describe('turf days', () => {
  it('counts from 2026-03-17 00:00 UTC', () => {
    expect(new Date(TURF_EPOCH_MS).toISOString()).toBe('2026-03-17T00:00:00.000Z');
    expect(turfDay(Date.parse('2026-03-17T00:00:00.000Z'))).toBe(0);
    expect(turfDay(Date.parse('2026-03-17T23:59:59.999Z'))).toBe(0);
    expect(turfDay(Date.parse('2026-03-18T00:00:00.000Z'))).toBe(1);
    expect(turfDay(Date.parse('2026-05-20T12:00:00.000Z'))).toBe(64);
  });

  it('changes day exactly at UTC midnight, whatever the local offset of the date written', () => {
    expect(turfDay(Date.parse('2026-05-20T23:59:59.999Z'))).toBe(64);
    expect(turfDay(Date.parse('2026-05-21T00:00:00.000Z'))).toBe(65);
    // 01:30 in Berlin (UTC+2) is still the previous UTC day.
    expect(turfDay(Date.parse('2026-05-21T01:30:00+02:00'))).toBe(64);
    // 20:00 in New York (UTC-4) is already the next UTC day.
    expect(turfDay(Date.parse('2026-05-20T20:00:00-04:00'))).toBe(65);
  });

  it('counts instants before the epoch as day 0', () => {
    expect(turfDay(TURF_EPOCH_MS - 1)).toBe(0);
    expect(turfDay(Date.parse('2020-01-01T00:00:00Z'))).toBe(0);
  });

  it('gives each day its UTC midnight', () => {
    expect(turfDayDate(0)).toBe(TURF_EPOCH_MS);
    expect(new Date(turfDayDate(1)).toISOString()).toBe('2026-03-18T00:00:00.000Z');
    expect(new Date(turfDayDate(64)).toISOString()).toBe('2026-05-20T00:00:00.000Z');
    // Across the end of the year (no leap day in 2026).
    expect(new Date(turfDayDate(290)).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('turfDay and turfDayDate agree on every day boundary', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (day) => {
        expect(turfDay(turfDayDate(day))).toBe(day);
        expect(turfDay(turfDayDate(day + 1) - 1)).toBe(day);
        expect(turfDayDate(day + 1) - turfDayDate(day)).toBe(DAY_MS);
      }),
    );
  });

  it('names the spec turf maps and no others', () => {
    expect(turfMapName(0)).toBe('Burg');
    expect(turfMapName(2)).toBe('Sandstorm');
    expect(turfMapName(3)).toBe('Subzero');
    expect(turfMapName(1)).toBeUndefined();
    expect(Object.keys(TURF_MAP_NAMES)).toEqual(['0', '2', '3']);
  });
});

describe('turf days against the sandbox', () => {
  const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
  let sandbox: Sandbox;
  let client: TierClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ now: () => NOW });
    client = new TierClient({ urls: sandbox.urls });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it('uses the same epoch and gives the same day as the game', async () => {
    expect(SANDBOX_EPOCH_MS).toBe(TURF_EPOCH_MS);
    const status = await client.api.turfStatus();
    expect(status.day).toBe(turfDay(NOW));
  });
});
