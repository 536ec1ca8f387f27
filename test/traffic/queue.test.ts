import { describe, expect, it } from 'vitest';

import { FairQueue, type Owner } from '../../src/traffic/fair.ts';
import { LimitGate } from '../../src/traffic/gate.ts';
import { MemoryWindows } from '../../src/traffic/memory.ts';
import { RateLimiter, WaitRefusedError, type QueuePlace } from '../../src/traffic/rate-limit.ts';
import { flush, ManualClock } from '../support/clock.ts';

/**
 * The queue commands wait in for the game API: servers in turn, users in turn within a server, each
 * told its place; refused at once only when its slot would come after the latest moment it may start.
 */
const FAR = Number.MAX_SAFE_INTEGER;

describe('FairQueue', () => {
  it('orders servers in turn, then users in turn within a server, each user in arrival order', () => {
    const queue = new FairQueue<string>();
    const add = (item: string, owner: Owner) => queue.push(item, owner);
    add('a1-1', { guild: 'a', user: '1' });
    add('a1-2', { guild: 'a', user: '1' });
    add('a1-3', { guild: 'a', user: '1' });
    add('a2-1', { guild: 'a', user: '2' });
    add('b3-1', { guild: 'b', user: '3' });
    add('b3-2', { guild: 'b', user: '3' });
    add('dm4-1', { guild: null, user: '4' });
    expect(queue.order()).toEqual(['a1-1', 'b3-1', 'dm4-1', 'a2-1', 'b3-2', 'a1-2', 'a1-3']);
  });

  it('sends the server and the user just served to the back of their rings; a removal keeps them', () => {
    const queue = new FairQueue<string>();
    queue.push('a1', { guild: 'a', user: '1' });
    queue.push('a2', { guild: 'a', user: '2' });
    queue.push('b3', { guild: 'b', user: '3' });
    queue.served('a1');
    queue.push('a1b', { guild: 'a', user: '1' });
    // b is next, then a with its user 2 (1 was just served).
    expect(queue.order()).toEqual(['b3', 'a2', 'a1b']);
    queue.remove('b3');
    expect(queue.order()).toEqual(['a2', 'a1b']);
    expect(queue.size).toBe(2);
  });
});

describe('RateLimiter: the command queue', () => {
  const one = { name: 'key', defaults: { limit: 1, windowMs: 1_000 } };

  it('grants a full window in turns by server, then by user, not in arrival order', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    (await limiter.acquire([one], 'interactive', FAR))();
    const order: string[] = [];
    const ask = (label: string, owner: Owner) =>
      void limiter.acquire([one], 'interactive', FAR, { owner }).then((release) => {
        order.push(label);
        release();
      });
    // One busy server asks first and most; the others come after it.
    ask('a1-1', { guild: 'a', user: '1' });
    ask('a1-2', { guild: 'a', user: '1' });
    ask('a1-3', { guild: 'a', user: '1' });
    ask('a2-1', { guild: 'a', user: '2' });
    ask('b3-1', { guild: 'b', user: '3' });
    ask('b3-2', { guild: 'b', user: '3' });
    ask('dm4-1', { user: '4' });
    await flush();
    for (let i = 0; i < 7; i += 1) await clock.advance(1_000);
    expect(order).toEqual(['a1-1', 'b3-1', 'dm4-1', 'a2-1', 'b3-2', 'a1-2', 'a1-3']);
  });

  it('refuses at once only the waiters whose slot comes after their latest start, saying how much later', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const two = { name: 'key', defaults: { limit: 2, windowMs: 60_000 } };
    const start = clock.now();
    for (let i = 0; i < 2; i += 1) (await limiter.acquire([two], 'interactive', FAR))();
    const places = new Map<string, QueuePlace>();
    const outcomes = new Map<string, string>();
    const ask = (label: string, latestStart: number) => {
      const owner = { guild: 'a', user: '1' };
      const onQueued = (place: QueuePlace) => places.set(label, place);
      void limiter.acquire([two], 'interactive', latestStart, { owner, onQueued }).then(
        () => outcomes.set(label, 'granted'),
        (error: unknown) =>
          outcomes.set(label, error instanceof WaitRefusedError ? `refused by ${error.shortByMs}` : 'error'),
      );
    };
    // The next window (at +60 s) holds two: the third and fourth would start at +120 s.
    ask('first', start + 60_000);
    ask('second', start + 60_000);
    ask('third', start + 60_000);
    ask('fourth', start + 90_000);
    ask('fifth', start + 120_000);
    await flush();
    expect(outcomes).toEqual(
      new Map([
        ['third', 'refused by 60000'],
        ['fourth', 'refused by 30000'],
      ]),
    );
    expect(places.get('first')).toEqual({ position: 1, startsAt: start + 60_000 });
    expect(places.get('second')).toEqual({ position: 2, startsAt: start + 60_000 });
    expect(places.get('fifth')).toEqual({ position: 3, startsAt: start + 120_000 });
    await clock.advance(60_000);
    expect(outcomes.get('first')).toBe('granted');
    expect(outcomes.get('second')).toBe('granted');
    expect(places.get('fifth')).toEqual({ position: 1, startsAt: start + 120_000 });
    await clock.advance(60_000);
    expect(outcomes.get('fifth')).toBe('granted');
    expect(limiter.shared.waiting).toBe(0);
  });

  it('refuses a waiter that newcomers of other servers push past its latest start, and keeps the rest', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const start = clock.now();
    (await limiter.acquire([one], 'interactive', FAR))();
    const outcomes: string[] = [];
    const ask = (label: string, owner: Owner, latestStart: number) =>
      void limiter.acquire([one], 'interactive', latestStart, { owner }).then(
        () => outcomes.push(`${label} granted`),
        () => outcomes.push(`${label} refused`),
      );
    // a's second request fits at +2 s; b's and c's first requests go before it and push it to +3 s.
    ask('a-1', { guild: 'a', user: '1' }, FAR);
    ask('a-2', { guild: 'a', user: '1' }, start + 2_000);
    await flush();
    expect(outcomes).toEqual([]);
    ask('b-1', { guild: 'b', user: '2' }, FAR);
    await flush();
    expect(outcomes).toEqual(['a-2 refused']);
    await clock.advance(2_000);
    expect(outcomes).toEqual(['a-2 refused', 'a-1 granted', 'b-1 granted']);
  });

  it('keeps the turns and tells the places while the window is full of other processes’ requests', async () => {
    // One queue judges both what this process counted and what every process counted together: a
    // command that this process's view lets through still waits its turn for the shared window, and
    // is told its place there. (With a queue per stage, the first stage passed all three on, and the
    // second served them in arrival order without a word.)
    const clock = new ManualClock();
    const store = new MemoryWindows();
    const other = new LimitGate(store, clock, 'test:');
    const gate = new LimitGate(store, clock, 'test:');
    const window = { scope: 'key', name: 'general', limit: 3, windowMs: 60_000 };
    const start = clock.now();
    for (let i = 0; i < 3; i += 1) {
      await other.take({ windows: [window], priority: 'interactive' });
      await clock.advance(10_000);
    }
    const order: string[] = [];
    const places = new Map<string, number>();
    const ask = (label: string, owner: Owner) =>
      void gate
        .take({
          windows: [window],
          priority: 'interactive',
          owner,
          onQueued: (place) => places.set(label, place.position),
        })
        .then((slot) => order.push(`${label} ${slot.at - start}`));
    ask('busy-1', { guild: 'busy', user: '1' });
    ask('busy-2', { guild: 'busy', user: '1' });
    await flush();
    ask('quiet', { guild: 'quiet', user: '2' });
    await flush();
    expect(order).toEqual([]);
    expect(Object.fromEntries(places)).toEqual({ 'busy-1': 1, quiet: 2, 'busy-2': 3 });
    await clock.advance(start + 80_000 - clock.now());
    expect(order).toEqual(['busy-1 60000', 'quiet 70000', 'busy-2 80000']);
    expect(gate.waiting).toBe(0);
    await other.close();
    await gate.close();
  });
});
