import { afterEach, describe, expect, it } from 'vitest';
import { ReminderRuns } from '../../../../src/features/turf/reminders/runs.ts';
import { sqlBackends } from '../../../support/postgres.ts';

/**
 * A reminder's runs on SQLite and PostgreSQL: one per reminder and day whoever writes it (the first
 * write wins), the latest of each, a week kept.
 */
const backends = sqlBackends('reminder_runs');

let closing: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closing?.();
  closing = undefined;
});

for (const backend of backends) {
  describe.runIf(backend.available)(`reminder runs on ${backend.name}`, () => {
    it('keeps one run per reminder and day, the first one written', async () => {
      const opened = await backend.open();
      const db = opened.db;
      closing = () => opened.close();
      const runs = new ReminderRuns(db);
      const run = { subscriptionId: 'abc234', guildId: 'g1', day: 249, at: 1_795_305_600_000 };
      const written = await Promise.all([
        runs.record({ ...run, status: 'queued' }),
        runs.record({ ...run, status: 'missed', at: run.at + 1 }),
      ]);
      expect(written.filter(Boolean)).toHaveLength(1);
      expect(await runs.on(249)).toEqual(new Set(['abc234']));
      expect(await runs.on(250)).toEqual(new Set());
      const latest = (await runs.latest(['abc234'])).get('abc234');
      expect(latest?.day).toBe(249);
      expect(typeof latest?.at).toBe('number');
    });

    it('gives each reminder’s latest run, prunes runs older than a week, and forgets a removed reminder', async () => {
      const opened = await backend.open();
      const db = opened.db;
      closing = () => opened.close();
      const runs = new ReminderRuns(db);
      for (const day of [240, 248, 249])
        await runs.record({ subscriptionId: 'a', guildId: 'g', day, status: 'queued', at: day });
      await runs.record({ subscriptionId: 'b', guildId: 'g', day: 249, status: 'missed', at: 1 });
      expect(await runs.on(240)).toEqual(new Set());
      const latest = await runs.latest(['a', 'b', 'c']);
      expect(latest.get('a')).toEqual({ day: 249, status: 'queued', at: 249 });
      expect(latest.get('b')).toEqual({ day: 249, status: 'missed', at: 1 });
      expect(latest.has('c')).toBe(false);
      await runs.forget('a');
      expect(await runs.on(249)).toEqual(new Set(['b']));
    });
  });
}
