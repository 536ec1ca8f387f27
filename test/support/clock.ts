import { vi } from 'vitest';
import type { Clock } from '../../src/core/clock.ts';

/**
 * A manual clock: `now()` moves only by `advance()`; sleepers wake when time reaches them.
 */
export class ManualClock implements Clock {
  #now: number;
  #sleepers: Array<{ at: number; resolve: () => void; reject: (reason: unknown) => void }> = [];
  /** Tests waiting for a number of sleepers (`whenSleeping`), told each time one starts to sleep. */
  #watchers: Array<{ count: number; resolve: () => void }> = [];

  constructor(start = Date.UTC(2026, 10, 21, 12, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(abortError(signal!));
      };
      const sleeper = {
        at: this.#now + Math.max(0, ms),
        resolve: () => {
          // A woken sleeper leaves no listener behind on a long-lived signal.
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      this.#sleepers.push(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
      const ready = this.#watchers.filter((w) => this.#sleepers.length >= w.count);
      this.#watchers = this.#watchers.filter((w) => !ready.includes(w));
      for (const watcher of ready) watcher.resolve();
    });
  }

  /** Sets the time (either way) without waking anyone: for clocks that only answer `now()`. */
  set(ms: number): void {
    this.#now = ms;
  }

  /** Moves time forward, waking sleepers in order, letting promise chains run between wake-ups. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await flush();
      const next = this.#sleepers.filter((s) => s.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#now = Math.max(this.#now, next.at);
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      next.resolve();
    }
    this.#now = target;
    await flush();
  }

  get sleepers(): number {
    return this.#sleepers.length;
  }

  /** When the earliest sleeper wakes (clock time), if any sleeps. */
  get nextWake(): number | undefined {
    return this.#sleepers.length === 0 ? undefined : Math.min(...this.#sleepers.map((s) => s.at));
  }

  /**
   * Resolves once at least `count` sleepers wait on this clock: for code that reaches its wait only after
   * real I/O (a reply from a local server). Told by `sleep` itself; `timeoutMs` of real time only bounds a
   * wait that would otherwise hang, with a clear error.
   */
  whenSleeping(count = 1, timeoutMs = 10_000): Promise<void> {
    if (this.#sleepers.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const watcher = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.#watchers = this.#watchers.filter((w) => w !== watcher);
        reject(new Error(`no ${count} sleeper(s) on the manual clock in ${timeoutMs} ms`));
      }, timeoutMs);
      this.#watchers.push(watcher);
    });
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/**
 * Moves the wall clock (`Date.now()`) forward by `ms` at once instead of waiting it out: for lifetimes the
 * key-value store measures by it (delivery claims, leases), which no manual clock reaches. It keeps running
 * from there; `restore()` gives the real clock back (call it in `finally`).
 */
export function jumpWallClock(ms: number): { restore(): void } {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + ms);
  return { restore: () => vi.useRealTimers() };
}
