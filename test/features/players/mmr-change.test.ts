import { describe, expect, it } from 'vitest';
import type { PlayerMatch } from '../../../src/api/schemas/index.ts';
import { mmrChanges } from '../../../src/features/players/mmr-change.ts';
import { renderMatches } from '../../../src/features/players/matches.ts';
import type { Snapshot } from '../../../src/players/stats.ts';
import { translators } from '../../support/render.ts';

const { en } = translators;
const NOW = Date.parse('2026-11-27T12:00:00Z');
const HOUR = 3_600_000;

function reading(
  at: number,
  standings: Array<{ region: number; mmr: number; wins: number; losses: number }>,
): Snapshot {
  const ranked = standings.map((s) => ({ ...s, kills: 0, deaths: 0, assists: 0, score: 0 }));
  return {
    playerId: 7,
    playerName: 'Sn1per',
    at,
    stats: { score: 0, kills: 0, deaths: 0, games: 0, wins: 0, level: 1, kr: 0, clan: '', ranked },
  };
}

function match(id: string, hoursAgo: number, region = 1): PlayerMatch {
  return {
    match_id: id,
    date: new Date(NOW - hoursAgo * HOUR).toISOString(),
    region,
    victory: 1,
    kills: 10,
    deaths: 5,
  };
}

describe('the MMR a ranked match changed', () => {
  const history = [
    reading(NOW - 10 * HOUR, [{ region: 1, mmr: 1200, wins: 5, losses: 5 }]),
    // One match of region 1 later (11 played): its change is known.
    reading(NOW - 8 * HOUR, [{ region: 1, mmr: 1218, wins: 6, losses: 5 }]),
    // Two more matches later: neither one's change is known.
    reading(NOW - 2 * HOUR, [{ region: 1, mmr: 1190, wins: 6, losses: 7 }]),
  ];

  it('is the difference of the readings around it when they are exactly one match of its region apart', () => {
    const matches = [match('a', 9), match('b', 5), match('c', 4), match('d', 1), match('e', 9, 2)];
    expect(mmrChanges(matches, history, NOW)).toEqual(new Map([['a', 18]]));
  });

  it('is none for a date that is not one, or a change too large to be one match', () => {
    const odd = [{ ...match('x', 9), date: 'yesterday' }] as PlayerMatch[];
    expect(mmrChanges(odd, history, NOW)).toEqual(new Map());
    const reset = [
      reading(NOW - 10 * HOUR, [{ region: 1, mmr: 5000, wins: 1, losses: 0 }]),
      reading(NOW - 8 * HOUR, [{ region: 1, mmr: 900, wins: 2, losses: 0 }]),
    ];
    expect(mmrChanges([match('a', 9)], reset, NOW)).toEqual(new Map());
  });

  it('shows on the match line of /player matches, signed, only where it is known', () => {
    const payload = renderMatches(en, {
      name: 'Sn1per',
      data: { page: 1, per_page: 10, matches: [match('a', 9), match('b', 5)] },
      page: 1,
      season: undefined,
      pager: { page: (p: number) => `p:${p}`, label: 'l' },
      mmrChanges: new Map([['a', -12]]),
    });
    const [first, second] = (payload.embeds?.[0]?.description ?? '').split('\n');
    expect(first).toMatch(/ · MMR −12$/);
    expect(second).not.toContain('MMR');
  });
});
