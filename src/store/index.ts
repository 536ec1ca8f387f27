import type { Clock } from '../core/clock.ts';
import { logFor } from '../log/index.ts';
import { unrefSleep } from '../core/clock.ts';
import { createGuard, StoreError, type Guard, type StoreHealth } from './guard.ts';
import {
  createMemoryBackend,
  createPostgresBackend,
  createRedisBackend,
  createSqliteBackend,
  decode,
  encode,
  isLive,
  type Backend,
  type StoreKind,
} from './backends.ts';

export type { StoreKind } from './backends.ts';
export { isStoreError, StoreError, type StoreHealth } from './guard.ts';

/**
 * A set of keyed JSON values, one namespace of a {@link Store}. Every method is async; when the server
 * fails or does not answer within the store's `operationTimeoutMs` it rejects with a {@link StoreError}
 * (a write that timed out may still land later). Values go through `JSON.stringify`: store plain data (no `undefined`, `Date`
 * becomes a string, `bigint` throws). `ttlMs` is a lifetime in milliseconds; an expired entry is absent
 * for every method, including `add`.
 */
export interface Namespace<T = unknown> {
  readonly name: string;
  get(key: string): Promise<T | undefined>;
  set(key: string, value: T, ttlMs?: number): Promise<void>;
  /** True when an entry was removed (an expired entry that was not purged yet may count). */
  delete(key: string): Promise<boolean>;
  has(key: string): Promise<boolean>;
  /**
   * Sets the entry only when it is absent (or expired), atomically across every process sharing the
   * store: of concurrent callers exactly one gets `true`. For leases and de-duplication.
   */
  add(key: string, value: T, ttlMs?: number): Promise<boolean>;
  /**
   * Compare-and-set: writes `value` (with a new lifetime) only while the live entry still holds
   * `expected`, as JSON, and nobody wrote it in between; true when it wrote. Atomic across every process
   * sharing the store: a renewal cannot overwrite what another process put there meanwhile.
   */
  replace(key: string, expected: T, value: T, ttlMs?: number): Promise<boolean>;
  /** Every live entry of this namespace, in no particular order; entries changed meanwhile may or may not appear. */
  entries(): AsyncIterableIterator<[key: string, value: T]>;
}

/** Storage opened by {@link createStore}; the only gateway to Keyv in this project. */
export interface Store {
  readonly kind: StoreKind;
  readonly health: StoreHealth;
  /** The namespace `name` (lowercase letters, digits and dashes); cheap, call it as often as needed. */
  namespace<T = unknown>(name: string): Namespace<T>;
  /** Deletes expired entries now (SQL and memory keep them until purged; Redis expires keys itself); how many it deleted. */
  purgeExpired(): Promise<number>;
  /** Closes the connection; every later call rejects. Safe to call twice. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /**
   * Prepended to every namespace name, so that several bots or test runs can share one server;
   * `[a-z0-9-]*`, best ended with `-`.
   */
  readonly prefix?: string;
  /** How long connecting to Redis or PostgreSQL may take at start-up. Default 5000. */
  readonly connectTimeoutMs?: number;
  /** How often expired entries are purged in the background; 0 turns it off. Default 10 minutes. */
  readonly purgeIntervalMs?: number;
  /** How long one operation (or one step of `entries()`) may take before it fails. Default 2000. */
  readonly operationTimeoutMs?: number;
  /** How often an unhealthy store is probed. Default 5000. */
  readonly healthProbeMs?: number;
  /** Waits for the timeouts and probes (a manual clock in tests); unref'd timers by default. */
  readonly clock?: Pick<Clock, 'sleep'>;
}

/** Physical keys must fit the `VARCHAR(255)` key column of the SQL backends. */
export const MAX_KEY_LENGTH = 255;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const PREFIX = /^[a-z0-9-]{0,64}$/;

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = 'redacted';
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

function ttlOf(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RangeError('ttlMs must be a positive number of milliseconds');
  }
  return Math.ceil(ttlMs);
}

function checkValue(value: unknown): void {
  if (value === undefined) throw new TypeError('a stored value cannot be undefined; use delete()');
}

class KeyvNamespace<T> implements Namespace<T> {
  readonly #backend: Backend;
  readonly #physical: string;
  readonly #open: () => void;
  readonly #guard: Guard;

  constructor(
    readonly name: string,
    physical: string,
    backend: Backend,
    open: () => void,
    guard: Guard,
  ) {
    this.#physical = physical;
    this.#backend = backend;
    this.#open = open;
    this.#guard = guard;
  }

  #key(key: string): string {
    this.#open();
    if (typeof key !== 'string' || key === '') throw new TypeError('a store key must be a non-empty string');
    const physical = `${this.#physical}:${key}`;
    if (physical.length > MAX_KEY_LENGTH) {
      throw new RangeError(`a store key may hold at most ${MAX_KEY_LENGTH} characters with its namespace`);
    }
    return physical;
  }

  async #live(key: string): Promise<{ value?: unknown } | undefined> {
    const physical = this.#key(key);
    const raw = await this.#guard.run('read', () => this.#backend.read(physical));
    if (raw === undefined) return undefined;
    const entry = decode(raw);
    return isLive(entry, Date.now()) ? entry : undefined;
  }

  async get(key: string): Promise<T | undefined> {
    return (await this.#live(key))?.value as T | undefined;
  }

  async set(key: string, value: T, ttlMs?: number): Promise<void> {
    const physical = this.#key(key);
    checkValue(value);
    const ttl = ttlOf(ttlMs);
    await this.#guard.run('write', () => this.#backend.keyv.set(physical, value, ttl));
  }

  async delete(key: string): Promise<boolean> {
    const physical = this.#key(key);
    return this.#guard.run('delete', () => this.#backend.keyv.delete(physical));
  }

  async has(key: string): Promise<boolean> {
    return (await this.#live(key)) !== undefined;
  }

  async add(key: string, value: T, ttlMs?: number): Promise<boolean> {
    const physical = this.#key(key);
    checkValue(value);
    const ttl = ttlOf(ttlMs);
    const now = Date.now();
    const raw = encode(ttl === undefined ? { value } : { value, expires: now + ttl });
    return this.#guard.run('add', () => this.#backend.add(physical, raw, ttl, now));
  }

  async replace(key: string, expected: T, value: T, ttlMs?: number): Promise<boolean> {
    const physical = this.#key(key);
    checkValue(value);
    const ttl = ttlOf(ttlMs);
    const raw = await this.#guard.run('read', () => this.#backend.read(physical));
    if (raw === undefined) return false;
    const now = Date.now();
    const entry = decode(raw);
    if (!isLive(entry, now) || JSON.stringify(entry.value) !== JSON.stringify(expected)) return false;
    const next = encode(ttl === undefined ? { value } : { value, expires: now + ttl });
    // The swap compares the whole stored text read above (its expiry included): any write in between
    // makes it fail.
    return this.#guard.run('replace', () => this.#backend.swap(physical, raw, next, ttl));
  }

  async *entries(): AsyncIterableIterator<[key: string, value: T]> {
    this.#open();
    const scan = this.#backend.scan(this.#physical);
    const iterator: AsyncIterator<readonly [string, string | undefined]> =
      Symbol.asyncIterator in scan ? scan[Symbol.asyncIterator]() : fromSync(scan[Symbol.iterator]());
    try {
      for (;;) {
        // Each page is bounded, not the whole listing: a long listing of a healthy store is fine.
        const step = await this.#guard.run('list', () => iterator.next());
        if (step.done === true) return;
        const [key, raw] = step.value;
        if (raw === undefined) continue;
        const entry = decode(raw);
        if (isLive(entry, Date.now())) yield [key, entry.value as T];
      }
    } finally {
      // Not awaited: after a timeout the backend's iterator is still stuck in its pending step.
      void iterator.return?.(undefined).catch(() => undefined);
    }
  }
}

function fromSync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return { next: () => Promise.resolve(iterator.next()) };
}

async function openBackend(url: string, connectTimeoutMs: number): Promise<Backend> {
  const scheme = /^([a-z]+):\/\//.exec(url)?.[1];
  switch (scheme) {
    case 'memory':
      return createMemoryBackend();
    case 'sqlite':
      if (url.length === 'sqlite://'.length) throw new StoreError('a sqlite:// store URL needs a file path');
      return createSqliteBackend(url);
    case 'redis':
    case 'rediss':
      return createRedisBackend(url, connectTimeoutMs);
    case 'postgres':
    case 'postgresql':
      return createPostgresBackend(url, connectTimeoutMs);
    default:
      throw new StoreError(
        'unsupported store URL: use sqlite://, redis://, rediss://, postgres://, postgresql:// or memory://',
      );
  }
}

/**
 * Opens the store a URL names: `sqlite://relative/path.sqlite` or `sqlite:///absolute/path.sqlite` (the
 * folder is created), `redis://` or `rediss://`, `postgres://` or `postgresql://`, and `memory://` (one
 * process, nothing kept; for tests). Connects before resolving, so that a wrong URL fails at start-up.
 */
export async function createStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const prefix = options.prefix ?? '';
  if (!PREFIX.test(prefix)) throw new StoreError('a store prefix may hold only a-z, 0-9 and -, up to 64');
  let backend: Backend;
  try {
    backend = await openBackend(url, options.connectTimeoutMs ?? 5_000);
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError(`cannot open the store at ${withoutPassword(url)}: ${reason}`, { cause: error });
  }

  const log = logFor('store');
  let closed = false;
  const open = () => {
    if (closed) throw new StoreError('the store is closed');
  };
  const probeKey = `${prefix}store-health:probe`;
  const guard = createGuard({
    timeoutMs: options.operationTimeoutMs ?? 2_000,
    probeMs: options.healthProbeMs ?? 5_000,
    sleep: options.clock?.sleep.bind(options.clock) ?? unrefSleep,
    isClosed: () => closed,
    // A write and a read: a read-only or full disk is down too, since nothing could be recorded.
    probe: async () => {
      await backend.keyv.set(probeKey, Date.now(), 60_000);
      await backend.read(probeKey);
    },
  });
  backend.watch?.(
    (reason) => {
      if (!closed) guard.markDown(reason);
    },
    () => {
      if (!closed) guard.probeNow();
    },
  );
  const purgeExpired = async () => {
    open();
    return guard.run('purge', () => backend.purge(prefix, Date.now()));
  };
  const interval = options.purgeIntervalMs ?? 10 * 60_000;
  const timer =
    interval > 0
      ? setInterval(() => {
          purgeExpired().then(
            (removed) => {
              if (removed > 0) log.debug({ removed }, 'purged expired entries');
            },
            (error: unknown) => log.warn({ err: error }, 'purging expired entries failed'),
          );
        }, interval).unref()
      : undefined;

  return {
    kind: backend.kind,
    health: guard.health,
    namespace<T = unknown>(name: string): Namespace<T> {
      if (!NAME.test(name)) {
        throw new StoreError(`invalid namespace name: use a-z, 0-9 and -, starting with a letter or digit`);
      }
      return new KeyvNamespace<T>(name, `${prefix}${name}`, backend, open, guard);
    },
    purgeExpired,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      guard.stop();
      // A server that does not answer would hold a graceful close forever.
      await guard
        .run('close', () => backend.close())
        .catch((error: unknown) => {
          log.warn({ err: error }, 'the store did not close cleanly');
          backend.abort?.();
        });
    },
  };
}
