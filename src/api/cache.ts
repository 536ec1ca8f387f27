import type { Clock } from '../core/clock.ts';
import type { CachePolicy } from './route.ts';

/**
 * Cache-aside over the store, written once for every route: `cached(key, policy, load)`.
 *
 * - A fresh entry (younger than `ttlMs`) is returned as it is.
 * - A stale entry (within `staleMs` past its TTL) is returned at once while one refresh runs behind it.
 * - Otherwise `load` runs, and concurrent identical requests share that one call (single flight).
 *
 * A small in-process map sits in front of the store, so a hot key costs no store round trip; the store
 * (SQLite, Redis or PostgreSQL) shares entries between restarts and processes. Both in-process maps are
 * bounded in bytes (a value's JSON length) as well as in entries.
 *
 * The store is an optimisation, never a dependency: a read that fails is a miss, a write that fails
 * leaves the freshly loaded value served all the same. The first failure of a burst is reported (reads
 * and writes apart: a read-only store keeps answering reads).
 */
export interface CacheBackend {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs?: number): Promise<unknown>;
}

interface Entry {
  /** The cached value. */
  readonly v: unknown;
  /** Epoch ms until which the value is fresh. */
  readonly fresh: number;
  /** Epoch ms until which the value may be served stale. */
  readonly stale: number;
}

export interface CacheHit<T> {
  readonly value: T;
  /** `fresh` or `stale` when served from the cache, `loaded` when `load` ran for this call. */
  readonly source: 'fresh' | 'stale' | 'loaded';
}

export interface ReplyCacheOptions {
  readonly backend: CacheBackend;
  readonly clock: Clock;
  /** Entries kept in process memory (least recently used leave first). */
  readonly memoryEntries?: number;
  /** Bytes (of JSON) kept in process memory. Default {@link DEFAULT_MEMORY_BYTES}. */
  readonly memoryBytes?: number;
  /** Called with a background refresh's failure (a stale value was served, so nobody else sees it). */
  readonly onRefreshError?: (key: string, error: unknown) => void;
  /** Called with the first failed store read or write after one that worked (or since start). */
  readonly onStoreError?: (operation: 'read' | 'write', key: string, error: unknown) => void;
}

export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Least recently used entries leave first once either bound is passed. A value's size is the length of
 * its JSON (what a store would hold); a value larger than the whole budget, or not JSON, is not kept.
 */
class ByteLru<V> {
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  #bytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): V | undefined {
    const found = this.#entries.get(key);
    if (!found) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, found);
    return found.value;
  }

  delete(key: string): void {
    const found = this.#entries.get(key);
    if (!found) return;
    this.#entries.delete(key);
    this.#bytes -= found.bytes;
  }

  set(key: string, value: V, sized: unknown = value): void {
    this.delete(key);
    const bytes = jsonLength(sized);
    if (bytes > this.maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#bytes > this.maxBytes || this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }
}

function jsonLength(value: unknown): number {
  try {
    // `undefined` (and a function) have no JSON: `stringify` returns undefined for them.
    return (JSON.stringify(value) as string | undefined)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export class ReplyCache {
  readonly #backend: CacheBackend;
  readonly #clock: Clock;
  readonly #memory: ByteLru<Entry>;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #onRefreshError: (key: string, error: unknown) => void;
  readonly #onStoreError: NonNullable<ReplyCacheOptions['onStoreError']>;
  /** Whether the last store read, and the last write, failed (a burst of failures is reported once). */
  readonly #storeFailing = { read: false, write: false };

  constructor(options: ReplyCacheOptions) {
    this.#backend = options.backend;
    this.#clock = options.clock;
    this.#memory = new ByteLru(options.memoryEntries ?? 5_000, options.memoryBytes ?? DEFAULT_MEMORY_BYTES);
    this.#onRefreshError = options.onRefreshError ?? (() => undefined);
    this.#onStoreError = options.onStoreError ?? (() => undefined);
  }

  async cached<T>(key: string, policy: CachePolicy, load: () => Promise<T>): Promise<CacheHit<T>> {
    const entry = await this.#read(key);
    const now = this.#clock.now();
    if (entry && entry.fresh > now) return { value: entry.v as T, source: 'fresh' };
    if (entry && entry.stale > now) {
      this.#load(key, policy, load).catch((error: unknown) => this.#onRefreshError(key, error));
      return { value: entry.v as T, source: 'stale' };
    }
    return { value: await this.#load(key, policy, load), source: 'loaded' };
  }

  /** Loads and stores a new value whatever the cache holds (still shared with concurrent loads). */
  async refresh<T>(key: string, policy: CachePolicy, load: () => Promise<T>): Promise<CacheHit<T>> {
    return { value: await this.#load(key, policy, load), source: 'loaded' };
  }

  /** The fresh value for `key` if there is one, without loading (lets the bot skip deferring). */
  async peek<T>(key: string): Promise<T | undefined> {
    const known = this.peekMemory(key);
    if (known) return known.value as T | undefined;
    const entry = await this.#read(key);
    return entry && entry.fresh > this.#clock.now() ? (entry.v as T) : undefined;
  }

  /**
   * What {@link peek} answers when the process memory can tell it without the store, at once: `{ value }`
   * (no value when the entry kept there is no longer fresh); undefined when only the store can tell.
   */
  peekMemory(key: string): { readonly value: unknown } | undefined {
    const now = this.#clock.now();
    const local = this.#memory.get(key);
    if (!local || local.stale <= now) return undefined;
    return { value: local.fresh > now ? local.v : undefined };
  }

  /** Single flight: the first caller's `load` serves every concurrent caller of the same key. */
  #load<T>(key: string, policy: CachePolicy, load: () => Promise<T>): Promise<T> {
    const running = this.#inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = (async () => {
      try {
        const value = await load();
        await this.#write(key, value, policy);
        return value;
      } finally {
        this.#inFlight.delete(key);
      }
    })();
    this.#inFlight.set(key, promise);
    return promise;
  }

  async #read(key: string): Promise<Entry | undefined> {
    const now = this.#clock.now();
    const local = this.#memory.get(key);
    if (local && local.stale > now) return local;
    let stored: unknown;
    try {
      stored = await this.#backend.get(key);
      this.#storeFailing.read = false;
    } catch (error) {
      this.#storeFailed('read', key, error);
      return undefined;
    }
    if (!isEntry(stored) || stored.stale <= now) return undefined;
    this.#memory.set(key, stored, stored.v);
    return stored;
  }

  async #write(key: string, value: unknown, policy: CachePolicy): Promise<void> {
    const now = this.#clock.now();
    const entry: Entry = {
      v: value,
      fresh: now + policy.ttlMs,
      stale: now + policy.ttlMs + (policy.staleMs ?? 0),
    };
    this.#memory.set(key, entry, value);
    try {
      await this.#backend.set(key, entry, entry.stale - now);
      this.#storeFailing.write = false;
    } catch (error) {
      this.#storeFailed('write', key, error);
    }
  }

  #storeFailed(operation: 'read' | 'write', key: string, error: unknown): void {
    if (this.#storeFailing[operation]) return;
    this.#storeFailing[operation] = true;
    this.#onStoreError(operation, key, error);
  }
}

function isEntry(value: unknown): value is Entry {
  return (
    typeof value === 'object' &&
    value !== null &&
    'v' in value &&
    typeof (value as Entry).fresh === 'number' &&
    typeof (value as Entry).stale === 'number'
  );
}

export interface MemoryBackendOptions {
  /** Default {@link DEFAULT_MEMORY_BYTES}. */
  readonly maxBytes?: number;
  readonly maxEntries?: number;
}

/** A process-local backend, for tests and for running without a store; it ignores TTLs (entries carry theirs). */
export function memoryBackend(
  options: MemoryBackendOptions = {},
): CacheBackend & { readonly size: number; readonly bytes: number } {
  const lru = new ByteLru<unknown>(
    options.maxEntries ?? Number.POSITIVE_INFINITY,
    options.maxBytes ?? DEFAULT_MEMORY_BYTES,
  );
  return {
    get: (key) => Promise.resolve(lru.get(key)),
    set: (key, value) => {
      lru.set(key, value);
      return Promise.resolve();
    },
    get size() {
      return lru.size;
    },
    get bytes() {
      return lru.bytes;
    },
  };
}
