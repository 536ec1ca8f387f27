import { describe, expect, it } from 'vitest';
import { BackgroundScheduler, backgroundCapacity, planIntervals } from '../../src/schedule/scheduler.ts';

/** Fair turns between owners are tested with the players feed (test/follow/schedule.test.ts). */
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

describe('what the background can count on', () => {
  it('is the key’s window less the commands’ reserve and the feeds, a minute, at least 1', () => {
    expect(backgroundCapacity({ limit: 60, reserve: 10, windowMs: 60_000, feedsPerMinute: 8 })).toBe(42);
    // A 30-second window holds twice as many a minute.
    expect(backgroundCapacity({ limit: 60, reserve: 10, windowMs: 30_000, feedsPerMinute: 8 })).toBe(92);
    expect(backgroundCapacity({ limit: 10, reserve: 5, windowMs: 60_000, feedsPerMinute: 40 })).toBe(1);
  });

  it('stretches every group’s interval by one factor when together they ask for more than that', () => {
    const demands = [
      { count: 10, targetMs: 60_000 },
      { count: 5, targetMs: 300_000 },
    ];
    // 10 + 1 a minute fits in 20: targets kept.
    expect(planIntervals(demands, 20)).toEqual([60_000, 300_000]);
    // Two requests a refresh: 22 a minute in 11 → twice as long each.
    expect(planIntervals(demands, 11, 2)).toEqual([120_000, 600_000]);
  });
});
