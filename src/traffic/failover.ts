import type { Clock } from '../core/clock.ts';
import type { Logger } from '../log/index.ts';
import { MemoryWindows } from './memory.ts';
import type { RedisWindows } from './redis.ts';
import type { Claim, Priority, TakeOutcome, WindowStore } from './window.ts';

/**
 * Redis windows that never make a request hang: every Redis operation runs under `timeoutMs`; one that
 * fails or times out marks Redis down (a warning, once per outage), and until a probe (every `probeMs`, and
 * at each reconnection) finds it answering again, this process counts in its own memory windows. Those
 * mirror every request this process made through Redis too, so the process stays within each limit on its
 * own during an outage (the sum of several processes may then reach one limit each: the header-learned
 * local limiter and 429 handling still apply). When Redis answers again, what this process counted within
 * the windows is written back (request ids are unique, so what Redis still had counts once), so that the
 * other processes see it, also after a Redis restart that lost everything.
 */
export interface FailoverOptions {
  readonly timeoutMs: number;
  readonly probeMs: number;
  /** Waits between probes: unref'd real time in production, a manual clock in tests. */
  readonly sleep: Clock['sleep'];
  /** Calls `fire` after `ms` unless cancelled first: each operation's timeout. */
  readonly timer: Timer;
  readonly log: Pick<Logger, 'warn' | 'info'>;
}

/** Starts a timeout; returns what cancels it. */
export type Timer = (ms: number, fire: () => void) => () => void;

/** Real time that does not keep the process alive: a plain timer, cheap enough for every operation. */
export const realTimer: Timer = (ms, fire) => {
  const handle = setTimeout(fire, ms);
  handle.unref();
  return () => clearTimeout(handle);
};

/** A timer on a clock's `sleep` (a manual clock in tests). */
export function sleepTimer(sleep: Clock['sleep']): Timer {
  return (ms, fire) => {
    const cancel = new AbortController();
    sleep(ms, cancel.signal).then(fire, () => undefined);
    return () => cancel.abort();
  };
}

class RedisTimeout extends Error {
  readonly code = 'timeout';
}

/** A failure's code or name, for a log line: never its message, which may hold an address. */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name.slice(0, 40) : 'error';
}

export class FailoverWindows implements WindowStore {
  readonly kind = 'redis';
  readonly #redis: RedisWindows;
  readonly #local = new MemoryWindows();
  readonly #options: FailoverOptions;
  readonly #stopping = new AbortController();
  #up = true;
  #probing = false;
  #latest = -Infinity;
  /** Requests counted in the local windows alone (while Redis was down). */
  #countedHere = 0;

  constructor(redis: RedisWindows, options: FailoverOptions) {
    this.#redis = redis;
    this.#options = options;
  }

  /** Whether requests are counted in Redis right now (false during an outage). */
  get shared(): boolean {
    return this.#up;
  }

  /** Marks Redis down at once (a lost connection, or unreachable at start) without waiting for a failure. */
  markDown(reason: string): void {
    if (!this.#up || this.#stopping.signal.aborted) return;
    this.#up = false;
    this.#options.log.warn(
      { reason },
      'Redis is not answering: the request limits are counted in this process until it does',
    );
    void this.#probeUntilUp();
  }

  /** Tries Redis now (on a reconnection), instead of at the next probe. */
  probeNow(): void {
    if (!this.#up) void this.#probe();
  }

  async take(
    claims: readonly Claim[],
    member: string,
    now: number,
    priority: Priority,
  ): Promise<TakeOutcome> {
    this.#latest = Math.max(this.#latest, now);
    if (this.#up) {
      try {
        const outcome = await this.#guarded(() => this.#redis.take(claims, member, now, priority));
        if (outcome.granted) this.#local.mirror(claims, member, now);
        return outcome;
      } catch (error) {
        this.markDown(reasonOf(error));
      }
    }
    const outcome = await this.#local.take(claims, member, now, priority);
    if (outcome.granted) this.#countedHere += 1;
    return outcome;
  }

  async record(claims: readonly Claim[], members: readonly string[], at: number): Promise<void> {
    this.#latest = Math.max(this.#latest, at);
    await this.#local.record(claims, members, at);
    if (this.#up) {
      try {
        await this.#guarded(() => this.#redis.record(claims, members, at));
        return;
      } catch (error) {
        this.markDown(reasonOf(error));
      }
    }
    this.#countedHere += 1;
  }

  async recent(claim: Claim, now: number): Promise<number[]> {
    if (this.#up) {
      try {
        return await this.#guarded(() => this.#redis.recent(claim, now));
      } catch (error) {
        this.markDown(reasonOf(error));
      }
    }
    return this.#local.recent(claim, now);
  }

  async close(): Promise<void> {
    this.#stopping.abort();
    await this.#redis.close();
    await this.#local.close();
  }

  #stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  #guarded<R>(work: () => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let settled = false;
      const cancel = this.#options.timer(this.#options.timeoutMs, () => {
        if (settled) return;
        settled = true;
        reject(new RedisTimeout(`Redis did not answer within ${this.#options.timeoutMs} ms`));
      });
      work().then(
        (value) => {
          if (settled) return;
          settled = true;
          cancel();
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          cancel();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  async #probeUntilUp(): Promise<void> {
    while (!this.#up && !this.#stopping.signal.aborted) {
      try {
        await this.#options.sleep(this.#options.probeMs, this.#stopping.signal);
      } catch {
        return;
      }
      await this.#probe();
    }
  }

  /** One probe: a PING, then the write-back of what this process counted; up when both worked. */
  async #probe(): Promise<void> {
    if (this.#probing || this.#up || this.#stopped()) return;
    this.#probing = true;
    try {
      await this.#guarded(() => this.#redis.ping());
      // Takes go on here meanwhile: write back again until a pass saw them all, then switch in that turn.
      let written;
      do {
        written = this.#countedHere;
        for (const window of this.#local.snapshot(this.#latest)) {
          await this.#guarded(() => this.#redis.restore(window.key, window.windowMs, window.entries));
        }
      } while (written !== this.#countedHere);
      if (this.#stopped()) return;
      this.#up = true;
      this.#options.log.info('Redis answers again: the request limits are shared again');
    } catch {
      // Still down: the next probe tries again.
    } finally {
      this.#probing = false;
    }
  }
}
