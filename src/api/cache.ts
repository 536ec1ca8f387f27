import type { Clock } from './clock.ts';
import type { CachePolicy } from './route.ts';

/**
 * Cache-aside over the store, written once for every route: `cached(key, policy, load)`.
 *
 * - A fresh entry (younger than `ttlMs`) is returned as it is.
 * - A stale entry (within `staleMs` past its TTL) is returned at once while one refresh runs behind it.
 * - Otherwise `load` runs, and concurrent identical requests share that one call (single flight).
 *
 * A small in-process map sits in front of the store, so a hot key costs no store round trip; the store
 * (SQLite, Redis or PostgreSQL) shares entries between restarts and processes.
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
  /** Called with a background refresh's failure (a stale value was served, so nobody else sees it). */
  readonly onRefreshError?: (key: string, error: unknown) => void;
}

export class ReplyCache {
  readonly #backend: CacheBackend;
  readonly #clock: Clock;
  readonly #memory = new Map<string, Entry>();
  readonly #memoryEntries: number;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #onRefreshError: (key: string, error: unknown) => void;

  constructor(options: ReplyCacheOptions) {
    this.#backend = options.backend;
    this.#clock = options.clock;
    this.#memoryEntries = options.memoryEntries ?? 5_000;
    this.#onRefreshError = options.onRefreshError ?? (() => undefined);
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
    const entry = await this.#read(key);
    return entry && entry.fresh > this.#clock.now() ? (entry.v as T) : undefined;
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
    if (local && local.stale > now) {
      this.#memory.delete(key);
      this.#memory.set(key, local);
      return local;
    }
    const stored = await this.#backend.get(key);
    if (!isEntry(stored) || stored.stale <= now) return undefined;
    this.#remember(key, stored);
    return stored;
  }

  async #write(key: string, value: unknown, policy: CachePolicy): Promise<void> {
    const now = this.#clock.now();
    const entry: Entry = {
      v: value,
      fresh: now + policy.ttlMs,
      stale: now + policy.ttlMs + (policy.staleMs ?? 0),
    };
    this.#remember(key, entry);
    await this.#backend.set(key, entry, entry.stale - now);
  }

  #remember(key: string, entry: Entry): void {
    this.#memory.delete(key);
    this.#memory.set(key, entry);
    if (this.#memory.size > this.#memoryEntries) {
      const oldest = this.#memory.keys().next();
      if (!oldest.done) this.#memory.delete(oldest.value);
    }
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

/** A process-local backend, for tests and for running without a store. */
export function memoryBackend(): CacheBackend & { readonly size: number } {
  const map = new Map<string, unknown>();
  return {
    get: (key) => Promise.resolve(map.get(key)),
    set: (key, value) => {
      map.set(key, value);
      return Promise.resolve();
    },
    get size() {
      return map.size;
    },
  };
}
