import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LimitGate, LimitsClosedError, LimitWaitError, type LimitWindow } from '../../src/traffic/index.ts';
import { MemoryWindows } from '../../src/traffic/memory.ts';
import { claimOf, type WindowStore } from '../../src/traffic/window.ts';
import { ManualClock } from '../support/clock.ts';
import { busiestWindow, Driver, GENERAL } from '../support/traffic.ts';

/**
 * The limits in memory (one process; in tests, several gates over one store stand for several processes):
 * sliding windows, waits that end exactly when a slot frees, background leaving the reserve, priority and
 * arrival order, several windows at once. The same properties over Redis: redis.test.ts.
 */
let clock: ManualClock;
let store: MemoryWindows;
let gates: LimitGate[];

function gate(): LimitGate {
  const made = new LimitGate(store, clock, 'test:');
  gates.push(made);
  return made;
}

beforeEach(() => {
  clock = new ManualClock();
  store = new MemoryWindows();
  gates = [];
});

afterEach(async () => {
  for (const made of gates) await made.close();
});

const small: LimitWindow = { scope: 'key', name: 'requests', limit: 3, windowMs: 60_000 };

describe('limits in memory', () => {
  it('grants up to the limit at once, then exactly when the oldest request leaves the window', async () => {
    const limits = gate();
    const driver = new Driver(clock, [limits]);
    const start = clock.now();
    for (let i = 0; i < 3; i += 1) void driver.take(limits, 'a', [small], 'interactive');
    await clock.advance(10_000);
    for (let i = 0; i < 3; i += 1) void driver.take(limits, 'a', [small], 'interactive');
    await driver.settle();
    expect(driver.times()).toEqual([start, start, start]);
    expect(limits.waiting).toBe(3);
    expect(clock.nextWake).toBe(start + 60_000);
    await clock.advance(start + 60_000 - 1 - clock.now());
    await driver.settle();
    expect(driver.grants).toHaveLength(3);
    await clock.advance(1);
    await driver.settle();
    expect(driver.times()).toEqual([start, start, start, start + 60_000, start + 60_000, start + 60_000]);
  });

  it('lets two instances on one store take together at most the limit in any window', async () => {
    const a = gate();
    const b = gate();
    const driver = new Driver(clock, [a, b]);
    for (let i = 0; i < 100; i += 1) {
      void driver.take(a, 'a', [GENERAL], 'interactive');
      void driver.take(b, 'b', [GENERAL], 'interactive');
    }
    await driver.runUntil(() => driver.grants.length === 200, 10 * 60_000);
    expect(driver.grants).toHaveLength(200);
    expect(busiestWindow(driver.times(), 60_000)).toBe(60);
    // Both made progress: neither instance starves the other.
    expect(busiestWindow(driver.times('a'), 60_000)).toBeGreaterThan(0);
    expect(busiestWindow(driver.times('b'), 60_000)).toBeGreaterThan(0);
  });

  it('leaves the reserve to interactive requests: background takes only while more than it is left', async () => {
    const background = gate();
    const interactive = gate();
    const driver = new Driver(clock, [background, interactive]);
    const window = { ...GENERAL, reserve: 10 };
    for (let i = 0; i < 70; i += 1) void driver.take(background, 'bg', [window], 'background');
    await driver.settle();
    expect(driver.grants).toHaveLength(50);
    for (let i = 0; i < 11; i += 1) void driver.take(interactive, 'ui', [window], 'interactive');
    await driver.settle();
    // The ten reserved slots go to the interactive requests at once; the eleventh waits like everyone.
    expect(driver.times('ui')).toHaveLength(10);
    expect(interactive.waiting).toBe(1);
    await driver.runUntil(() => driver.grants.length === 81, 5 * 60_000);
    expect(driver.grants).toHaveLength(81);
    expect(busiestWindow(driver.times(), 60_000)).toBeLessThanOrEqual(60);
  });

  it('serves interactive waiters first, then in arrival order', async () => {
    const limits = gate();
    const driver = new Driver(clock, [limits]);
    for (let i = 0; i < 3; i += 1) void driver.take(limits, `first${i}`, [small], 'interactive');
    void driver.take(limits, 'bg1', [small], 'background');
    void driver.take(limits, 'bg2', [small], 'background');
    void driver.take(limits, 'ui1', [small], 'interactive');
    await driver.runUntil(() => driver.grants.length === 6, 5 * 60_000);
    expect(driver.grants.map((grant) => grant.who)).toEqual([
      'first0',
      'first1',
      'first2',
      'ui1',
      'bg1',
      'bg2',
    ]);
  });

  it('never lets a later waiter overtake an earlier one on the window it waits for, as time moves on', async () => {
    // Each take costs a millisecond (as a round trip to Redis does): the slot the first waiter was refused
    // frees while the second one asks.
    const ticking: WindowStore = {
      kind: 'memory',
      take: (claims, member, now, priority) => {
        clock.set(clock.now() + 1);
        return store.take(claims, member, now, priority);
      },
      record: (claims, members, at) => store.record(claims, members, at),
      recent: (claim, now) => store.recent(claim, now),
      close: () => store.close(),
    };
    const limits = new LimitGate(ticking, clock, 'test:');
    gates.push(limits);
    const driver = new Driver(clock, [limits]);
    const one: LimitWindow = { ...small, limit: 1, windowMs: 1_000 };
    const start = clock.now();
    await limits.take({ windows: [one], priority: 'interactive' });
    clock.set(start + 999);
    void driver.take(limits, 'first', [one], 'interactive');
    void driver.take(limits, 'second', [one], 'interactive');
    await driver.runUntil(() => driver.grants.length === 2, 10_000);
    expect(driver.grants.map((grant) => grant.who)).toEqual(['first', 'second']);
  });

  it('takes from several windows all or none; a full route window holds back only its own route', async () => {
    const limits = gate();
    const driver = new Driver(clock, [limits]);
    const events: LimitWindow = { scope: GENERAL.scope, name: 'events', limit: 6, windowMs: 60_000 };
    for (let i = 0; i < 8; i += 1) void driver.take(limits, 'events', [GENERAL, events], 'background');
    for (let i = 0; i < 5; i += 1) void driver.take(limits, 'other', [GENERAL], 'background');
    await driver.settle();
    expect(driver.times('events')).toHaveLength(6);
    expect(driver.times('other')).toHaveLength(5);
    expect(await limits.recent(GENERAL)).toHaveLength(11);
    expect(await limits.recent(events)).toHaveLength(6);
    await driver.runUntil(() => driver.grants.length === 13, 2 * 60_000);
    expect(driver.times('events').at(-1)).toBe(driver.times('events')[0]! + 60_000);
  });

  it('refuses at once a wait that would pass the deadline, saying how long it would be', async () => {
    const limits = gate();
    for (let i = 0; i < 3; i += 1) await limits.take({ windows: [small], priority: 'interactive' });
    await clock.advance(20_000);
    const late = limits.take({ windows: [small], priority: 'interactive', deadline: clock.now() + 39_999 });
    await expect(late).rejects.toBeInstanceOf(LimitWaitError);
    await expect(late).rejects.toMatchObject({ retryAfterMs: 40_000 });
    const inTime = limits.take({ windows: [small], priority: 'interactive', deadline: clock.now() + 40_000 });
    await clock.advance(40_000);
    await expect(inTime).resolves.toMatchObject({ at: clock.now() });
  });

  it('lets the waiters behind one that gave up at its deadline wait their turn', async () => {
    const limits = gate();
    const driver = new Driver(clock, [limits]);
    const start = clock.now();
    for (let i = 0; i < 3; i += 1) await limits.take({ windows: [small], priority: 'interactive' });
    const hurried = limits.take({ windows: [small], priority: 'interactive', deadline: start + 1_000 });
    void driver.take(limits, 'patient', [small], 'interactive');
    await expect(hurried).rejects.toBeInstanceOf(LimitWaitError);
    await driver.runUntil(() => driver.grants.length === 1, 2 * 60_000);
    expect(driver.grants).toEqual([{ at: start + 60_000, who: 'patient', priority: 'interactive' }]);
  });

  it('stops waiting when aborted, and the waiters behind it go on', async () => {
    const limits = gate();
    const driver = new Driver(clock, [limits]);
    const events: LimitWindow = { ...small, name: 'events', limit: 1 };
    await limits.take({ windows: [events], priority: 'interactive' });
    const abort = new AbortController();
    const first = limits.take({ windows: [events, small], priority: 'interactive', signal: abort.signal });
    void driver.take(limits, 'second', [events], 'interactive');
    await driver.settle();
    abort.abort(new Error('stopping'));
    await expect(first).rejects.toThrow('stopping');
    await driver.runUntil(() => driver.grants.length === 1, 2 * 60_000);
    expect(driver.grants).toHaveLength(1);
    expect(limits.waiting).toBe(0);
  });

  it('counts recorded requests past the limit, and counts a retimed slot from its new time', async () => {
    const limits = gate();
    const start = clock.now();
    const slot = await limits.take({ windows: [small], priority: 'interactive' });
    await limits.record([small], 3);
    expect(await limits.recent(small)).toEqual([start, start, start, start]);
    await clock.advance(30_000);
    await slot.retime(clock.now());
    await clock.advance(30_000);
    // The three recorded at the start have left; the retimed one counts until 30 s from now.
    expect(await limits.recent(small)).toEqual([start + 30_000]);
  });

  it('fails its waiters when closed', async () => {
    const limits = gate();
    for (let i = 0; i < 3; i += 1) await limits.take({ windows: [small], priority: 'interactive' });
    const waiting = limits.take({ windows: [small], priority: 'background' });
    await limits.close();
    await expect(waiting).rejects.toBeInstanceOf(LimitsClosedError);
    await expect(limits.take({ windows: [small], priority: 'interactive' })).rejects.toBeInstanceOf(
      LimitsClosedError,
    );
    expect(clock.sleepers).toBe(0);
  });

  it('stores a hash of the scope, never the scope (an API key) itself', () => {
    const claim = claimOf({ ...GENERAL, scope: 'kr_secret_api_key_value' }, 'p:');
    expect(claim.key).not.toContain('kr_secret');
    expect(claim.key).toMatch(/^p:\{[0-9a-f]{24}\}:[0-9a-f]{24}$/);
    expect(claimOf({ ...GENERAL, reserve: 99 }, 'p:').backgroundLimit).toBe(1);
  });

  it('drops the windows whose requests have all left', async () => {
    const limits = gate();
    for (let i = 0; i < 600; i += 1) {
      await limits.take({ windows: [{ ...small, scope: `key${i}` }], priority: 'interactive' });
      await clock.advance(1_000);
    }
    expect(store.size).toBeLessThan(200);
  });

  it('never lets more than the limit into any window, nor background past the reserve, nor leaves a take hanging', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            gap: fc.integer({ min: 0, max: 20_000 }),
            who: fc.constantFrom('a', 'b'),
            priority: fc.constantFrom('interactive' as const, 'background' as const),
            count: fc.integer({ min: 1, max: 6 }),
            patience: fc.option(fc.integer({ min: 0, max: 90_000 }), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        async (arrivals) => {
          clock = new ManualClock();
          store = new MemoryWindows();
          const instances = { a: gate(), b: gate() };
          const driver = new Driver(clock, [instances.a, instances.b]);
          const window: LimitWindow = {
            scope: 'k',
            name: 'requests',
            limit: 8,
            windowMs: 60_000,
            reserve: 3,
          };
          let queued = 0;
          for (const arrival of arrivals) {
            await driver.advance(arrival.gap);
            const deadline = arrival.patience === undefined ? undefined : clock.now() + arrival.patience;
            for (let i = 0; i < arrival.count; i += 1) {
              void driver.take(instances[arrival.who], arrival.who, [window], arrival.priority, deadline);
              queued += 1;
            }
          }
          const settled = () => driver.grants.length + driver.refusals.length === queued;
          await driver.runUntil(settled, 60 * 60_000);
          if (!settled() || instances.a.waiting + instances.b.waiting > 0) return false;
          // Refused only for a deadline, and at once: never after the deadline has passed.
          const refusedInTime = driver.refusals.every(
            (refusal) => refusal.error instanceof LimitWaitError && refusal.at <= (refusal.deadline ?? -1),
          );
          if (!refusedInTime) return false;
          if (busiestWindow(driver.times(), 60_000) > 8) return false;
          // Each background grant found fewer than limit - reserve requests in the window before it.
          return driver.grants.every(
            (grant, index) =>
              grant.priority === 'interactive' ||
              driver.grants.slice(0, index).filter((g) => g.at > grant.at - 60_000).length < 5,
          );
        },
      ),
      { numRuns: 80 },
    );
  });
});
