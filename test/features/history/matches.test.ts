import { describe, expect, it } from 'vitest';
import type { PlayerMatch } from '../../../src/api/schemas/index.ts';
import {
  matchReadings,
  perMatchPoints,
  resultMarks,
  summarySince,
} from '../../../src/features/history/matches.ts';
import { changeFields } from '../../../src/features/history/render.ts';
import type { SnapshotStats } from '../../../src/players/stats.ts';
import { translators } from '../../support/render.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 12);

function match(daysAgo: number, extra: Partial<PlayerMatch> = {}): PlayerMatch {
  return {
    match_id: String(1000 + daysAgo),
    date: new Date(NOW - daysAgo * DAY).toISOString(),
    kills: 16,
    deaths: 12,
    score: 3000,
    victory: 1,
    region: 3,
    ...extra,
  };
}

const stats = (kills: number): SnapshotStats => ({
  score: 0,
  kills,
  deaths: 10,
  games: 1,
  wins: 0,
  level: 1,
  kr: 0,
  clan: '',
  ranked: [],
});

describe('the match history as time-based points', () => {
  it('keeps matches with a believable date and counts, oldest first', () => {
    const readings = matchReadings([
      match(1),
      match(3, { victory: 0, region: 2 }),
      match(2, { date: 'yesterday' }),
      match(2, { kills: -1 }),
      match(2, { deaths: 1e9 }),
      match(2, { date: '1970-01-01T00:00:00Z' }),
      match(4, { victory: 7, kills: 5, deaths: 0 }),
    ]);
    expect(readings.map((r) => r.at)).toEqual([NOW - 4 * DAY, NOW - 3 * DAY, NOW - DAY]);
    expect(readings.map((r) => r.result)).toEqual([undefined, 'loss', 'win']);
    // K/D per match as the game shows it: kills alone without deaths.
    expect(perMatchPoints(readings, 'kd').map((p) => p.value)).toEqual([5, 16 / 12, 16 / 12]);
    expect(perMatchPoints(readings, 'level')).toEqual([]);
    // The results strip: a region's MMR shows that region's matches only; level none.
    expect(resultMarks(readings, 'wins')).toHaveLength(2);
    expect(resultMarks(readings, 'mmr-2')).toEqual([{ at: NOW - 3 * DAY, result: 'loss' }]);
    expect(resultMarks(readings, 'level')).toEqual([]);
  });

  it('sums a window only when the page read reaches back that far', () => {
    const page = matchReadings(Array.from({ length: 10 }, (_, i) => match(i * 0.1)));
    // A full page whose oldest match is within the last day may leave matches of the week out.
    expect(summarySince(page, NOW - 7 * DAY, false)).toBeUndefined();
    expect(summarySince(page, NOW - DAY, false)).toBeUndefined();
    // The whole history (a page not full) is whole for any window.
    expect(summarySince(page, NOW - 7 * DAY, true)).toEqual({ played: 10, wins: 10, losses: 0, kd: 16 / 12 });
    const older = matchReadings([match(0.5), match(2, { victory: 0 }), match(9)]);
    expect(summarySince(older, NOW - DAY, false)).toMatchObject({ played: 1, wins: 1 });
    expect(summarySince(older, NOW - 7 * DAY, false)).toMatchObject({ played: 2, wins: 1, losses: 1 });
  });
});

describe('the profile’s change lines without snapshots of yesterday or last week', () => {
  it('show the change since the bot first saw the player today, and the ranked matches', () => {
    const { en } = translators;
    const earliest = { playerId: 1, playerName: 'a', at: NOW - 5 * 3_600_000, stats: stats(100) };
    const readings = matchReadings([match(0.2), match(0.5, { victory: 0 }), match(3)]);
    const fields = changeFields(en, stats(130), { earliest }, { readings, complete: true, now: NOW });
    const byName = Object.fromEntries(fields.map((f) => [f.name, f.value]));
    expect(byName['Change']).toMatch(/^Since <t:\d+:R>: .*Kills \+30/);
    expect(byName['Ranked, last 24 hours']).toBe('2 matches · 1 W / 1 L · K/D 1.33');
    expect(byName['Ranked, last 7 days']).toBe('3 matches · 2 W / 1 L · K/D 1.33');
    expect(byName['Since yesterday']).toBeUndefined();
    // Nothing to show: no field at all.
    expect(changeFields(en, stats(130), {})).toEqual([]);
  });
});
