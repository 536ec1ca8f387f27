import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KeyvPostgres } from '@keyv/postgres';
import { createClient } from '@keyv/redis';
import { configureLog, logFor } from '../../src/log/index.ts';
import { createPostgresBackend } from '../../src/store/backends.ts';
import {
  createStore,
  MAX_KEY_LENGTH,
  StoreError,
  type Namespace,
  type Store,
} from '../../src/store/index.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const RUN = `t${randomBytes(4).toString('hex')}-`;
/**
 * What these tests are not about: how long an operation may take. The bot's 2 s bound is tested on its own
 * (outage.test.ts); here a loaded machine may take longer to write SQLite's file without that failing them.
 */
const CONTRACT_TIMEOUT_MS = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'killfeed-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1_000);
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * TTLs in these tests are either far longer than any test (`LONG`: the entry is live) or as short as
 * possible (`SHORT`), and a test moves the wall clock past a short one instead of waiting: a slow machine
 * cannot make either go wrong. Every backend judges an entry by its own expiry against `Date.now()` (Redis
 * also drops the key in its own time, which the store never relies on), so moving `Date.now()` expires it.
 */
const SHORT = 1;
const LONG = 60 * 60_000;

/** Whether this test moved the wall clock (given back after it). */
let wallMoved = false;

afterEach(() => {
  if (!wallMoved) return;
  vi.useRealTimers();
  wallMoved = false;
});

/** Moves `Date.now()` past a `SHORT` TTL set before, and checks that `key` (given one) has expired. */
async function expired(namespace: Namespace, key: string): Promise<void> {
  if (!wallMoved) vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  wallMoved = true;
  vi.setSystemTime(Date.now() + SHORT + 1);
  expect(await namespace.has(key)).toBe(false);
}

async function collect<T>(namespace: Namespace<T>): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for await (const [key, value] of namespace.entries()) found.set(key, value);
  return found;
}

interface Backend {
  readonly label: string;
  readonly url: string;
  /** Keeps data across close and reopen. */
  readonly durable: boolean;
  /** Needs purgeExpired to remove expired rows (Redis expires keys itself). */
  readonly purges: boolean;
}

function contract(backend: Backend): void {
  describe(`${backend.label} store`, () => {
    let store: Store;
    const used = new Set<string>();
    const ns = <T = unknown>(name: string): Namespace<T> => {
      used.add(name);
      return store.namespace<T>(name);
    };

    beforeAll(async () => {
      store = await createStore(backend.url, {
        prefix: RUN,
        purgeIntervalMs: 0,
        operationTimeoutMs: CONTRACT_TIMEOUT_MS,
      });
    });

    afterAll(async () => {
      for (const name of used) {
        const namespace = store.namespace(name);
        for await (const [key] of namespace.entries()) await namespace.delete(key);
      }
      await store.purgeExpired();
      await store.close();
    });

    it('round-trips JSON values', async () => {
      const values = ns('roundtrip');
      const samples: [string, unknown][] = [
        ['object', { a: 1, b: [true, null, 'x'], c: { d: 'é ✓ 🎯' } }],
        ['array', [1, 2, 3]],
        ['colon-string', ':starts with a colon'],
        ['number', 12.5],
        ['zero', 0],
        ['false', false],
        ['null', null],
        ['empty-string', ''],
      ];
      for (const [key, value] of samples) await values.set(key, value);
      for (const [key, value] of samples) {
        expect(await values.get(key)).toEqual(value);
        expect(await values.has(key)).toBe(true);
      }
    });

    it('answers undefined and false for a missing key', async () => {
      const values = ns('missing');
      expect(await values.get('nothing')).toBeUndefined();
      expect(await values.has('nothing')).toBe(false);
      expect(await values.delete('nothing')).toBe(false);
    });

    it('overwrites on set and forgets on delete', async () => {
      const values = ns('overwrite');
      await values.set('k', { v: 1 });
      await values.set('k', { v: 2 });
      expect(await values.get('k')).toEqual({ v: 2 });
      expect(await values.delete('k')).toBe(true);
      expect(await values.get('k')).toBeUndefined();
      expect(await values.has('k')).toBe(false);
    });

    it('keeps namespaces apart, also when one name starts another', async () => {
      const [a, b, c] = [ns('sub'), ns('sub-x'), ns('subs')];
      await a.set('k', 'a');
      await b.set('k', 'b');
      await c.set('k', 'c');
      await a.set('sub:k', 'prefixed');
      expect([await a.get('k'), await b.get('k'), await c.get('k')]).toEqual(['a', 'b', 'c']);
      expect(await a.get('sub:k')).toBe('prefixed');
      expect(await collect(a)).toEqual(
        new Map([
          ['k', 'a'],
          ['sub:k', 'prefixed'],
        ]),
      );
      expect(await collect(b)).toEqual(new Map([['k', 'b']]));
      await b.delete('k');
      expect(await a.get('k')).toBe('a');
    });

    it('lists every live entry of a namespace, past one page, with awkward keys', async () => {
      const values = ns('listing');
      const expected = new Map<string, number>();
      for (let i = 0; i < 230; i += 1) expected.set(`guild:${i}:channel_%${i}`, i);
      await Promise.all([...expected].map(([key, value]) => values.set(key, value)));
      await values.set('expiring', -1, SHORT);
      await ns('listing-other').set('elsewhere', 1);
      await expired(values, 'expiring');
      expect(await collect(values)).toEqual(expected);
    });

    it('allows deleting entries while listing them', async () => {
      const values = ns('delete-while-listing');
      await Promise.all(Array.from({ length: 60 }, (_, i) => values.set(`k${i}`, i)));
      const seen: string[] = [];
      for await (const [key] of values.entries()) {
        seen.push(key);
        await values.delete(key);
      }
      expect(seen.sort()).toEqual(Array.from({ length: 60 }, (_, i) => `k${i}`).sort());
      expect(await collect(values)).toEqual(new Map());
    });

    it('expires entries after their TTL', async () => {
      const values = ns('ttl');
      await values.set('short', 'gone soon', SHORT);
      await values.set('long', 'stays', LONG);
      await values.set('forever', 'stays');
      expect(await values.get('long')).toBe('stays');
      expect(await values.has('long')).toBe(true);
      await expired(values, 'short');
      expect(await values.get('short')).toBeUndefined();
      expect(await values.has('short')).toBe(false);
      expect(await values.get('long')).toBe('stays');
      expect(await collect(values)).toEqual(
        new Map([
          ['long', 'stays'],
          ['forever', 'stays'],
        ]),
      );
    });

    it('drops the TTL when an entry is set again without one', async () => {
      const values = ns('ttl-reset');
      await values.set('k', 1, SHORT);
      await values.set('k', 2);
      // Set after k's first TTL began, so once it has expired that TTL has passed too.
      await values.set('marker', 0, SHORT);
      await expired(values, 'marker');
      expect(await values.get('k')).toBe(2);
    });

    it('adds only when the key is absent', async () => {
      const values = ns('add');
      expect(await values.add('k', 'first')).toBe(true);
      expect(await values.add('k', 'second')).toBe(false);
      expect(await values.get('k')).toBe('first');
      await values.set('k', 'overwritten');
      expect(await values.add('k', 'third')).toBe(false);
      await values.delete('k');
      expect(await values.add('k', 'fourth')).toBe(true);
      expect(await values.get('k')).toBe('fourth');
    });

    it('adds over an expired entry, and add honours its own TTL', async () => {
      const values = ns('add-ttl');
      expect(await values.add('lease', 'owner-1', LONG)).toBe(true);
      expect(await values.add('lease', 'owner-2', LONG)).toBe(false);
      expect(await values.get('lease')).toBe('owner-1');
      expect(await values.add('short-lease', 'owner-1', SHORT)).toBe(true);
      await expired(values, 'short-lease');
      expect(await values.add('short-lease', 'owner-3', LONG)).toBe(true);
      expect(await values.get('short-lease')).toBe('owner-3');
      await values.set('plain', 'x', SHORT);
      await expired(values, 'plain');
      expect(await values.add('plain', 'y')).toBe(true);
      expect(await values.get('plain')).toBe('y');
    });

    it('lets exactly one of 20 concurrent callers add, also over an expired entry', async () => {
      const values = ns('add-race');
      for (const key of ['fresh', 'expired']) {
        if (key === 'expired') {
          await values.set(key, 'old', SHORT);
          await expired(values, key);
        }
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => values.add(key, `caller-${i}`, 60_000)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await values.get(key)).toBe(`caller-${results.indexOf(true)}`);
      }
    });

    it('purges expired entries', async () => {
      const values = ns('purge');
      await values.set('old-1', 1, SHORT);
      await values.set('old-2', 2, SHORT);
      await values.set('kept', 3);
      await expired(values, 'old-1');
      await expired(values, 'old-2');
      // Reading an expired entry must not delete it: a delete after the read could remove an entry that
      // another process has added in its place. Purging removes it instead.
      expect(await values.get('old-1')).toBeUndefined();
      expect(await values.has('old-2')).toBe(false);
      const removed = await store.purgeExpired();
      if (backend.purges) expect(removed).toBeGreaterThanOrEqual(2);
      else expect(removed).toBe(0);
      expect(await collect(values)).toEqual(new Map([['kept', 3]]));
    });

    it('refuses invalid names, keys, values and TTLs', async () => {
      expect(() => store.namespace('Upper')).toThrow(StoreError);
      expect(() => store.namespace('has:colon')).toThrow(StoreError);
      expect(() => store.namespace('')).toThrow(StoreError);
      const values = ns('invalid');
      await expect(values.get('')).rejects.toThrow(TypeError);
      await expect(values.set('k', undefined)).rejects.toThrow(TypeError);
      await expect(values.add('k', undefined)).rejects.toThrow(TypeError);
      await expect(values.set('k', 1, 0)).rejects.toThrow(RangeError);
      await expect(values.add('k', 1, -5)).rejects.toThrow(RangeError);
      await expect(values.set('k', 1, Number.NaN)).rejects.toThrow(RangeError);
      await expect(values.set('x'.repeat(MAX_KEY_LENGTH), 1)).rejects.toThrow(RangeError);
      expect(await values.has('k')).toBe(false);
    });

    if (backend.durable) {
      it('keeps data across close and reopen', async () => {
        const other = await createStore(backend.url, {
          prefix: RUN,
          purgeIntervalMs: 0,
          operationTimeoutMs: CONTRACT_TIMEOUT_MS,
        });
        used.add('durable');
        await other.namespace('durable').set('k', { kept: true });
        await other.close();
        const again = await createStore(backend.url, {
          prefix: RUN,
          purgeIntervalMs: 0,
          operationTimeoutMs: CONTRACT_TIMEOUT_MS,
        });
        try {
          expect(await again.namespace('durable').get('k')).toEqual({ kept: true });
        } finally {
          await again.close();
        }
        // Closing other stores of the same URL must leave this one working.
        expect(await store.namespace('durable').get('k')).toEqual({ kept: true });
      });
    }

    it('rejects every call once closed, and closes twice without error', async () => {
      const other = await createStore(backend.url, {
        prefix: `${RUN}closed-`,
        purgeIntervalMs: 0,
        operationTimeoutMs: CONTRACT_TIMEOUT_MS,
      });
      const values = other.namespace('closed');
      await other.close();
      await other.close();
      await expect(values.get('k')).rejects.toThrow(StoreError);
      await expect(values.add('k', 1)).rejects.toThrow(StoreError);
      await expect(other.purgeExpired()).rejects.toThrow(StoreError);
      expect(await store.namespace('missing').has('k')).toBe(false);
    });
  });
}

contract({ label: 'memory', url: 'memory://', durable: false, purges: true });
contract({
  label: 'sqlite',
  url: `sqlite://${join(dir, 'nested', 'folder', 'bot.sqlite')}`,
  durable: true,
  purges: true,
});

const postgresUp = await reachable(5432);
const servers = [
  { label: 'redis', url: REDIS_URL, port: 6379, purges: false },
  { label: 'postgres', url: POSTGRES_URL, port: 5432, purges: true },
] as const;

for (const server of servers) {
  const up = server.port === 5432 ? postgresUp : await reachable(server.port);
  if (up) {
    contract({ label: server.label, url: server.url, durable: true, purges: server.purges });
  } else if (process.env.CI) {
    it(`${server.label} store: a server at 127.0.0.1:${server.port} is required in CI`, () => {
      throw new Error(`${server.label} is unreachable at 127.0.0.1:${server.port}, and CI requires it`);
    });
  } else {
    console.warn(`store tests: no ${server.label} server at 127.0.0.1:${server.port}, skipping its contract`);
    it.skip(`${server.label} store (no server at 127.0.0.1:${server.port})`, () => undefined);
  }
}

describe.runIf(await reachable(6379))(
  'redis store: add over an entry that Redis still holds past its own expiry',
  () => {
    it('replaces it (Redis counts a TTL from when the write arrived, a moment after the entry’s expiry was set)', async () => {
      const prefix = `t${randomBytes(4).toString('hex')}-`;
      const store = await createStore(REDIS_URL, {
        prefix,
        purgeIntervalMs: 0,
        operationTimeoutMs: CONTRACT_TIMEOUT_MS,
      });
      const client = createClient({ url: REDIS_URL });
      await client.connect();
      try {
        const physical = `${prefix}lagging:lease`;
        // Expired by its own clock a second ago, yet still held by Redis for another minute.
        await client.set(physical, JSON.stringify({ value: 'old', expires: Date.now() - 1_000 }), {
          expiration: { type: 'PX', value: 60_000 },
        });
        const values = store.namespace<string>('lagging');
        expect(await values.has('lease')).toBe(false);
        expect(await values.add('lease', 'new', 60_000)).toBe(true);
        expect(await values.get('lease')).toBe('new');
        // A live entry is never replaced.
        expect(await values.add('lease', 'newer', 60_000)).toBe(false);
        await client.del(physical);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('drops Redis’s own TTL when an entry is set again without one', async () => {
      const prefix = `t${randomBytes(4).toString('hex')}-`;
      const store = await createStore(REDIS_URL, {
        prefix,
        purgeIntervalMs: 0,
        operationTimeoutMs: CONTRACT_TIMEOUT_MS,
      });
      const client = createClient({ url: REDIS_URL });
      await client.connect();
      try {
        const values = store.namespace<number>('ttl-reset');
        await values.set('k', 1, LONG);
        expect(await client.pTTL(`${prefix}ttl-reset:k`)).toBeGreaterThan(0);
        await values.set('k', 2);
        // -1: the key exists and Redis will not expire it.
        expect(await client.pTTL(`${prefix}ttl-reset:k`)).toBe(-1);
        await values.delete('k');
      } finally {
        await client.close();
        await store.close();
      }
    });
  },
);

describe('createStore', () => {
  it('creates the sqlite folder and accepts a relative path', async () => {
    const before = process.cwd();
    process.chdir(dir);
    try {
      const store = await createStore('sqlite://relative/dir/bot.sqlite', {
        purgeIntervalMs: 0,
        operationTimeoutMs: CONTRACT_TIMEOUT_MS,
      });
      await store.namespace('x').set('k', 1);
      await store.close();
      expect(existsSync(join(dir, 'relative', 'dir', 'bot.sqlite'))).toBe(true);
    } finally {
      process.chdir(before);
    }
  });

  it('makes add atomic across two connections to one sqlite file', async () => {
    const url = `sqlite://${join(dir, 'shared.sqlite')}`;
    const [first, second] = [await createStore(url), await createStore(url)];
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).namespace('lease').add('job', i)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('fails at start-up when the sqlite file cannot be created', async () => {
    await expect(createStore('sqlite:///dev/null/killfeed/bot.sqlite')).rejects.toThrow(
      /cannot open the store at sqlite:\/\/\/dev\/null\/killfeed\/bot.sqlite: .*ENOTDIR/,
    );
  });

  it('refuses unknown schemes and a sqlite URL without a path', async () => {
    await expect(createStore('mysql://localhost/db')).rejects.toThrow(/unsupported store URL/);
    await expect(createStore('sqlite://')).rejects.toThrow(StoreError);
    await expect(createStore('memory://', { prefix: 'Bad Prefix' })).rejects.toThrow(StoreError);
  });

  it.each([
    ['redis', 'redis://bot:hunter2-secret@127.0.0.1:1'],
    ['postgres', 'postgres://bot:hunter2-secret@127.0.0.1:1/bot'],
  ])('fails at start-up when %s is unreachable, without printing the password', async (_label, url) => {
    const error = await createStore(url, { connectTimeoutMs: 2_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/cannot open the store at .*127\.0\.0\.1:1/);
    expect((error as Error).message).not.toContain('hunter2-secret');
  });
});

describe.runIf(postgresUp)('postgres connection pool', () => {
  it('survives losing idle connections and reopens them', async () => {
    const application = `killfeed-${RUN}`;
    const url = `${POSTGRES_URL}?application_name=${application}`;
    const backend = await createPostgresBackend(url, 5_000);
    const query = (backend.keyv.store as KeyvPostgres).query;
    // The lost connections are logged as warnings, expected here: counted, not printed.
    configureLog('error');
    // Each lost idle connection is logged: the test awaits those lines rather than polling for them.
    let lostCount = 0;
    let onLost: () => void = () => undefined;
    const store = logFor('store');
    const warn = store.warn.bind(store);
    const warned = vi.spyOn(store, 'warn').mockImplementation((...args: Parameters<typeof warn>) => {
      warn(...args);
      if (args[1] === 'postgres idle connection lost') {
        lostCount += 1;
        onLost();
      }
    });
    const allLost = (count: number) =>
      new Promise<void>((resolve) => {
        onLost = () => {
          if (lostCount >= count) resolve();
        };
        onLost();
      });
    try {
      // Several queries at once leave several idle connections in the pool.
      await Promise.all(Array.from({ length: 4 }, () => query('SELECT 1')));
      const killed = await query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
        [application],
      );
      expect(killed.length).toBeGreaterThan(0);
      // Once the pool has seen each idle connection die (it logs each), it must open new ones.
      await allLost(killed.length);
      expect(lostCount).toBe(killed.length);
      const rows = await query('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      warned.mockRestore();
      configureLog('info');
      await backend.close();
    }
  });

  it('refuses a second PostgreSQL URL while one is open', async () => {
    const store = await createStore(POSTGRES_URL, {
      purgeIntervalMs: 0,
      operationTimeoutMs: CONTRACT_TIMEOUT_MS,
    });
    try {
      await expect(createStore(`${POSTGRES_URL}?application_name=other`)).rejects.toThrow(
        /another PostgreSQL URL is already open/,
      );
    } finally {
      await store.close();
    }
  });
});
