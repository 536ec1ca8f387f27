import { describe, expect, it, vi } from 'vitest';
import { memoryBackend, ReplyCache } from '../../src/api/cache.ts';
import { flush, ManualClock } from '../support/clock.ts';

const policy = { ttlMs: 60_000 };

describe('ReplyCache', () => {
  it('shares one load between concurrent identical requests (single flight)', async () => {
    const cache = new ReplyCache({ backend: memoryBackend(), clock: new ManualClock() });
    let release!: (value: string) => void;
    const load = vi.fn(() => new Promise<string>((resolve) => (release = resolve)));
    const calls = Array.from({ length: 100 }, () => cache.cached('k', policy, load));
    await flush();
    release('value');
    const results = await Promise.all(calls);
    expect(load).toHaveBeenCalledTimes(1);
    expect(new Set(results.map((r) => r.value))).toEqual(new Set(['value']));
  });

  it('serves a fresh entry until its TTL, then loads again', async () => {
    const clock = new ManualClock();
    const cache = new ReplyCache({ backend: memoryBackend(), clock });
    let n = 0;
    const load = async () => ++n;
    expect(await cache.cached('k', policy, load)).toEqual({ value: 1, source: 'loaded' });
    await clock.advance(59_999);
    expect(await cache.cached('k', policy, load)).toEqual({ value: 1, source: 'fresh' });
    await clock.advance(1);
    expect(await cache.cached('k', policy, load)).toEqual({ value: 2, source: 'loaded' });
  });

  it('serves a stale entry at once while one refresh runs behind it', async () => {
    const clock = new ManualClock();
    const cache = new ReplyCache({ backend: memoryBackend(), clock });
    const stalePolicy = { ttlMs: 1_000, staleMs: 10_000 };
    let n = 0;
    let gate: Promise<void> = Promise.resolve();
    const load = vi.fn(async () => {
      await gate;
      return ++n;
    });
    await cache.cached('k', stalePolicy, load);
    await clock.advance(2_000);
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const [a, b] = await Promise.all([
      cache.cached('k', stalePolicy, load),
      cache.cached('k', stalePolicy, load),
    ]);
    expect(a).toEqual({ value: 1, source: 'stale' });
    expect(b).toEqual({ value: 1, source: 'stale' });
    open();
    await flush();
    expect(load).toHaveBeenCalledTimes(2);
    expect(await cache.cached('k', stalePolicy, load)).toEqual({ value: 2, source: 'fresh' });
    await clock.advance(11_001);
    expect((await cache.cached('k', stalePolicy, load)).source).toBe('loaded');
  });

  it('reports a failed background refresh and keeps serving the stale value', async () => {
    const clock = new ManualClock();
    const onRefreshError = vi.fn();
    const cache = new ReplyCache({ backend: memoryBackend(), clock, onRefreshError });
    const stalePolicy = { ttlMs: 1_000, staleMs: 10_000 };
    await cache.cached('k', stalePolicy, async () => 'old');
    await clock.advance(1_500);
    const hit = await cache.cached('k', stalePolicy, async () => {
      throw new Error('upstream down');
    });
    await flush();
    expect(hit).toEqual({ value: 'old', source: 'stale' });
    expect(onRefreshError).toHaveBeenCalledWith('k', expect.any(Error));
  });

  it('does not cache a failed load', async () => {
    const cache = new ReplyCache({ backend: memoryBackend(), clock: new ManualClock() });
    await expect(cache.cached('k', policy, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.cached('k', policy, async () => 'yes')).toEqual({ value: 'yes', source: 'loaded' });
  });

  it('reads entries another process wrote to the shared backend', async () => {
    const clock = new ManualClock();
    const backend = memoryBackend();
    const writer = new ReplyCache({ backend, clock });
    const reader = new ReplyCache({ backend, clock });
    await writer.cached('k', policy, async () => 'shared');
    const load = vi.fn(async () => 'own');
    expect(await reader.cached('k', policy, load)).toEqual({ value: 'shared', source: 'fresh' });
    expect(load).not.toHaveBeenCalled();
    expect(await reader.peek('k')).toBe('shared');
    await clock.advance(60_000);
    expect(await reader.peek('k')).toBeUndefined();
  });

  it('refresh loads whatever the cache holds', async () => {
    const cache = new ReplyCache({ backend: memoryBackend(), clock: new ManualClock() });
    await cache.cached('k', policy, async () => 1);
    expect(await cache.refresh('k', policy, async () => 2)).toEqual({ value: 2, source: 'loaded' });
    expect(await cache.peek('k')).toBe(2);
  });
});
