import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/index.ts';
import { DAY_MS, HOUR_MS, SnapshotStore } from '../../../src/players/snapshots.ts';
import { GuildMembers } from '../../../src/players/members.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import { statValue, type SnapshotStats } from '../../../src/players/stats.ts';

const T0 = Date.UTC(2026, 10, 24, 0, 0, 0);

function stats(kills: number, overrides: Partial<SnapshotStats> = {}): SnapshotStats {
  return {
    score: kills * 100,
    kills,
    deaths: 10,
    games: 5,
    wins: 3,
    level: 2,
    kr: 0,
    clan: '',
    ranked: [],
    ...overrides,
  };
}

let db: Database;
let store: SnapshotStore;
beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  store = new SnapshotStore(db);
});
afterEach(async () => {
  await db.close();
});

const capture = (at: number, kills: number, name = 'Ann') =>
  store.capture({ playerId: 7, playerName: name, at, stats: stats(kills) });

describe('snapshot capture', () => {
  it('keeps at most one point an hour: the first read of the hour', async () => {
    expect(await capture(T0 + 5 * 60_000, 10)).toBe(true);
    expect(await capture(T0 + 50 * 60_000, 11)).toBe(false);
    expect(await capture(T0 + HOUR_MS + 1, 12)).toBe(true);
    const points = await store.history(7, T0);
    expect(points.map((p) => p.stats.kills)).toEqual([10, 12]);
  });

  it('keeps the latest numbers of each player, found by name in any case', async () => {
    await capture(T0, 10);
    await capture(T0 + HOUR_MS, 20, 'ANN');
    expect((await store.latestByName('ann'))?.stats.kills).toBe(20);
    const many = await store.latestByNames(['Ann', 'nobody']);
    expect([...many.keys()]).toEqual(['ann']);
  });

  it('answers history from daily points, and hourly ones where they are finer', async () => {
    // One read a day for 10 days, then reads every hour of the last day.
    for (let day = 0; day < 10; day += 1) await capture(T0 + day * DAY_MS, day);
    for (let hour = 1; hour < 24; hour += 1) await capture(T0 + 9 * DAY_MS + hour * HOUR_MS, 100 + hour);
    const points = await store.history(7, T0);
    const times = points.map((p) => p.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Days 0..8 once each (daily points), then day 9's 24 hourly points.
    expect(points).toHaveLength(9 + 24);
    expect(points.at(-1)?.stats.kills).toBe(123);
  });

  it('finds the point nearest a time within a tolerance', async () => {
    await capture(T0, 1);
    await capture(T0 + 20 * HOUR_MS, 2);
    await capture(T0 + 30 * HOUR_MS, 3);
    expect((await store.near(7, T0 + 24 * HOUR_MS, 6 * HOUR_MS))?.stats.kills).toBe(2);
    expect(await store.near(7, T0 + 100 * HOUR_MS, HOUR_MS)).toBeUndefined();
  });

  it('prunes hourly points after 48 hours and daily points after 400 days', async () => {
    await capture(T0, 1);
    await capture(T0 + 3 * DAY_MS, 2);
    const now = T0 + 3 * DAY_MS + HOUR_MS;
    const removed = await store.prune(now);
    expect(removed).toBe(1); // the first hourly point; its daily point stays
    expect((await store.history(7, T0)).map((p) => p.stats.kills)).toEqual([1, 2]);
    expect(await store.prune(T0 + 404 * DAY_MS)).toBe(3);
    expect(await store.history(7, T0)).toEqual([]);
  });

  it('reads a damaged row as missing, never as numbers', async () => {
    await capture(T0, 1);
    await db.kysely.updateTable('player_snapshots').set({ stats: '{"kills":"lots"}' }).execute();
    expect(await store.history(7, T0)).toEqual([]);
  });

  it('computes K/D and ranked MMR per region from the stats', () => {
    const s = stats(30, {
      deaths: 12,
      ranked: [{ region: 3, mmr: 1500, wins: 1, losses: 0, kills: 1, deaths: 1, assists: 0, score: 1 }],
    });
    expect(statValue(s, 'kd')).toBe(2.5);
    expect(statValue(s, 'mmr-3')).toBe(1500);
    expect(statValue(s, 'mmr-2')).toBeUndefined();
    expect(statValue(stats(4, { deaths: 0 }), 'kd')).toBe(4);
  });
});

describe('guild members', () => {
  it('lists the members seen in a server who have a verified link, and forgets one who left', async () => {
    const members = new GuildMembers(db);
    await accountLinks({ db }).set('u1', { playerName: 'Ann', linkedAt: T0 });
    await members.seen('g1', 'u1', T0);
    await members.seen('g1', 'u2', T0); // not linked
    await members.seen('g2', 'u1', T0);
    expect(await members.linked('g1')).toEqual([{ userId: 'u1', playerName: 'Ann' }]);
    await members.forget('g1', 'u1');
    expect(await members.linked('g1')).toEqual([]);
    expect(await members.linked('g2')).toHaveLength(1);
  });
});
