import type { Logger } from 'pino';
import type { LimitWindow, Priority, SharedLimits } from '../../src/traffic/index.ts';
import type { ManualClock } from './clock.ts';

/** The most times that fall within one window of `windowMs` (a sliding window, end exclusive). */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

export interface Grant {
  readonly at: number;
  readonly who: string;
  readonly priority: Priority;
}

/**
 * Takes from several limit instances (as several processes would) on one manual clock, and moves the clock
 * from one wake-up to the next once every instance has finished its pass (its store may be a real Redis).
 */
export class Driver {
  readonly grants: Grant[] = [];
  readonly #clock: ManualClock;
  readonly #gates: readonly SharedLimits[];

  constructor(clock: ManualClock, limits: readonly SharedLimits[]) {
    this.#clock = clock;
    this.#gates = limits;
  }

  /** Takes refused (a deadline, an abort), with the clock time of the refusal. */
  readonly refusals: Array<{
    readonly at: number;
    readonly who: string;
    readonly deadline: number | undefined;
    readonly error: unknown;
  }> = [];

  /** Queues a take; its grant (or refusal) is written down with the clock time and `who`. */
  take(
    limits: SharedLimits,
    who: string,
    windows: readonly LimitWindow[],
    priority: Priority,
    deadline?: number,
  ): Promise<void> {
    return limits.take({ windows, priority, ...(deadline === undefined ? {} : { deadline }) }).then(
      (slot) => {
        this.grants.push({ at: slot.at, who, priority });
      },
      (error: unknown) => {
        this.refusals.push({ at: this.#clock.now(), who, deadline, error });
      },
    );
  }

  async settle(): Promise<void> {
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(this.#gates.map((gate) => gate.idle()));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Moves the clock to each next wake-up until `until` holds or `limitMs` of clock time has passed. */
  async runUntil(until: () => boolean, limitMs: number): Promise<void> {
    const end = this.#clock.now() + limitMs;
    await this.settle();
    while (!until()) {
      const next = this.#clock.nextWake;
      if (next === undefined || next > end) return;
      await this.#clock.advance(Math.max(0, next - this.#clock.now()));
      await this.settle();
    }
  }

  /** Moves the clock by `ms`, stopping at each wake-up on the way until the instances have done their pass. */
  async advance(ms: number): Promise<void> {
    const end = this.#clock.now() + ms;
    await this.runUntil(() => false, ms);
    await this.#clock.advance(Math.max(0, end - this.#clock.now()));
    await this.settle();
  }

  /** Grant times of `who` (all when absent). */
  times(who?: string): number[] {
    return this.grants.filter((grant) => who === undefined || grant.who === who).map((grant) => grant.at);
  }
}

export interface LogLine {
  readonly level: 'warn' | 'info';
  readonly message: string;
  readonly fields: unknown;
}

/**
 * A logger that keeps what it is told (`lines`), for the warnings of an outage; `next(level)` resolves with
 * the next line of that level, so a test awaits the moment something is logged instead of polling for it.
 */
export function recordingLog(): {
  lines: LogLine[];
  log: Pick<Logger, 'warn' | 'info'>;
  next(level: LogLine['level']): Promise<LogLine>;
} {
  const lines: LogLine[] = [];
  const waiters: Array<{ level: LogLine['level']; resolve: (line: LogLine) => void }> = [];
  const write = (level: LogLine['level']) => (fields: unknown, message?: string) => {
    const line: LogLine =
      typeof fields === 'string'
        ? { level, message: fields, fields: {} }
        : { level, message: message ?? '', fields };
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.level === level)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  return {
    lines,
    log: { warn: write('warn'), info: write('info') },
    next: (level) => new Promise((resolve) => waiters.push({ level, resolve })),
  };
}

export const GENERAL: LimitWindow = { scope: 'key:abc@base', name: 'requests', limit: 60, windowMs: 60_000 };
