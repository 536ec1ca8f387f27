import { setMaxListeners } from 'node:events';
import type { Clock } from '../core/clock.ts';
import type { Owner } from './fair.ts';
import type { Priority } from './window.ts';
import type { QueuePlace, WindowState } from './limits.ts';
import {
  createMemoryLimits,
  LimitsClosedError,
  LimitWaitError,
  type LimitWindow,
  type SharedLimits,
} from './index.ts';

export type { QueuePlace, WindowState } from './limits.ts';
export type { Priority } from './window.ts';

/**
 * A wait the gate refused to make: it would pass the caller's deadline, or the client is closed. The tier
 * client tells its callers so as a 429 of its own (`RateLimitedError`, with the route).
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

/** A waiter's turn in the fair queue (commands), and what it is told while waiting. */
export interface QueueOptions {
  /** Whose request it is: interactive waiters take turns by server, then by user. */
  readonly owner?: Owner | undefined;
  /** Called on every move of the queue while it waits (cheap: the listener bounds what it does). */
  readonly onQueued?: ((place: QueuePlace) => void) | undefined;
}

export interface BucketDefaults {
  readonly limit: number;
  readonly windowMs: number;
  /** Slots of the shared window that background requests leave to interactive ones. Default 0. */
  readonly reserve?: number;
}

/**
 * The tier client's windows, by the names it gives them (`<identity>@<host>` for a key's general window,
 * `<general>#<route>` for a route's own), in the one gate (`gate.ts`): it queues nothing itself. A request
 * takes one slot of each of its windows there; what a reply's headers say of a window goes to the gate's
 * view of it. A key's windows share one scope (the general window's name, before any `#route`), which
 * keeps them together in Redis.
 */
export class RateLimiter {
  /** The gate every request waits in; this client's own (in memory) when none was given. */
  readonly shared: SharedLimits;
  readonly #ownsShared: boolean;
  readonly #windows = new Map<string, LimitWindow>();
  /** Aborts this client's waiters when it closes, not those of the others in a shared gate. */
  readonly #closing = new AbortController();

  constructor(clock: Clock, shared?: SharedLimits) {
    this.shared = shared ?? createMemoryLimits(clock);
    this.#ownsShared = shared === undefined;
    // Every waiting request listens to it (and stops when served): a queue of hundreds is expected.
    setMaxListeners(0, this.#closing.signal);
  }

  /**
   * Takes a slot in each of `buckets` (made from `defaults` when new), waiting in the gate as needed.
   * `deadline` is the latest moment the request may start: a wait that would pass it is refused with
   * WaitRefusedError as soon as that shows, so no caller waits for nothing.
   */
  async acquire(
    buckets: ReadonlyArray<{ readonly name: string; readonly defaults: BucketDefaults }>,
    priority: Priority,
    deadline: number,
    queue: QueueOptions = {},
  ): Promise<Release> {
    const windows = buckets.map(({ name, defaults }) => this.#window(name, defaults));
    try {
      const slot = await this.shared.take({
        windows,
        priority,
        deadline,
        signal: this.#closing.signal,
        owner: queue.owner,
        onQueued: queue.onQueued,
      });
      return () => slot.release();
    } catch (error) {
      if (error instanceof LimitWaitError)
        throw new WaitRefusedError(
          'Rate limit reached; the wait would pass the deadline',
          error.retryAfterMs,
          error.shortByMs,
        );
      if (error instanceof LimitsClosedError || this.#closing.signal.aborted)
        throw new WaitRefusedError('Client closed', 0);
      throw error;
    }
  }

  /** Learns a window from a reply's headers (`limit`, `remaining`, `resetAt`). */
  update(name: string, seen: WindowState): void {
    const window = this.#windows.get(name);
    if (window) this.shared.learn(window, seen);
  }

  /** After a 429: nothing more goes out on this window until `until`. */
  exhaust(name: string, until: number): void {
    const window = this.#windows.get(name);
    if (window) this.shared.exhaust(window, until);
  }

  limitOf(name: string): number | undefined {
    return this.snapshot(name)?.limit;
  }

  /** Defines a window, e.g. when a reply reveals a route's own smaller window. */
  define(name: string, defaults: BucketDefaults): void {
    this.#window(name, defaults);
  }

  snapshot(name: string): WindowState | undefined {
    const window = this.#windows.get(name);
    return window && this.shared.view(window);
  }

  /** Fails this client's waiters (on shutdown); closes the gate it made. */
  close(): void {
    this.#closing.abort(new WaitRefusedError('Client closed', 0));
    if (this.#ownsShared) void this.shared.close();
  }

  /**
   * The window named `name`, of its configured size (`defaults`: 60 a minute for a key, 6 for the events
   * route): a reply tells how much of a fixed window is left, not how long a sliding one should be. A
   * limit that is not a positive number leaves the window to the gate's view alone (the store counts it
   * not).
   */
  #window(name: string, defaults: BucketDefaults): LimitWindow {
    let window = this.#windows.get(name);
    if (!window) {
      const { limit, windowMs, reserve } = defaults;
      const scope = name.split('#', 1)[0] ?? name;
      const counted = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : Infinity;
      window = { scope, name, limit: counted, windowMs, reserve: reserve ?? 0 };
      this.#windows.set(name, window);
    }
    return window;
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
