import { describe, expect, it } from 'vitest';
import type { PlayerProfile } from '../../src/api/schemas/index.ts';
import { parseStats } from '../../src/players/snapshots.ts';
import {
  HISTORY_STATS,
  higherIsBetter,
  isHistoryStat,
  killDeathRatio,
  rankedMatches,
  statValue,
  statsOf,
  type SnapshotStats,
} from '../../src/players/stats.ts';

const standing = (region: number, mmr: number, wins = 4, losses = 2) => ({
  region,
  mmr,
  wins,
  losses,
  kills: 10,
  deaths: 5,
  assists: 1,
  score: 100,
});

const base: SnapshotStats = {
  score: 5000,
  kills: 30,
  deaths: 0,
  games: 4,
  wins: 2,
  level: 9,
  kr: 12,
  clan: 'Vortex',
  ranked: [standing(3, 1450)],
};

describe('snapshot stats', () => {
  it('reads K/D as the game shows it: kills alone while there are no deaths', () => {
    expect(killDeathRatio(30, 0)).toBe(30);
    expect(killDeathRatio(30, 12)).toBe(2.5);
    expect(statValue(base, 'kd')).toBe(30);
    expect(statValue({ ...base, deaths: 20 }, 'kd')).toBe(1.5);
  });

  it('reads MMR of one region only, and nothing where the player has no standing there', () => {
    expect(statValue(base, 'mmr-3')).toBe(1450);
    expect(statValue(base, 'mmr-2')).toBeUndefined();
    expect(statValue(base, 'level')).toBe(9);
    expect(rankedMatches({ ...base, ranked: [standing(2, 1, 3, 1), standing(4, 1, 2, 2)] })).toBe(8);
  });

  it('knows its stats, and that fewer deaths is the better value', () => {
    expect(HISTORY_STATS).toEqual([
      'kd',
      'score',
      'kills',
      'deaths',
      'wins',
      'level',
      'kr',
      'mmr-2',
      'mmr-3',
      'mmr-4',
    ]);
    expect(isHistoryStat('mmr-4')).toBe(true);
    expect(isHistoryStat('mmr-5')).toBe(false);
    expect(isHistoryStat(3)).toBe(false);
    expect(higherIsBetter('deaths')).toBe(false);
    expect(higherIsBetter('kd')).toBe(true);
  });

  it('counts a field the reply left out or sent as a non-number as 0, and keeps at most 16 regions', () => {
    const profile = {
      score: 10,
      kills: Number.NaN,
      level: Number.POSITIVE_INFINITY,
      ranked: Array.from({ length: 20 }, (_, i) => ({ region: i, mmr: 100 + i })),
    } as unknown as PlayerProfile;
    const stats = statsOf(profile);
    expect(stats).toMatchObject({ score: 10, kills: 0, deaths: 0, level: 0, kr: 0, clan: '' });
    expect(stats.ranked).toHaveLength(16);
    expect(stats.ranked[0]).toEqual({
      region: 0,
      mmr: 100,
      wins: 0,
      losses: 0,
      kills: 0,
      deaths: 0,
      assists: 0,
      score: 0,
    });
  });

  it('reads a damaged stored row as nothing, never as wrong numbers', () => {
    expect(parseStats(JSON.stringify(base))).toEqual(base);
    expect(parseStats('{"score": 1')).toBeUndefined();
    expect(parseStats(JSON.stringify({ ...base, kills: '30' }))).toBeUndefined();
    expect(parseStats(JSON.stringify({ ...base, ranked: Array(17).fill(standing(2, 1)) }))).toBeUndefined();
    expect(parseStats(null)).toBeUndefined();
  });
});
