import { describe, expect, it } from 'vitest';
import { amount, digestOf, type DigestReplies } from '../../../../src/features/turf/digest/collect.ts';

/** From the game's replies to a digest: checked numbers, sorted and cut lists, the members who scored nothing. */
const replies: DigestReplies = {
  clanId: 7,
  clanName: 'Vortex',
  day: 249,
  board: {
    rows: [
      { clan_id: 3, clan_name: 'Other', position: 1, points: 900 },
      { clan_id: 7, clan_name: 'Vortex', position: 2, points: 600 },
    ],
  },
  earnings: {
    clan_id: 7,
    days: [
      { day: 248, kr: 1 },
      { day: 249, kr: 2_500 },
    ],
  },
  players: {
    clan_id: 7,
    players: [
      { player_id: 1, player_name: 'Low', points: 100, kills: 1, deaths: 2 },
      { player_id: 2, player_name: 'High', points: 500, kills: 9, deaths: 3 },
      { player_id: 3, player_name: 'Zero', points: 0, kills: 0, deaths: 0 },
    ],
  },
  payouts: { clan_id: 7, payouts: [{ player_id: 2, player_name: 'High', kr: 2_000 }] },
  roster: {
    clan_id: 7,
    name: 'Vortex',
    members: [{ n: 'High' }, { n: 'Low' }, { n: 'Zero' }, { n: 'Away' }],
  },
};

describe('digestOf', () => {
  it('takes the day’s place, points and KR, best players first, and who scored nothing', () => {
    const digest = digestOf(replies);
    expect(digest).toMatchObject({ position: 2, points: 600, kr: 2_500, played: 2, paid: 1, paidKr: 2_000 });
    expect(digest.contributors.map((c) => c.name)).toEqual(['High', 'Low']);
    expect(digest.idle).toEqual({ names: ['Away', 'Zero'], count: 2, roster: 4 });
  });

  it('reads a clan missing from the board as outside it, with its players’ points', () => {
    const digest = digestOf({ ...replies, board: { rows: [] } });
    expect(digest.position).toBeNull();
    expect(digest.points).toBe(600);
    const unread = digestOf({ ...replies, board: undefined, roster: undefined });
    expect(unread.position).toBeUndefined();
    expect(unread.idle).toBeUndefined();
  });

  it('degrades a number out of range to unknown, one line at a time', () => {
    expect(amount(1e13)).toBeUndefined();
    expect(amount(-1)).toBeUndefined();
    expect(amount(Number.NaN)).toBeUndefined();
    const digest = digestOf({
      ...replies,
      board: { rows: [{ clan_id: 7, clan_name: 'Vortex', position: 0, points: 1e300 }] },
      earnings: { clan_id: 7, days: [{ day: 249, kr: 1e15 }] },
      players: {
        clan_id: 7,
        players: [
          { player_id: 1, player_name: 'Huge', points: 1e300, kills: -5, deaths: 3 },
          { player_id: 2, player_name: 'Fine', points: 10, kills: 1, deaths: 1 },
        ],
      },
    });
    expect(digest.position).toBeUndefined();
    expect(digest.kr).toBeUndefined();
    expect(digest.points).toBe(10);
    // The player whose points cannot be read is still a player of the day, listed last, without numbers.
    expect(digest.contributors).toEqual([
      { name: 'Fine', points: 10, kills: 1, deaths: 1 },
      { name: 'Huge', deaths: 3 },
    ]);
  });
});
