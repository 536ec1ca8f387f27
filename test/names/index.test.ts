import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATALOG_PER_KIND, NameIndex } from '../../src/names/index.ts';
import { createStore, type Namespace, type Store } from '../../src/store/index.ts';

let store: Store;
beforeEach(async () => {
  store = await createStore('memory://', { purgeIntervalMs: 0 });
});
afterEach(async () => {
  await store.close();
});

/** The store's `names` namespace, keeping the background writes of `remember` so a test can await them. */
function recorded(): { namespace: Namespace<string>; writes: Promise<void>[] } {
  const inner = store.namespace<string>('names');
  const writes: Promise<void>[] = [];
  const namespace: Namespace<string> = {
    name: inner.name,
    get: (key) => inner.get(key),
    set: (key, value, ttlMs) => {
      const write = inner.set(key, value, ttlMs);
      writes.push(write);
      return write;
    },
    delete: (key) => inner.delete(key),
    has: (key) => inner.has(key),
    add: (key, value, ttlMs) => inner.add(key, value, ttlMs),
    replace: (key, expected, value, ttlMs) => inner.replace(key, expected, value, ttlMs),
    entries: () => inner.entries(),
  };
  return { namespace, writes };
}

describe('the name index', () => {
  it('suggests names that start with the text first, shortest first, then names that contain it', () => {
    const names = new NameIndex();
    names.seed('player', ['xSniper', 'Sniperwolf', 'Snipe', 'NotHim', 'sniper_2']);
    expect(names.suggest('player', ' snipe ').map((s) => s.value)).toEqual([
      'Snipe',
      'sniper_2',
      'Sniperwolf',
      'xSniper',
    ]);
    expect(names.suggest('player', 'snipe', 2)).toHaveLength(2);
    expect(names.suggest('clan', 'snipe')).toEqual([]);
  });

  it('keeps one spelling per name whatever the case, the latest seen', () => {
    const names = new NameIndex();
    names.remember('clan', 'vortex', 'VORTEX', 'Vortex');
    expect([...names.list('clan')]).toEqual(['Vortex']);
  });

  it('skips empty and over-long names', () => {
    const names = new NameIndex();
    names.remember('player', '', undefined, null, 'x'.repeat(101), 'Ok');
    expect([...names.list('player')]).toEqual(['Ok']);
  });

  it('keeps the names seen across a restart, but not the seeded lists', async () => {
    const { namespace, writes } = recorded();
    const first = new NameIndex(namespace);
    first.remember('player', 'Alice');
    first.seed('map', ['Burg']);
    expect(writes).toHaveLength(1);
    await Promise.all(writes);
    const second = new NameIndex(store.namespace<string>('names'));
    await second.load();
    expect([...second.list('player')]).toEqual(['Alice']);
    expect([...second.list('map')]).toEqual([]);
  });

  it('keeps the published lists apart from the names seen: replaced whole, bounded, never pushing a name out', () => {
    const names = new NameIndex();
    names.remember('clan', 'Seen');
    names.replaceCatalog('clan', ['Vortex', 'vortex', 'Seen', 'Empire']);
    expect([...names.list('clan')]).toEqual(['Seen', 'Vortex', 'Empire']);
    expect(names.suggest('clan', 'vor').map((s) => s.value)).toEqual(['Vortex']);
    names.replaceCatalog('clan', ['Dynasty']);
    expect([...names.list('clan')]).toEqual(['Seen', 'Dynasty']);
    names.replaceCatalog(
      'map',
      Array.from({ length: CATALOG_PER_KIND + 10 }, (_, i) => `Map ${i}`),
    );
    expect(names.catalogSize('map')).toBe(CATALOG_PER_KIND);
  });

  it('finds skins by the digits of their index, or by name', () => {
    const names = new NameIndex();
    names.seedSkins([
      { index: 12, name: 'Frost' },
      { index: 120, name: 'Ember' },
      { index: 3, name: 'Frostbite' },
    ]);
    expect(names.suggestSkins('12').map((s) => s.value)).toEqual([12, 120]);
    expect(names.suggestSkins('frost')).toEqual([
      { name: 'Frost (#12)', value: 12 },
      { name: 'Frostbite (#3)', value: 3 },
    ]);
    expect(names.skinName(120)).toBe('Ember');
  });
});
