import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget } from '../../src/traffic/budget.ts';
import { Lease } from '../../src/announcements/lease.ts';
import { createMemoryLimits, type SharedLimits } from '../../src/traffic/index.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { ManualClock } from '../support/clock.ts';
import { busiestWindow } from '../support/announcements.ts';

let store: Store;
let clock: ManualClock;
let limits: SharedLimits;

beforeEach(async () => {
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  clock = new ManualClock();
  limits = createMemoryLimits(clock);
});

afterEach(async () => {
  await limits.close();
  await store.close();
});

describe('RequestBudget', () => {
  it('lets at most limit - reserve calls through per sliding window, keeping room for retries', async () => {
    const budget = new RequestBudget(limits, 'key', { limit: 6, windowMs: 60_000 }, clock);
    const taken: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await budget.take();
      taken.push(clock.now());
    }
    let sixth = false;
    const waiting = budget.take().then(() => (sixth = true));
    await clock.advance(59_999);
    expect(sixth).toBe(false);
    await clock.advance(1);
    await waiting;
    expect(sixth).toBe(true);
  });

  it('counts the retries a call made, without ever passing the limit', async () => {
    const budget = new RequestBudget(limits, 'key', { limit: 6, windowMs: 60_000 }, clock);
    const times: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const ticket = await driveTake(budget);
      times.push(clock.now());
      await clock.advance(1_000);
      // Every call retried once inside the tier client: two requests.
      await ticket.settle(1);
      times.push(clock.now());
    }
    expect(busiestWindow(times, 60_000)).toBeLessThanOrEqual(6);
  });

  it('is shared by every budget counting in the same limits (Redis across processes: test/limits)', async () => {
    const first = new RequestBudget(limits, 'key', { limit: 6, windowMs: 60_000 }, clock);
    for (let i = 0; i < 3; i += 1) await first.take();
    const second = new RequestBudget(limits, 'key', { limit: 6, windowMs: 60_000 }, clock);
    for (let i = 0; i < 2; i += 1) await second.take();
    expect(await second.recent()).toHaveLength(5);
    let through = false;
    const waiting = second.take().then(() => (through = true));
    await clock.advance(30_000);
    expect(through).toBe(false);
    await clock.advance(30_000);
    await waiting;
    // Another key has a budget of its own.
    const other = new RequestBudget(limits, 'other key', { limit: 6, windowMs: 60_000 }, clock);
    expect(await other.recent()).toHaveLength(0);
  });

  it('never lets more than the limit into any window, whatever the call pattern', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ gap: fc.integer({ min: 0, max: 40_000 }), retries: fc.integer({ min: 0, max: 1 }) }),
          {
            minLength: 1,
            maxLength: 25,
          },
        ),
        async (calls) => {
          const local = createMemoryLimits(clock);
          const budget = new RequestBudget(local, 'k', { limit: 6, windowMs: 60_000 }, clock);
          const times: number[] = [];
          for (const call of calls) {
            await clock.advance(call.gap);
            const ticket = await driveTake(budget);
            times.push(clock.now());
            for (let r = 0; r < call.retries; r += 1) times.push(clock.now());
            await ticket.settle(call.retries);
          }
          await local.close();
          return busiestWindow(times, 60_000) <= 6;
        },
      ),
      { numRuns: 40 },
    );
  });
});

/** Takes a ticket, moving the manual clock while the budget waits. */
async function driveTake(budget: RequestBudget) {
  let done = false;
  const taking = budget.take().finally(() => (done = true));
  const waiting = () => !done;
  for (let i = 0; i < 200 && waiting(); i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    if (waiting()) await clock.advance(1_000);
  }
  return taking;
}

describe('Lease', () => {
  it('is held by one process at a time, renewed by its holder, and handed over on release', async () => {
    const a = new Lease(store, 'events', 'process-a', 60_000);
    const b = new Lease(store, 'events', 'process-b', 60_000);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await a.renew()).toBe(true);
    expect(await a.acquire()).toBe(true);
    expect(await b.renew()).toBe(false);
    await b.release();
    expect(await a.holder()).toBe('process-a');
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(await a.renew()).toBe(false);
  });

  it('expires when its holder stops renewing it (a crash), so another process takes over', async () => {
    // The store reads lifetimes off Date: move it by hand, so no load can make the lease lapse early.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 21, 12) });
    try {
      const a = new Lease(store, 'turf', 'process-a', 60_000);
      const b = new Lease(store, 'turf', 'process-b', 60_000);
      expect(await a.acquire()).toBe(true);
      vi.setSystemTime(Date.now() + 59_999);
      expect(await b.acquire()).toBe(false);
      vi.setSystemTime(Date.now() + 2);
      expect(await b.acquire()).toBe(true);
      expect(await a.renew()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives exactly one of many concurrent contenders the lease', async () => {
    const contenders = Array.from({ length: 10 }, (_, i) => new Lease(store, 'race', `p${i}`, 60_000));
    const results = await Promise.all(contenders.map((lease) => lease.acquire()));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
