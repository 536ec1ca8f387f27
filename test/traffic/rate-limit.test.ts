import { describe, expect, it } from 'vitest';

import { RateLimiter, WaitRefusedError, windowFromHeaders } from '../../src/traffic/rate-limit.ts';
import { createMemoryLimits } from '../../src/traffic/index.ts';
import { flush, ManualClock } from '../support/clock.ts';

const general = { name: 'key', defaults: { limit: 3, windowMs: 60_000 } };
const FAR = Number.MAX_SAFE_INTEGER;

describe('RateLimiter', () => {
  it('grants up to the limit at once, then waits for the window to reset', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const granted: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      void limiter.acquire([general], 'interactive', FAR).then((release) => {
        granted.push(i);
        release();
      });
    }
    await flush();
    expect(granted).toEqual([0, 1, 2]);
    await clock.advance(59_999);
    expect(granted).toEqual([0, 1, 2]);
    await clock.advance(1);
    expect(granted).toEqual([0, 1, 2, 3, 4]);
  });

  it('serves interactive waiters before background ones', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const order: string[] = [];
    const take = (label: string, priority: 'interactive' | 'background') =>
      void limiter.acquire([general], priority, FAR).then((release) => {
        order.push(label);
        release();
      });
    for (let i = 0; i < 3; i += 1) take(`first${i}`, 'interactive');
    take('bg1', 'background');
    take('bg2', 'background');
    take('ui1', 'interactive');
    await flush();
    expect(order).toEqual(['first0', 'first1', 'first2']);
    await clock.advance(60_000);
    expect(order.slice(3)).toEqual(['ui1', 'bg1', 'bg2']);
  });

  it('takes a slot from the general and the own window of a route', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const events = { name: 'key#events', defaults: { limit: 1, windowMs: 10_000 } };
    const generalWide = { name: 'key', defaults: { limit: 10, windowMs: 60_000 } };
    let eventsGranted = 0;
    let generalGranted = 0;
    for (let i = 0; i < 3; i += 1) {
      void limiter.acquire([generalWide, events], 'background', FAR).then(() => (eventsGranted += 1));
    }
    for (let i = 0; i < 3; i += 1) {
      void limiter.acquire([generalWide], 'background', FAR).then(() => (generalGranted += 1));
    }
    await flush();
    // The events window blocks the later events calls but not the other routes of the key.
    expect(eventsGranted).toBe(1);
    expect(generalGranted).toBe(3);
    expect(limiter.snapshot('key')?.remaining).toBe(6);
    await clock.advance(10_000);
    expect(eventsGranted).toBe(2);
  });

  it('refuses at once when the wait would pass the deadline', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < 3; i += 1) await limiter.acquire([general], 'interactive', FAR);
    const refused = limiter.acquire([general], 'interactive', clock.now() + 1000);
    await expect(refused).rejects.toBeInstanceOf(WaitRefusedError);
    await expect(refused).rejects.toMatchObject({ retryAfterMs: 60_000 });
  });

  it('learns the window from headers, counting requests still in flight', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const wide = { name: 'key', defaults: { limit: 60, windowMs: 60_000 } };
    const releases = [];
    for (let i = 0; i < 3; i += 1) releases.push(await limiter.acquire([wide], 'interactive', FAR));
    // The server's window started earlier than ours and has 2 left, with our 3 in flight counted by it.
    limiter.update('key', { limit: 60, remaining: 2, resetAt: clock.now() + 5_000 });
    expect(limiter.snapshot('key')).toMatchObject({ limit: 60, remaining: 2 });
    limiter.update('key', { limit: 60, remaining: 40, resetAt: clock.now() + 120_000 });
    // A later window: 40 left by the server's count, minus the 2 other requests it has not seen yet.
    expect(limiter.snapshot('key')?.remaining).toBe(38);
  });

  it('stops sending on a bucket after a 429 until the given time', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const wide = { name: 'key', defaults: { limit: 60, windowMs: 60_000 } };
    await limiter.acquire([wide], 'interactive', FAR);
    limiter.exhaust('key', clock.now() + 45_000);
    let granted = false;
    void limiter.acquire([wide], 'interactive', FAR).then(() => (granted = true));
    await clock.advance(44_999);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);
  });

  it('reads X-RateLimit headers', () => {
    expect(
      windowFromHeaders({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '7',
        'x-ratelimit-reset': '1800000000',
      }),
    ).toEqual({ limit: 60, remaining: 7, resetAt: 1_800_000_000_000 });
    expect(windowFromHeaders({})).toBeUndefined();
  });
});

describe('RateLimiter with shared limits', () => {
  it('lets two limiters sharing limits (two processes) take at most the limit together', async () => {
    const clock = new ManualClock();
    const shared = createMemoryLimits(clock);
    const first = new RateLimiter(clock, shared);
    const second = new RateLimiter(clock, shared);
    const granted: string[] = [];
    for (const [who, limiter] of [
      ['first', first],
      ['second', second],
    ] as const) {
      for (let i = 0; i < 3; i += 1) {
        void limiter.acquire([general], 'interactive', FAR).then((release) => {
          granted.push(who);
          release();
        });
      }
    }
    await flush();
    // Each one's own view allows 3: only the shared windows hold the sum to 3.
    expect(granted).toEqual(['first', 'first', 'first']);
    await clock.advance(60_000);
    expect(granted).toEqual(['first', 'first', 'first', 'second', 'second', 'second']);
    await shared.close();
  });

  it('keeps the reserve: background calls leave it to interactive ones of any process', async () => {
    const clock = new ManualClock();
    const shared = createMemoryLimits(clock);
    const worker = new RateLimiter(clock, shared);
    const shard = new RateLimiter(clock, shared);
    const bucket = { name: 'key', defaults: { limit: 6, windowMs: 60_000, reserve: 2 } };
    let background = 0;
    let interactive = 0;
    for (let i = 0; i < 6; i += 1)
      void worker.acquire([bucket], 'background', FAR).then(() => (background += 1));
    await flush();
    expect(background).toBe(4);
    for (let i = 0; i < 2; i += 1)
      void shard.acquire([bucket], 'interactive', FAR).then(() => (interactive += 1));
    await flush();
    expect(interactive).toBe(2);
    await clock.advance(60_000);
    expect(background).toBe(6);
    await shared.close();
  });

  it('refuses at once a shared wait past the deadline, with its length, and frees the local slot', async () => {
    const clock = new ManualClock();
    const shared = createMemoryLimits(clock);
    const other = new RateLimiter(clock, shared);
    for (let i = 0; i < 3; i += 1) (await other.acquire([general], 'interactive', FAR))();
    await clock.advance(10_000);
    const limiter = new RateLimiter(clock, shared);
    const refused = limiter.acquire([general], 'interactive', clock.now() + 1_000);
    await expect(refused).rejects.toBeInstanceOf(WaitRefusedError);
    await expect(refused).rejects.toMatchObject({ retryAfterMs: 50_000 });
    expect(limiter.shared.waiting).toBe(0);
    expect(shared.waiting).toBe(0);
    await shared.close();
  });

  it('gives back the slot of a background call the shared limits refused: commands keep their reserve', async () => {
    const clock = new ManualClock();
    const shared = createMemoryLimits(clock);
    const limiter = new RateLimiter(clock, shared);
    const bucket = { name: 'key', defaults: { limit: 6, windowMs: 60_000, reserve: 2 } };
    for (let i = 0; i < 4; i += 1) (await limiter.acquire([bucket], 'background', FAR))();
    // The window is full for background calls: each of these is refused, nothing goes out.
    for (let i = 0; i < 5; i += 1)
      await expect(limiter.acquire([bucket], 'background', clock.now() + 1_000)).rejects.toBeInstanceOf(
        WaitRefusedError,
      );
    // The two slots kept for commands are still there, in this view as in the shared windows.
    for (let i = 0; i < 2; i += 1) (await limiter.acquire([bucket], 'interactive', clock.now() + 1_000))();
    await shared.close();
  });

  it('fails the waiters of its own shared limits when closed', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock);
    const bucket = { name: 'key', defaults: { limit: 3, windowMs: 60_000, reserve: 1 } };
    for (let i = 0; i < 2; i += 1) await limiter.acquire([bucket], 'background', FAR);
    // Its own view has room; the shared window keeps the last slot for interactive calls.
    const waiting = limiter.acquire([bucket], 'background', FAR);
    await flush();
    expect(limiter.shared.waiting).toBe(1);
    limiter.close();
    await expect(waiting).rejects.toMatchObject({ message: 'Client closed' });
  });
});
