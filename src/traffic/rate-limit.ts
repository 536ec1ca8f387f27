import type { Clock } from '../core/clock.ts';
import { WakeTimer } from './wake.ts';
import { FairQueue, type Owner } from './fair.ts';
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
    /**
     * How much later than its latest start the slot would come (0 when unknown): the same request asked
     * again this much later, with the same time to wait, would get one. What a refused command tells.
     */
    readonly shortByMs = 0,
  ) {
    super(message);
    this.name = 'WaitRefusedError';
  }
}

/** Where a waiter stands in the queue: told to it as the queue moves (see {@link QueueOptions}). */
export interface QueuePlace {
  /** 1 for the next to go; counts the waiters ahead on the same window. */
  readonly position: number;
  /** When its slot is expected (clock time), at the present rate. */
  readonly startsAt: number;
}

/** A waiter's turn in the fair queue (commands), and what it is told while waiting. */
export interface QueueOptions {
  /** Whose request it is: interactive waiters take turns by server, then by user. */
  readonly owner?: Owner | undefined;
  /** Called on every move of the queue while it waits (cheap: the listener bounds what it does). */
  readonly onQueued?: ((place: QueuePlace) => void) | undefined;
}

/**
 * Schedules requests so that a key's rate limits are not exceeded in the first place.
 *
 * Each bucket is a fixed window (`limit` requests until `resetAt`), learnt from the `X-RateLimit-*`
 * headers of replies and assumed from defaults until the first reply. A request takes one slot from
 * every bucket it belongs to: the key's general window and, for routes with a window of their own
 * (events: 6 a minute), that one too. Waiters are served by priority, interactive before background;
 * interactive ones (commands) in a fair queue, servers in turn and users in turn within a server,
 * background ones in arrival order; a waiter never overtakes an earlier one on a bucket that the earlier
 * one waits for.
 *
 * A waiter names the latest moment its request may start (its deadline less the time the request and
 * what follows it need). Each pass projects when every waiter's slot comes, from the windows and the
 * waiters ahead of it, and refuses at once the ones whose slot would come later; the others are told
 * their place and estimate (`onQueued`).
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
  /** The latest clock time at which its request may start. */
  readonly deadline: number;
  readonly onQueued: ((place: QueuePlace) => void) | undefined;
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
  /** Interactive waiters, in turns by server then user. */
  readonly #fair = new FairQueue<Waiter>();
  /** Background waiters, in arrival order, after every interactive one. */
  readonly #background: Waiter[] = [];
  readonly #wake: WakeTimer;

  constructor(clock: Clock, shared?: SharedLimits) {
    this.#clock = clock;
    this.#wake = new WakeTimer(clock, () => this.#pump());
    this.shared = shared ?? createMemoryLimits(clock);
    this.#ownsShared = shared === undefined;
  }

  /**
   * Takes a slot in each of `buckets` (created with `defaults` when new), waiting as needed, then one in
   * their shared windows. `deadline` is the latest moment the request may start: a wait that would pass
   * it is refused with WaitRefusedError as soon as that shows, so no caller waits for nothing.
   */
  async acquire(
    buckets: ReadonlyArray<{ readonly name: string; readonly defaults: BucketDefaults }>,
    priority: Priority,
    deadline: number,
    queue: QueueOptions = {},
  ): Promise<Release> {
    const release = await this.#acquireLocal(buckets, priority, deadline, queue);
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
          Math.max(0, this.#clock.now() + error.retryAfterMs - deadline),
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
    queue: QueueOptions,
  ): Promise<Release> {
    for (const { name, defaults } of buckets) this.#ensure(name, defaults);
    const names = buckets.map((bucket) => bucket.name);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        buckets: names,
        priority,
        deadline,
        onQueued: queue.onQueued,
        grant: () => resolve(this.#release(names)),
        fail: reject,
      };
      if (priority === 'interactive') this.#fair.push(waiter, queue.owner);
      else this.#background.push(waiter);
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
    return this.#fair.size + this.#background.length;
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

  /** Every waiter in the order it is served: the fair queue, then background ones. */
  #order(): Waiter[] {
    return [...this.#fair.order(), ...this.#background];
  }

  /** Takes a waiter out of the queue: `served` when it got its slot (its turn is used). */
  #dequeue(waiter: Waiter, served: boolean): void {
    if (waiter.priority === 'interactive') {
      if (served) this.#fair.served(waiter);
      else this.#fair.remove(waiter);
      return;
    }
    const index = this.#background.indexOf(waiter);
    if (index >= 0) this.#background.splice(index, 1);
  }

  #pump(): void {
    const now = this.#clock.now();
    const blocked = new Set<string>();
    /** Per bucket, the waiters of this pass still waiting on it: those ahead of the next one. */
    const ahead = new Map<string, number>();
    let wakeAt = Infinity;
    for (const waiter of this.#order()) {
      const buckets = waiter.buckets.map((name) => this.#buckets.get(name)).filter((b) => b !== undefined);
      for (const bucket of buckets) this.#refill(bucket, now);
      const free =
        waiter.buckets.every((name) => !blocked.has(name)) && buckets.every((b) => b.remaining > 0);
      if (free && now <= waiter.deadline) {
        for (const bucket of buckets) {
          // A window starts with its first request (the service's fixed windows do too).
          if (bucket.resetAt === 0) bucket.resetAt = now + bucket.windowMs;
          bucket.remaining -= 1;
          bucket.inFlight += 1;
        }
        this.#dequeue(waiter, true);
        waiter.grant();
        continue;
      }
      const readyAt = Math.max(...buckets.filter((b) => b.remaining <= 0).map((b) => b.resetAt), now);
      const place = this.#project(waiter, ahead, now);
      if (place.startsAt > waiter.deadline) {
        this.#dequeue(waiter, false);
        const message = 'Rate limit reached; the wait would pass the deadline';
        waiter.fail(new WaitRefusedError(message, place.startsAt - now, place.startsAt - waiter.deadline));
        continue;
      }
      for (const name of waiter.buckets) ahead.set(name, (ahead.get(name) ?? 0) + 1);
      // Only what is exhausted is held for this waiter: later waiters on other buckets may go on.
      waiter.buckets.forEach((name, i) => {
        if ((buckets[i]?.remaining ?? 0) <= 0) blocked.add(name);
      });
      if (buckets.some((b) => b.remaining <= 0)) wakeAt = Math.min(wakeAt, readyAt);
      waiter.onQueued?.(place);
    }
    this.#schedule(wakeAt);
  }

  /**
   * Where `waiter` stands, and when its slot is expected: on each of its buckets, the waiters ahead of it
   * take what is left of the window, then whole windows one after another; it goes once every bucket has
   * a slot for it.
   */
  #project(waiter: Waiter, ahead: ReadonlyMap<string, number>, now: number): QueuePlace {
    let startsAt = now;
    let position = 1;
    for (const name of waiter.buckets) {
      const bucket = this.#buckets.get(name);
      if (!bucket) continue;
      const before = ahead.get(name) ?? 0;
      position = Math.max(position, before + 1);
      const left = Math.max(0, bucket.remaining) - before;
      if (left > 0) continue;
      const windows = Math.floor(-left / Math.max(1, bucket.limit));
      // The window under way ends at its reset; one not started yet would start with the first slot.
      const opens = bucket.resetAt > now ? bucket.resetAt : now + bucket.windowMs;
      startsAt = Math.max(startsAt, opens + windows * bucket.windowMs);
    }
    return { position, startsAt };
  }

  #schedule(at: number): void {
    if (at === Infinity) {
      if (this.waiting === 0) this.#wake.cancel();
      return;
    }
    this.#wake.at(at);
  }

  /** Stops the wake-up timer and fails every waiter (on shutdown); closes the shared limits it made. */
  close(): void {
    this.#wake.cancel();
    for (const waiter of this.#order()) {
      this.#dequeue(waiter, false);
      waiter.fail(new WaitRefusedError('Client closed', 0));
    }
    if (this.#ownsShared) void this.shared.close();
  }
}

export type Release = () => void;

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
