import type { Clock } from '../core/clock.ts';
import { WakeTimer } from './wake.ts';
import {
  createMemoryLimits,
  LimitsClosedError,
  LimitWaitError,
  type LimitWindow,
  type SharedLimits,
} from './index.ts';

/**
 * A wait the limiter refused to make: it would pass the caller's deadline, or the limiter is closed. The
 * tier client tells its callers so as a 429 of its own (`RateLimitedError`, with the route).
 */
export class WaitRefusedError extends Error {
  constructor(
    message: string,
    /** How long until a slot frees, in milliseconds (0 once closed). */
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'WaitRefusedError';
  }
}

/**
 * Schedules requests so that a key's rate limits are not exceeded in the first place.
 *
 * Each bucket is a fixed window (`limit` requests until `resetAt`), learnt from the `X-RateLimit-*`
 * headers of replies and assumed from defaults until the first reply. A request takes one slot from
 * every bucket it belongs to: the key's general window and, for routes with a window of their own
 * (events: 6 a minute), that one too. Waiters are served by priority, interactive before background,
 * then in arrival order; a waiter never overtakes an earlier one on a bucket that the earlier one
 * waits for.
 *
 * That is this process's view. Past it, a request also takes a slot of each of its finite buckets in the
 * shared limits (`src/limits`): sliding windows of the same size, counted with every other process's
 * requests when they are in Redis, where background requests leave the bucket's `reserve` to interactive
 * ones. Only then does it go out.
 */
export type Priority = 'interactive' | 'background';

export interface WindowState {
  readonly limit: number;
  readonly remaining: number;
  /** Epoch ms at which the window resets. */
  readonly resetAt: number;
}

interface Bucket {
  limit: number;
  remaining: number;
  resetAt: number;
  windowMs: number;
  inFlight: number;
}

interface Waiter {
  readonly buckets: readonly string[];
  readonly priority: Priority;
  readonly seq: number;
  readonly deadline: number;
  readonly grant: () => void;
  readonly fail: (error: Error) => void;
}

export interface BucketDefaults {
  readonly limit: number;
  readonly windowMs: number;
  /** Slots of the shared window that background requests leave to interactive ones. Default 0. */
  readonly reserve?: number;
}

export class RateLimiter {
  readonly #clock: Clock;
  /** The shared limits every request passes after this view; this limiter's own when none were given. */
  readonly shared: SharedLimits;
  readonly #ownsShared: boolean;
  readonly #buckets = new Map<string, Bucket>();
  readonly #waiting: Waiter[] = [];
  #seq = 0;
  readonly #wake: WakeTimer;

  constructor(clock: Clock, shared?: SharedLimits) {
    this.#clock = clock;
    this.#wake = new WakeTimer(clock, () => this.#pump());
    this.shared = shared ?? createMemoryLimits(clock);
    this.#ownsShared = shared === undefined;
  }

  /**
   * Takes a slot in each of `buckets` (created with `defaults` when new), waiting as needed, then one in
   * their shared windows. Rejects with WaitRefusedError at once when a wait would pass `deadline`, so no
   * caller waits for nothing.
   */
  async acquire(
    buckets: ReadonlyArray<{ readonly name: string; readonly defaults: BucketDefaults }>,
    priority: Priority,
    deadline: number,
  ): Promise<Release> {
    const release = await this.#acquireLocal(buckets, priority, deadline);
    const windows = this.#sharedWindows(buckets);
    if (windows.length === 0) return release;
    try {
      await this.shared.take({ windows, priority, deadline });
      return release;
    } catch (error) {
      release();
      // Nothing went out: the slot taken in this view's count is given back (a refused background call
      // must not use up the room kept for commands).
      this.#refund(buckets.map((bucket) => bucket.name));
      if (error instanceof LimitWaitError)
        throw new WaitRefusedError(
          'Rate limit reached; the wait would pass the deadline',
          error.retryAfterMs,
        );
      if (error instanceof LimitsClosedError) throw new WaitRefusedError('Client closed', 0);
      throw error;
    }
  }

  /**
   * The shared windows of `buckets`, of their configured sizes (`defaults`: 60 a minute for a key, 6 for the
   * events route): a reply tells how much of a fixed window is left, not how long a sliding one should be.
   * A key's windows share one scope (the general bucket's name, before any `#route`), which keeps them
   * together in Redis.
   */
  #sharedWindows(buckets: ReadonlyArray<{ readonly name: string; readonly defaults: BucketDefaults }>) {
    const windows: LimitWindow[] = [];
    for (const { name, defaults } of buckets) {
      const { limit, windowMs, reserve } = defaults;
      if (!Number.isFinite(limit) || limit < 1) continue;
      const scope = name.split('#', 1)[0] ?? name;
      windows.push({ scope, name, limit: Math.floor(limit), windowMs, reserve: reserve ?? 0 });
    }
    return windows;
  }

  #acquireLocal(
    buckets: ReadonlyArray<{ readonly name: string; readonly defaults: BucketDefaults }>,
    priority: Priority,
    deadline: number,
  ): Promise<Release> {
    for (const { name, defaults } of buckets) this.#ensure(name, defaults);
    const names = buckets.map((bucket) => bucket.name);
    return new Promise<Release>((resolve, reject) => {
      this.#waiting.push({
        buckets: names,
        priority,
        seq: this.#seq++,
        deadline,
        grant: () => resolve(this.#release(names)),
        fail: reject,
      });
      this.#waiting.sort(byPriority);
      this.#pump();
    });
  }

  /** Learns a window from a reply's headers (`limit`, `remaining`, `resetAt`). */
  update(name: string, seen: WindowState): void {
    const bucket = this.#buckets.get(name);
    if (!bucket) return;
    const now = this.#clock.now();
    if (seen.resetAt > bucket.resetAt + 1000 || bucket.resetAt <= now) {
      // A window later than the one we counted in: requests still in flight were not counted by it.
      bucket.resetAt = seen.resetAt;
      bucket.remaining = Math.max(0, seen.remaining - Math.max(0, bucket.inFlight - 1));
    } else {
      bucket.remaining = Math.min(bucket.remaining, seen.remaining);
      bucket.resetAt = Math.max(bucket.resetAt, seen.resetAt);
    }
    bucket.limit = seen.limit;
    bucket.windowMs = Math.max(bucket.windowMs, seen.resetAt - now);
    this.#pump();
  }

  /** After a 429: nothing more goes out on this bucket until `until`. */
  exhaust(name: string, until: number): void {
    const bucket = this.#buckets.get(name);
    if (!bucket) return;
    bucket.remaining = 0;
    bucket.resetAt = until;
    this.#pump();
  }

  limitOf(name: string): number | undefined {
    return this.#buckets.get(name)?.limit;
  }

  /** Defines (or redefines) a bucket's window, e.g. when a reply reveals a route's own smaller window. */
  define(name: string, defaults: BucketDefaults): void {
    this.#ensure(name, defaults);
  }

  snapshot(name: string): WindowState | undefined {
    const bucket = this.#buckets.get(name);
    return bucket && { limit: bucket.limit, remaining: bucket.remaining, resetAt: bucket.resetAt };
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  #ensure(name: string, defaults: BucketDefaults): Bucket {
    let bucket = this.#buckets.get(name);
    if (!bucket) {
      bucket = {
        limit: defaults.limit,
        remaining: defaults.limit,
        resetAt: 0,
        windowMs: defaults.windowMs,
        inFlight: 0,
      };
      this.#buckets.set(name, bucket);
    }
    return bucket;
  }

  #release(names: readonly string[]): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const name of names) {
        const bucket = this.#buckets.get(name);
        if (bucket) bucket.inFlight = Math.max(0, bucket.inFlight - 1);
      }
    };
  }

  #refund(names: readonly string[]): void {
    for (const name of names) {
      const bucket = this.#buckets.get(name);
      if (bucket) bucket.remaining = Math.min(bucket.limit, bucket.remaining + 1);
    }
    this.#pump();
  }

  #refill(bucket: Bucket, now: number): void {
    if (bucket.resetAt <= now) {
      bucket.remaining = bucket.limit;
      bucket.resetAt = 0;
    }
  }

  #pump(): void {
    const now = this.#clock.now();
    const blocked = new Set<string>();
    let wakeAt = Infinity;
    for (let index = 0; index < this.#waiting.length;) {
      const waiter = this.#waiting[index];
      if (!waiter) break;
      const buckets = waiter.buckets.map((name) => this.#buckets.get(name)).filter((b) => b !== undefined);
      for (const bucket of buckets) this.#refill(bucket, now);
      const free =
        waiter.buckets.every((name) => !blocked.has(name)) && buckets.every((b) => b.remaining > 0);
      if (free) {
        for (const bucket of buckets) {
          // A window starts with its first request (the service's fixed windows do too).
          if (bucket.resetAt === 0) bucket.resetAt = now + bucket.windowMs;
          bucket.remaining -= 1;
          bucket.inFlight += 1;
        }
        this.#waiting.splice(index, 1);
        waiter.grant();
        continue;
      }
      const readyAt = Math.max(...buckets.filter((b) => b.remaining <= 0).map((b) => b.resetAt), now);
      if (readyAt > waiter.deadline) {
        this.#waiting.splice(index, 1);
        waiter.fail(
          new WaitRefusedError('Rate limit reached; the wait would pass the deadline', readyAt - now),
        );
        continue;
      }
      // Only what is exhausted is held for this waiter: later waiters on other buckets may go on.
      waiter.buckets.forEach((name, i) => {
        if ((buckets[i]?.remaining ?? 0) <= 0) blocked.add(name);
      });
      if (buckets.some((b) => b.remaining <= 0)) wakeAt = Math.min(wakeAt, readyAt);
      index += 1;
    }
    this.#schedule(wakeAt);
  }

  #schedule(at: number): void {
    if (at === Infinity) {
      if (this.#waiting.length === 0) this.#wake.cancel();
      return;
    }
    this.#wake.at(at);
  }

  /** Stops the wake-up timer and fails every waiter (on shutdown); closes the shared limits it made. */
  close(): void {
    this.#wake.cancel();
    for (const waiter of this.#waiting.splice(0)) waiter.fail(new WaitRefusedError('Client closed', 0));
    if (this.#ownsShared) void this.shared.close();
  }
}

export type Release = () => void;

function byPriority(a: Waiter, b: Waiter): number {
  if (a.priority !== b.priority) return a.priority === 'interactive' ? -1 : 1;
  return a.seq - b.seq;
}

/** Reads `X-RateLimit-Limit/Remaining/Reset` (reset in Unix seconds); undefined when absent. */
export function windowFromHeaders(
  headers: Readonly<Record<string, string | undefined>>,
): WindowState | undefined {
  const limit = Number(headers['x-ratelimit-limit']);
  const remaining = Number(headers['x-ratelimit-remaining']);
  const reset = Number(headers['x-ratelimit-reset']);
  if (![limit, remaining, reset].every(Number.isFinite) || headers['x-ratelimit-limit'] === undefined)
    return undefined;
  return { limit, remaining, resetAt: reset * 1000 };
}
