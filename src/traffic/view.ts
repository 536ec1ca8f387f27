import type { Priority } from './window.ts';

/** What a window's view holds now: the fixed window counted here, as replies corrected it. */
export interface WindowState {
  readonly limit: number;
  readonly remaining: number;
  /** Clock time at which the window resets (0: not started). */
  readonly resetAt: number;
}

/**
 * This process's view of one window, which the gate (`gate.ts`) checks before it asks the store: a fixed
 * window counted here from the first request, corrected by what the other side says (`learn`: the
 * `X-RateLimit-*` headers of a reply; `exhaust`: a 429), so that a key already spent elsewhere is not asked
 * again before its reset, and from which a waiter's start is projected.
 */
export class WindowView {
  limit: number;
  remaining: number;
  resetAt = 0;
  windowMs: number;
  /** Requests granted and not yet over: a reply's count may not include them yet. */
  #inFlight = 0;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.remaining = limit;
    this.windowMs = windowMs;
  }

  get full(): boolean {
    return this.remaining <= 0;
  }

  get state(): WindowState {
    return { limit: this.limit, remaining: this.remaining, resetAt: this.resetAt };
  }

  /** A window past its reset starts again with its whole limit. */
  refill(now: number): void {
    if (this.resetAt <= now) {
      this.remaining = this.limit;
      this.resetAt = 0;
    }
  }

  /** Counts a request going out now; a window starts with its first request (the service's do too). */
  take(now: number): void {
    if (this.resetAt === 0) this.resetAt = now + this.windowMs;
    this.remaining -= 1;
    this.#inFlight += 1;
  }

  /** A request counted by `take` that did not go out after all. */
  giveBack(): void {
    this.remaining = Math.min(this.limit, this.remaining + 1);
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** A request counted by `take` is over (its reply came, or it failed). */
  done(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  learn(seen: WindowState, now: number): void {
    if (seen.resetAt > this.resetAt + 1000 || this.resetAt <= now) {
      // A window later than the one counted here: requests still in flight were not counted by it.
      this.resetAt = seen.resetAt;
      this.remaining = Math.max(0, seen.remaining - Math.max(0, this.#inFlight - 1));
    } else {
      this.remaining = Math.min(this.remaining, seen.remaining);
      this.resetAt = Math.max(this.resetAt, seen.resetAt);
    }
    this.limit = seen.limit;
    this.windowMs = Math.max(this.windowMs, seen.resetAt - now);
  }

  /** After a 429: nothing more goes out until `until`. */
  exhaust(until: number): void {
    this.remaining = 0;
    this.resetAt = until;
  }

  /**
   * When a waiter with `before` waiters ahead of it on this window gets a slot of it: the ones ahead take
   * what is left, then whole windows one after another.
   */
  startFor(before: number, now: number): number {
    const left = Math.max(0, this.remaining) - before;
    if (left > 0) return now;
    const windows = Math.floor(-left / Math.max(1, this.limit));
    // The window under way ends at its reset; one not started yet would start with the first slot.
    const opens = this.resetAt > now ? this.resetAt : now + this.windowMs;
    return opens + windows * this.windowMs;
  }
}

/**
 * When each of the store's windows has room again, as its refusals said, per priority: nothing frees a
 * slot earlier (other processes only add requests), so the gate does not ask the store for a waiter on a
 * window blocked until later.
 */
export class StoreBlocks {
  readonly #until = new Map<string, { interactive: number; background: number }>();

  block(key: string, priority: Priority, until: number): void {
    const blocked = this.#until.get(key) ?? { interactive: -Infinity, background: -Infinity };
    if (priority === 'interactive') blocked.interactive = Math.max(blocked.interactive, until);
    // Full for interactive requests is full for background ones too.
    blocked.background = Math.max(blocked.background, until);
    this.#until.set(key, blocked);
  }

  /** Until when `key` is full for `priority` (−∞ when it is not known full after `now`). */
  until(key: string, priority: Priority, now: number): number {
    const blocked = this.#until.get(key);
    if (!blocked) return -Infinity;
    const until = priority === 'interactive' ? blocked.interactive : blocked.background;
    return until > now ? until : -Infinity;
  }

  /** Forgets the windows that have room again for everyone. */
  sweep(now: number): void {
    for (const [key, blocked] of this.#until) {
      if (blocked.background <= now && blocked.interactive <= now) this.#until.delete(key);
    }
  }
}
