import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KeyvPostgres } from '@keyv/postgres';
import KeyvRedis, { createClient } from '@keyv/redis';
import { KeyvSqlite } from '@keyv/sqlite';
import Keyv, { type Deserialize } from 'keyv';
import { logFor } from '../log/index.ts';

/** What Keyv keeps for one entry; `expires` is a Unix time in milliseconds. */
export interface Stored {
  readonly value?: unknown;
  readonly expires?: number | undefined;
}

export function encode(entry: Stored): string {
  return JSON.stringify(entry);
}

export function decode(raw: string): Stored {
  return JSON.parse(raw) as Stored;
}

/**
 * Sets KEYS[1] to ARGV[1] (with a PX of ARGV[3] unless it is 0) when the key is absent, or when its entry
 * expired before ARGV[2] by its own `expires`. A value that does not decode counts as live.
 */
const ADD_UNLESS_LIVE = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, entry = pcall(cjson.decode, current)
  if not (ok and type(entry) == 'table' and type(entry.expires) == 'number' and entry.expires < tonumber(ARGV[2])) then
    return 0
  end
end
if ARGV[3] == '0' then redis.call('SET', KEYS[1], ARGV[1]) else redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3]) end
return 1`;

const SWAP_IF_EQUAL = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] == '0' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;

export function isLive(entry: Stored, now: number): boolean {
  return typeof entry.expires !== 'number' || now <= entry.expires;
}

export type StoreKind = 'memory' | 'sqlite' | 'redis' | 'postgres';

/**
 * One storage server behind Keyv. Keyv itself runs without a namespace: the store builds every physical key
 * as `<namespace>:<key>`, so that one connection serves every namespace and the native statements below
 * address the same rows Keyv does.
 */
export interface Backend {
  readonly kind: StoreKind;
  readonly keyv: Keyv;
  /**
   * The raw entry, expired or not. Reads bypass Keyv's get, which deletes an expired entry after reading
   * it: that delete could remove an entry another process has just added in its place.
   */
  read(physicalKey: string): Promise<string | undefined>;
  /** Writes `raw` under `physicalKey` unless a live entry is there; true when it wrote. Atomic. */
  add(physicalKey: string, raw: string, ttlMs: number | undefined, now: number): Promise<boolean>;
  /** Writes `raw` under `physicalKey` only while the stored text is exactly `expected`; true when it wrote. Atomic. */
  swap(physicalKey: string, expected: string, raw: string, ttlMs: number | undefined): Promise<boolean>;
  /** Entries whose physical key starts with `<namespace>:`, with that prefix removed, raw as stored. */
  scan(
    namespace: string,
  ): AsyncIterable<readonly [key: string, raw: string | undefined]> | Iterable<readonly [string, string]>;
  /** Deletes expired entries whose physical key starts with `prefix`; how many it deleted. */
  purge(prefix: string, now: number): Promise<number>;
  close(): Promise<void>;
  /** Drops the connection without waiting for answers (when a graceful close does not finish). */
  abort?(): void;
  /** Reports a lost connection as it happens, before an operation fails on it, and its return (`up`). */
  watch?(down: (reason: string) => void, up?: () => void): void;
}

function newKeyv(store: unknown): Keyv {
  // An empty namespace turns Keyv's own key prefixing off; see Backend.
  return new Keyv({
    store,
    namespace: '',
    serialize: encode,
    deserialize: decode as Deserialize,
    throwOnErrors: true,
  });
}

function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createMemoryBackend(): Backend {
  const map = new Map<string, string>();
  return {
    kind: 'memory',
    keyv: newKeyv(map),
    read: (physicalKey) => Promise.resolve(map.get(physicalKey)),
    add(physicalKey, raw, _ttlMs, now) {
      // No await before the write: nothing can run between the check and the set.
      const current = map.get(physicalKey);
      if (current !== undefined && isLive(decode(current), now)) return Promise.resolve(false);
      map.set(physicalKey, raw);
      return Promise.resolve(true);
    },
    swap: (physicalKey, expected, raw) =>
      Promise.resolve(map.get(physicalKey) === expected && map.set(physicalKey, raw).has(physicalKey)),
    scan(namespace) {
      const start = `${namespace}:`;
      return [...map]
        .filter(([key]) => key.startsWith(start))
        .map(([key, raw]) => [key.slice(start.length), raw] as const);
    },
    purge(prefix, now) {
      let removed = 0;
      for (const [key, raw] of map) {
        if (key.startsWith(prefix) && !isLive(decode(raw), now)) {
          map.delete(key);
          removed += 1;
        }
      }
      return Promise.resolve(removed);
    },
    close: () => Promise.resolve(),
  };
}

/** `sqlite://data/bot.sqlite` is relative to the working directory, `sqlite:///app/data/bot.sqlite` absolute. */
export function sqlitePath(url: string): string {
  return url.slice('sqlite://'.length);
}

export async function createSqliteBackend(url: string): Promise<Backend> {
  const path = sqlitePath(url);
  if (path !== ':memory:') await mkdir(dirname(path), { recursive: true });
  const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 5_000, iterationLimit: 200 });
  const keyv = newKeyv(adapter);
  const table = adapter.opts.table ?? 'keyv';
  const query = adapter.query as (sql: string, ...params: unknown[]) => Promise<Record<string, unknown>[]>;
  try {
    await query('PRAGMA journal_mode = WAL');
    await query(`SELECT 1 FROM ${table} LIMIT 1`);
  } catch (error) {
    await adapter.disconnect().catch(() => undefined);
    throw error;
  }
  const expiresOf = (column: string) =>
    `(CASE WHEN json_valid(${column}) THEN json_extract(${column}, '$.expires') END)`;
  return {
    kind: 'sqlite',
    keyv,
    read: (physicalKey) => adapter.get<string>(physicalKey),
    async add(physicalKey, raw, _ttlMs, now) {
      const rows = await query(
        `INSERT INTO ${table} (key, value) VALUES (?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE ${expiresOf(`${table}.value`)} < ?
         RETURNING key`,
        physicalKey,
        raw,
        now,
      );
      return rows.length === 1;
    },
    async swap(physicalKey, expected, raw) {
      const rows = await query(
        `UPDATE ${table} SET value = ? WHERE key = ? AND value = ? RETURNING key`,
        raw,
        physicalKey,
        expected,
      );
      return rows.length === 1;
    },
    async *scan(namespace) {
      // The adapter pages with OFFSET, which skips rows when entries are deleted while listing: read first.
      const rows: (readonly [string, string | undefined])[] = [];
      const start = `${namespace}:`;
      for await (const [key, raw] of adapter.iterator(namespace) as AsyncIterable<[string, string]>) {
        if (key.startsWith(start)) rows.push([key.slice(start.length), raw]);
      }
      yield* rows;
    },
    async purge(prefix, now) {
      const rows = await query(
        `DELETE FROM ${table} WHERE key LIKE ? ESCAPE '\\' AND ${expiresOf('value')} < ? RETURNING key`,
        likePrefix(prefix),
        now,
      );
      return rows.length;
    },
    close: () => adapter.disconnect(),
  };
}

/**
 * @keyv/postgres keeps one pg pool per process, shared by every adapter of the same URL and ended by any
 * adapter's disconnect. So the stores of one URL are counted and the pool is ended by the last one to
 * close, and a second URL is refused while the first is open.
 */
const postgresOpen = { url: '', count: 0 };

/** pg-pool calls `log` as a method of the pool: the only handle on it, to listen to its 'error' events. */
function listenToPool(this: unknown): void {
  if (this instanceof EventEmitter && this.listenerCount('error') === 0) {
    // An idle client whose server connection dies is reported here; unheard, it would crash the process.
    this.on('error', (error: Error & { code?: string }) => {
      // Not the whole error: pg attaches the client, with its connection parameters and cancel key.
      logFor('store').warn({ code: error.code, reason: error.message }, 'postgres idle connection lost');
    });
  }
}

export async function createPostgresBackend(url: string, connectTimeoutMs: number): Promise<Backend> {
  if (postgresOpen.count > 0 && postgresOpen.url !== url) {
    throw new Error('another PostgreSQL URL is already open in this process; @keyv/postgres shares one pool');
  }
  const adapter = new KeyvPostgres({
    uri: url,
    iterationLimit: 200,
    connectionTimeoutMillis: connectTimeoutMs,
    log: listenToPool,
  });
  postgresOpen.url = url;
  postgresOpen.count += 1;
  const release = async () => {
    postgresOpen.count -= 1;
    if (postgresOpen.count === 0) await adapter.disconnect();
  };
  const keyv = newKeyv(adapter);
  // The adapter's default schema and table, which it has just created if needed.
  const table = 'public.keyv';
  const query = adapter.query as (sql: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;
  try {
    await query(`SELECT 1 FROM ${table} LIMIT 1`);
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
  const expiresOf = (column: string) =>
    `(CASE WHEN ${column} LIKE '%"expires":%' THEN (${column}::jsonb ->> 'expires')::double precision END)`;
  return {
    kind: 'postgres',
    keyv,
    read: async (physicalKey) => (await adapter.get(physicalKey)) as string | undefined,
    async add(physicalKey, raw, _ttlMs, now) {
      const rows = await query(
        `INSERT INTO ${table} AS existing (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value WHERE ${expiresOf('existing.value')} < $3
         RETURNING key`,
        [physicalKey, raw, now],
      );
      return rows.length === 1;
    },
    async swap(physicalKey, expected, raw) {
      const rows = await query(`UPDATE ${table} SET value = $1 WHERE key = $2 AND value = $3 RETURNING key`, [
        raw,
        physicalKey,
        expected,
      ]);
      return rows.length === 1;
    },
    async *scan(namespace) {
      // The adapter's iterator reports a failed query as an 'error' event and simply stops: turn that
      // back into an exception, so that a listing is never silently cut short.
      const failures: unknown[] = [];
      const onError = (error: unknown) => failures.push(error);
      adapter.on('error', onError);
      try {
        for await (const [key, raw] of adapter.iterator(namespace) as AsyncIterable<[string, string]>) {
          const start = `${namespace}:`;
          if (key.startsWith(start)) yield [key.slice(start.length), raw] as const;
        }
      } finally {
        adapter.off('error', onError);
      }
      if (failures.length > 0) throw failures[0];
    },
    async purge(prefix, now) {
      const rows = await query(
        `DELETE FROM ${table} WHERE key LIKE $1 AND ${expiresOf('value')} < $2 RETURNING key`,
        [likePrefix(prefix), now],
      );
      return rows.length;
    },
    close: release,
  };
}

export async function createRedisBackend(url: string, connectTimeoutMs: number): Promise<Backend> {
  const log = logFor('store');
  let connected = false;
  const client = createClient({
    url,
    // Refuse commands while reconnecting instead of queueing them until the server is back.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      // Give up at once while first connecting (the start-up fails with the cause); afterwards retry forever.
      reconnectStrategy: (retries: number, cause: Error) =>
        connected ? Math.min(2 ** retries * 100, 5_000) : cause,
    },
  });
  client.on('error', (error: unknown) => {
    if (connected) log.warn({ err: error }, 'redis connection error');
  });
  await client.connect();
  connected = true;
  const adapter = new KeyvRedis(client, { keyPrefixSeparator: ':', throwOnErrors: true });
  const keyv = newKeyv(adapter);
  return {
    kind: 'redis',
    keyv,
    read: (physicalKey) => adapter.get<string>(physicalKey),
    async add(physicalKey, raw, ttlMs, now) {
      // One script, so that it is atomic: set when absent, or when what is there is past its own expiry
      // (Redis counts a TTL from when the write arrived, a moment after the entry's expiry was set).
      const added = await client.eval(ADD_UNLESS_LIVE, {
        keys: [physicalKey],
        arguments: [raw, String(now), String(ttlMs ?? 0)],
      });
      return added === 1;
    },
    async swap(physicalKey, expected, raw, ttlMs) {
      const swapped = await client.eval(SWAP_IF_EQUAL, {
        keys: [physicalKey],
        arguments: [expected, raw, String(ttlMs ?? 0)],
      });
      return swapped === 1;
    },
    async *scan(namespace) {
      // SCAN may return a key more than once.
      const seen = new Set<string>();
      for await (const [key, raw] of adapter.iterator<string>(namespace)) {
        if (seen.has(key)) continue;
        seen.add(key);
        yield [key, raw] as const;
      }
    },
    // Redis expires keys itself.
    purge: () => Promise.resolve(0),
    async close() {
      connected = false;
      if (client.isOpen) await client.close();
    },
    abort() {
      if (client.isOpen) client.destroy();
    },
    watch(down, up) {
      client.on('error', () => connected && down('connection-lost'));
      client.on('ready', () => connected && up?.());
    },
  };
}

/**
 * A Redis connection of its own, for the lower layers that need Redis beside Keyv (the shared request
 * limits of src/limits), so that only src/store imports the client. Raw commands only. It connects in the
 * background and reconnects forever; while it is not connected, commands are refused at once (nothing
 * queues), so a caller never waits on a dead server for longer than its own timeout.
 */
export interface RedisConnection {
  readonly ready: boolean;
  send(args: readonly string[]): Promise<unknown>;
  /** `listener` hears every connection error (they are never thrown at anyone else). */
  onError(listener: (error: unknown) => void): void;
  /** `listener` hears every (re)connection. */
  onReady(listener: () => void): void;
  /** Drops the connection and stops reconnecting. */
  close(): void;
}

export function openRedisConnection(url: string, connectTimeoutMs: number): RedisConnection {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries: number) => Math.min(2 ** retries * 100, 2_000),
    },
  });
  const errorListeners: Array<(error: unknown) => void> = [];
  client.on('error', (error: unknown) => {
    for (const listener of errorListeners) listener(error);
  });
  // With a reconnect strategy that never gives up, this settles only once connected (or closed).
  client.connect().catch(() => undefined);
  return {
    get ready() {
      return client.isReady;
    },
    send: (args) => client.sendCommand([...args]),
    onError: (listener) => errorListeners.push(listener),
    onReady: (listener) => client.on('ready', listener),
    close() {
      if (client.isOpen) client.destroy();
    },
  };
}
