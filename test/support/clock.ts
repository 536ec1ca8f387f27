import { vi } from 'vitest';
import type { Clock } from '../../src/core/clock.ts';
import { ioMark, whenQuiet } from './quiet.ts';

/**
 * A manual clock: `now()` moves only by `advance()`; sleepers wake when time reaches them.
 */
export class ManualClock implements Clock {
  #now: number;
  #sleepers: Array<{ at: number; resolve: () => void; reject: (reason: unknown) => void }> = [];
  /** Tests waiting for a number of sleepers (`whenSleeping`), told each time one starts to sleep. */
  #watchers: Array<{ count: number; resolve: () => void }> = [];

  /** I/O started before this clock was made (by another test) is none of its business: see `settle`. */
  readonly #mark = ioMark();

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

  /**
   * Moves time forward by `ms` as {@link advance} does, but after each wake-up lets the I/O it started
   * (requests to local servers, SQLite statements) finish before time moves on: for loops running in the
   * background, whose next step must not depend on how fast the machine answers.
   */
  async runFor(ms: number): Promise<void> {
    const target = this.#now + ms;
    await whenQuiet(this.#mark);
    for (;;) {
      const next = this.nextWake;
      if (next === undefined || next > target) break;
      await this.advance(Math.max(0, next - this.#now));
      await whenQuiet(this.#mark);
    }
    await this.advance(target - this.#now);
    await whenQuiet(this.#mark);
  }

  get sleepers(): number {
    return this.#sleepers.length;
  }

  /** When the earliest sleeper wakes (clock time), if any sleeps. */
  get nextWake(): number | undefined {
    return this.#sleepers.length === 0 ? undefined : Math.min(...this.#sleepers.map((s) => s.at));
  }

  /**
   * Settles `work`, moving time only while it waits on this clock: whenever it has not settled and someone
   * sleeps here, time jumps to the earliest wake-up. No real time is waited: the next step starts when
   * `sleep` is called or the work settles. Time does not move while the work waits on anything else (a
   * local server's reply), so a slow machine cannot make a deadline or a window pass early.
   */
  async settle<T>(work: Promise<T>, maxWakes = 10_000): Promise<T> {
    const state = { settled: false };
    const watched = work.finally(() => {
      state.settled = true;
    });
    const done = watched.then(
      () => undefined,
      () => undefined,
    );
    for (let wakes = 0; ; wakes += 1) {
      const asleep = this.#whenSleeping(1);
      await Promise.race([done, asleep.promise]);
      asleep.cancel();
      if (!state.settled) await Promise.race([done, whenQuiet(this.#mark)]);
      if (state.settled) return watched;
      if (wakes >= maxWakes) throw new Error(`still pending after ${maxWakes} wake-ups of the manual clock`);
      const next = this.nextWake;
      if (next !== undefined) await this.advance(Math.max(0, next - this.#now));
    }
  }

  /**
   * Resolves once at least `count` sleepers wait on this clock: for code that reaches its wait only after
   * real I/O (a reply from a local server). Told by `sleep` itself; `timeoutMs` of real time only bounds a
   * wait that would otherwise hang, with a clear error.
   */
  whenSleeping(count = 1, timeoutMs = 10_000): Promise<void> {
    const asleep = this.#whenSleeping(count);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        asleep.cancel();
        reject(new Error(`no ${count} sleeper(s) on the manual clock in ${timeoutMs} ms`));
      }, timeoutMs);
    });
    return Promise.race([asleep.promise, late]).finally(() => clearTimeout(timer));
  }

  /** Resolves once at least `count` sleepers wait, told by `sleep` itself; `cancel` stops listening. */
  #whenSleeping(count: number): { promise: Promise<void>; cancel(): void } {
    if (this.#sleepers.length >= count) return { promise: Promise.resolve(), cancel: () => undefined };
    let watcher!: { count: number; resolve: () => void };
    const promise = new Promise<void>((resolve) => {
      watcher = { count, resolve };
      this.#watchers.push(watcher);
    });
    return { promise, cancel: () => (this.#watchers = this.#watchers.filter((w) => w !== watcher)) };
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
