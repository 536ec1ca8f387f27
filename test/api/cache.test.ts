import { describe, expect, it, vi } from 'vitest';
import { memoryBackend, ReplyCache, type CacheBackend } from '../../src/api/cache.ts';
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

  it('tells from process memory alone what a peek would answer, when the memory knows', async () => {
    const clock = new ManualClock();
    const backend = memoryBackend();
    const cache = new ReplyCache({ backend, clock });
    await cache.cached('k', { ttlMs: 60_000, staleMs: 60_000 }, async () => 'kept');
    expect(cache.peekMemory('k')).toEqual({ value: 'kept' });
    // Stale: memory knows there is no fresh value, and a peek says so too.
    await clock.advance(60_000);
    expect(cache.peekMemory('k')).toEqual({ value: undefined });
    expect(await cache.peek('k')).toBeUndefined();
    // Past the stale time only the store can tell (another process may have written since).
    await clock.advance(60_000);
    expect(cache.peekMemory('k')).toBeUndefined();

    // An entry only the store holds: unknown to memory until a peek has read it.
    const other = new ReplyCache({ backend, clock });
    await cache.cached('j', policy, async () => 'written elsewhere');
    expect(other.peekMemory('j')).toBeUndefined();
    expect(await other.peek('j')).toBe('written elsewhere');
    expect(other.peekMemory('j')).toEqual({ value: 'written elsewhere' });
  });

  it('refresh loads whatever the cache holds', async () => {
    const cache = new ReplyCache({ backend: memoryBackend(), clock: new ManualClock() });
    await cache.cached('k', policy, async () => 1);
    expect(await cache.refresh('k', policy, async () => 2)).toEqual({ value: 2, source: 'loaded' });
    expect(await cache.peek('k')).toBe(2);
  });
});

/** A backend that fails as a read-only, full or unreachable store does; `fail` turns that on and off. */
function failingBackend(): CacheBackend & { fail: boolean; sets: number; gets: number } {
  const inner = memoryBackend();
  const backend = {
    fail: true,
    sets: 0,
    gets: 0,
    get: async (key: string) => {
      backend.gets += 1;
      if (backend.fail) throw new Error('SQLITE_READONLY: attempt to write a readonly database');
      return inner.get(key);
    },
    set: async (key: string, value: unknown, ttlMs?: number) => {
      backend.sets += 1;
      if (backend.fail) throw new Error('SQLITE_FULL: database or disk is full');
      return inner.set(key, value, ttlMs);
    },
  };
  return backend;
}

describe('ReplyCache over a failing store', () => {
  it('returns the freshly loaded value when the write fails, and reports each kind of failure once per burst', async () => {
    const backend = failingBackend();
    const onStoreError = vi.fn<(operation: string, key: string, error: unknown) => void>();
    const cache = new ReplyCache({ backend, clock: new ManualClock(), onStoreError });
    const results = [];
    for (const key of ['a', 'b', 'c']) results.push(await cache.cached(key, policy, async () => `v-${key}`));
    expect(results).toEqual([
      { value: 'v-a', source: 'loaded' },
      { value: 'v-b', source: 'loaded' },
      { value: 'v-c', source: 'loaded' },
    ]);
    expect(backend.sets).toBe(3);
    expect(onStoreError.mock.calls.map(([operation, key]) => [operation, key])).toEqual([
      ['read', 'a'],
      ['write', 'a'],
    ]);
    // The store recovers, then fails again: a new burst is reported again.
    backend.fail = false;
    await cache.cached('d', policy, async () => 'v-d');
    backend.fail = true;
    expect(await cache.refresh('d', policy, async () => 'v-d2')).toEqual({ value: 'v-d2', source: 'loaded' });
    expect(onStoreError).toHaveBeenCalledTimes(3);
    expect(onStoreError).toHaveBeenLastCalledWith('write', 'd', expect.any(Error));
  });

  it('treats a failed read as a miss, and still serves what it keeps in memory', async () => {
    const backend = failingBackend();
    const cache = new ReplyCache({ backend, clock: new ManualClock() });
    const load = vi.fn(async () => 'loaded');
    expect(await cache.cached('k', policy, load)).toEqual({ value: 'loaded', source: 'loaded' });
    expect(await cache.cached('k', policy, load)).toEqual({ value: 'loaded', source: 'fresh' });
    expect(load).toHaveBeenCalledTimes(1);
    expect(await cache.peek('other')).toBeUndefined();
    expect(backend.gets).toBe(2);
  });
});

describe('memory bounds in bytes', () => {
  const big = (n: number) => 'x'.repeat(n);

  it('memoryBackend evicts the least recently used entries past its byte budget', async () => {
    const backend = memoryBackend({ maxBytes: 1_000 });
    await backend.set('a', big(400));
    await backend.set('b', big(400));
    expect(await backend.get('a')).toBe(big(400));
    await backend.set('c', big(400));
    expect(await backend.get('b')).toBeUndefined();
    expect(await backend.get('a')).toBe(big(400));
    expect(await backend.get('c')).toBe(big(400));
    expect(backend.size).toBe(2);
    expect(backend.bytes).toBeLessThanOrEqual(1_000);
    await backend.set('huge', big(5_000));
    expect(await backend.get('huge')).toBeUndefined();
    expect(backend.size).toBe(2);
  });

  it('memoryBackend has a byte budget by default', async () => {
    const backend = memoryBackend();
    const chunk = big(8 * 1024 * 1024);
    for (let i = 0; i < 20; i += 1) await backend.set(`k${i}`, chunk);
    expect(backend.bytes).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(backend.size).toBeLessThan(20);
    expect(await backend.get('k19')).toBe(chunk);
  });

  it("the cache's in-process copy evicts by bytes too, and then reads the store", async () => {
    const backend = memoryBackend();
    const get = vi.spyOn(backend, 'get');
    const cache = new ReplyCache({ backend, clock: new ManualClock(), memoryBytes: 1_000 });
    await cache.cached('a', policy, async () => big(400));
    await cache.cached('b', policy, async () => big(400));
    get.mockClear();
    expect((await cache.cached('b', policy, async () => 'no')).value).toBe(big(400));
    expect(get).not.toHaveBeenCalled();
    await cache.cached('c', policy, async () => big(400));
    get.mockClear();
    expect((await cache.cached('a', policy, async () => 'no')).value).toBe(big(400));
    expect(get).toHaveBeenCalledWith('a');
  });
});
