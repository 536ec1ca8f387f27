import { describe, expect, it } from 'vitest';
import { ByteLruCache } from '../../../src/render/image/cache.ts';

// Each entry's cost: its value's bytes, its key's UTF-16 units twice and 64 for the entry itself.
const cost = (key: string, bytes: number) => bytes + key.length * 2 + 64;

describe('ByteLruCache', () => {
  it('drops the least recently used entries once the bytes pass the bound', () => {
    const cache = new ByteLruCache<Buffer>(3 * cost('a', 100), (value) => value.length);
    cache.set('a', Buffer.alloc(100));
    cache.set('b', Buffer.alloc(100));
    cache.set('c', Buffer.alloc(100));
    expect(cache.get('a')).toBeDefined(); // a is now the newest; b the oldest
    cache.set('d', Buffer.alloc(100));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key)?.length)).toEqual([100, 100, 100]);
    expect(cache.stats).toMatchObject({ entries: 3, bytes: 3 * cost('a', 100), evictions: 1 });
  });

  it('counts bytes, not entries: one large image makes room by dropping several small ones', () => {
    const cache = new ByteLruCache<Buffer>(1_000, (value) => value.length);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, Buffer.alloc(100));
    cache.set('big', Buffer.alloc(600));
    expect(cache.stats.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.get('big')?.length).toBe(600);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('d')?.length).toBe(100);
  });

  it('keeps nothing larger than its whole bound, and replacing a key counts its bytes once', () => {
    const cache = new ByteLruCache<Buffer>(500, (value) => value.length);
    cache.set('huge', Buffer.alloc(1_000));
    expect(cache.get('huge')).toBeUndefined();
    cache.set('a', Buffer.alloc(100));
    cache.set('a', Buffer.alloc(200));
    expect(cache.stats).toMatchObject({ entries: 1, bytes: cost('a', 200) });
  });
});
