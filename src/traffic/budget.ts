import type { Clock } from '../core/clock.ts';
import type { LimitWindow, SharedLimits } from './index.ts';

/**
 * A request budget of the pollers: at most `limit` requests in ANY window of `windowMs` (a sliding
 * window), counted in the shared limits (`src/limits`): across every process when they are in Redis,
 * within this one when they are in memory. Only a hash of `scope` (e.g. the API key) is ever stored.
 *
 * `take` waits, with no deadline but abortable, until a request may go out. It takes only while more than
 * `reserve` slots are left: those are kept for the retries a call may make inside the tier client (a 5xx is
 * retried once there), which `settle(extra)` counts after the call, past the limit, so they are always
 * available. A ticket's time is set again when its call ends, so a call that waited inside the tier client
 * counts from then, not from when it queued.
 */
export interface BudgetRule {
  readonly limit: number;
  readonly windowMs: number;
}

export interface Ticket {
  /** Marks the call finished now, and counts `extraAttempts` more requests it made (its retries). */
  settle(extraAttempts: number): Promise<void>;
}

export class RequestBudget {
  readonly #limits: SharedLimits;
  readonly #window: LimitWindow;
  readonly #rule: BudgetRule;
  readonly #reserve: number;
  readonly #clock: Clock;

  constructor(limits: SharedLimits, scope: string, rule: BudgetRule, clock: Clock, reserve = 1) {
    if (rule.limit < 1 || reserve < 0 || reserve >= rule.limit) throw new RangeError('invalid budget rule');
    this.#limits = limits;
    this.#rule = rule;
    this.#reserve = reserve;
    this.#clock = clock;
    this.#window = { scope, name: 'announce-budget', limit: rule.limit, windowMs: rule.windowMs, reserve };
  }

  get rule(): BudgetRule {
    return this.#rule;
  }

  /**
   * Waits until a request may go out and takes its ticket. Rejects with the signal's reason when aborted
   * while waiting.
   */
  async take(signal?: AbortSignal): Promise<Ticket> {
    const slot = await this.#limits.take({
      windows: [this.#window],
      // Background takes leave the window's reserve free: the retries' room.
      priority: 'background',
      ...(signal === undefined ? {} : { signal }),
    });
    return {
      settle: async (extraAttempts) => {
        await slot.retime(this.#clock.now());
        await this.#limits.record([this.#window], Math.min(Math.max(0, extraAttempts), this.#reserve));
      },
    };
  }

  /** Times of the requests counted within the last window (for tests and diagnostics). */
  recent(): Promise<number[]> {
    return this.#limits.recent(this.#window);
  }
}
