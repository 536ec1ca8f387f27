import type { Clock } from '../../src/core/clock.ts';

/**
 * A manual clock: `now()` moves only by `advance()`; sleepers wake when time reaches them.
 */
export class ManualClock implements Clock {
  #now: number;
  #sleepers: Array<{ at: number; resolve: () => void; reject: (reason: unknown) => void }> = [];

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
    });
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
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
