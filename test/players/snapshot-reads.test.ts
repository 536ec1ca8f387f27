import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.ts';
import { DAY_MS, HOUR_MS, SnapshotStore, type NearTarget } from '../../src/players/snapshots.ts';
import type { SnapshotStats } from '../../src/players/stats.ts';
import { sqlBackends } from '../support/postgres.ts';

/**
 * `nearAndHistory` reads in one query what `near` (once per target) and `history` read in several: its
 * answers must be theirs, on every database the bot runs on, whatever points were kept.
 */
const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);

function stats(kills: number): SnapshotStats {
  return { score: kills, kills, deaths: 1, games: 1, wins: 0, level: 1, kr: 0, clan: '', ranked: [] };
}

/** The profile's targets: yesterday within 6 hours, last week within a day. */
function targetsAt(now: number): NearTarget[] {
  return [
    { at: now - DAY_MS, toleranceMs: 6 * HOUR_MS },
    { at: now - 7 * DAY_MS, toleranceMs: DAY_MS },
  ];
}

const backends = sqlBackends('snapshot_reads');

for (const backend of backends) {
  describe.runIf(backend.available)(`snapshot reads on ${backend.name}`, () => {
    let opened: { db: Database; close(): Promise<void> };
    let store: SnapshotStore;
    beforeEach(async () => {
      opened = await backend.open();
      store = new SnapshotStore(opened.db);
    }, 30_000);
    afterEach(() => opened.close());

    const capture = (playerId: number, at: number, kills: number) =>
      store.capture({ playerId, playerName: `P${playerId}`, at, stats: stats(kills) });

    async function expectSameAsSeparateReads(playerId: number, now: number) {
      const targets = targetsAt(now);
      const together = await store.nearAndHistory(playerId, targets, now - DAY_MS);
      const apart = await Promise.all(targets.map((t) => store.near(playerId, t.at, t.toleranceMs)));
      expect(together.near).toEqual(apart);
      expect(together.history()).toEqual(await store.history(playerId, now - DAY_MS));
    }

    it('finds yesterday, last week and today as the separate reads do, at every hour of a fortnight', async () => {
      // Daily reads for two weeks (at 07:10), hourly reads over the last two days, and another player's
      // points in between, which no answer may take.
      for (let day = 0; day < 14; day += 1) await capture(7, T0 + day * DAY_MS + 7 * HOUR_MS + 600_000, day);
      for (let hour = 0; hour < 48; hour += 1)
        await capture(7, T0 + 14 * DAY_MS + hour * HOUR_MS + 60_000, 100 + hour);
      for (let day = 0; day < 16; day += 1) await capture(8, T0 + day * DAY_MS + 12 * HOUR_MS, 1000 + day);
      let found = { day: 0, week: 0, today: 0 };
      for (let now = T0 + 2 * DAY_MS; now <= T0 + 17 * DAY_MS; now += 5 * HOUR_MS + 17 * 60_000) {
        await expectSameAsSeparateReads(7, now);
        const read = await store.nearAndHistory(7, targetsAt(now), now - DAY_MS);
        found = {
          day: found.day + (read.near[0] ? 1 : 0),
          week: found.week + (read.near[1] ? 1 : 0),
          today: found.today + read.history().length,
        };
      }
      // The fortnight has times with and without each kind of point.
      expect(found.day).toBeGreaterThan(0);
      expect(found.week).toBeGreaterThan(0);
      expect(found.today).toBeGreaterThan(0);
    });

    it('takes the earlier of two points as far from the target, and nothing outside the tolerance', async () => {
      const now = T0 + 10 * DAY_MS;
      await capture(7, now - DAY_MS - 2 * HOUR_MS, 1);
      await capture(7, now - DAY_MS + 2 * HOUR_MS, 2);
      await capture(7, now - 7 * DAY_MS - DAY_MS - 1, 3);
      const read = await store.nearAndHistory(7, targetsAt(now), now - DAY_MS);
      expect(read.near.map((point) => point?.stats.kills)).toEqual([1, undefined]);
      expect(read.history().map((point) => point.stats.kills)).toEqual([2]);
      await expectSameAsSeparateReads(7, now);
    });

    it('answers nothing for a player without points', async () => {
      const read = await store.nearAndHistory(9, targetsAt(T0), T0 - DAY_MS);
      expect(read.near).toEqual([undefined, undefined]);
      expect(read.history()).toEqual([]);
    });
  });
}
