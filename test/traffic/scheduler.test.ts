import { describe, expect, it } from 'vitest';
import { BackgroundScheduler, backgroundCapacity } from '../../src/traffic/scheduler.ts';

/** Fair turns between owners are tested with the players feed (test/features/tracking/schedule.test.ts). */
describe('the background scheduler', () => {
  it('frees the turn of a work that fails, and gives it to the next waiter', async () => {
    const scheduler = new BackgroundScheduler({ concurrency: 1 });
    const failing = scheduler.run('a', () => Promise.reject(new Error('upstream down')));
    const next = scheduler.run('b', () => Promise.resolve('ran'));
    await expect(failing).rejects.toThrow('upstream down');
    await expect(next).resolves.toBe('ran');
    expect(scheduler.served).toBe(2);
    expect(scheduler.waiting).toBe(0);
  });

  it('refuses at once, without taking a turn, when the signal is already aborted', async () => {
    const scheduler = new BackgroundScheduler();
    const abort = new AbortController();
    abort.abort(new Error('stopping'));
    let ran = false;
    await expect(scheduler.run('a', () => Promise.resolve((ran = true)), abort.signal)).rejects.toThrow(
      'stopping',
    );
    expect(ran).toBe(false);
    expect(scheduler.served).toBe(0);
  });
});

/** How the background is split between tracking, linked players and alerts: test/traffic/planner.test.ts. */
describe('what the background can count on', () => {
  it('is the key’s window less the commands’ reserve and the feeds, a minute, at least 1', () => {
    expect(backgroundCapacity({ limit: 60, reserve: 10, windowMs: 60_000, feedsPerMinute: 8 })).toBe(42);
    // A 30-second window holds twice as many a minute.
    expect(backgroundCapacity({ limit: 60, reserve: 10, windowMs: 30_000, feedsPerMinute: 8 })).toBe(92);
    expect(backgroundCapacity({ limit: 10, reserve: 5, windowMs: 60_000, feedsPerMinute: 40 })).toBe(1);
  });
});
