import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import type { Namespace, Store } from '../store/index.ts';

/**
 * A request budget shared through the store: at most `limit` requests in ANY window of `windowMs`
 * (a sliding window), across every process sharing the store and across restarts.
 *
 * Requests take numbered tickets. Ticket n may be taken only once ticket n - limit + reserve was taken a
 * whole window ago; tickets are taken with the store's atomic `add`, so each number goes to one caller.
 * `reserve` tickets are kept free for the retries a call may make inside the tier client (a 5xx is
 * retried once there): `account(extra)` takes them after the call, and they are always available. A
 * ticket's time is set again when its call ends, so a call that waited inside the tier client counts
 * from when it really went out.
 */
export interface BudgetRule {
  readonly limit: number;
  readonly windowMs: number;
}

interface TicketValue {
  readonly at: number;
}

export interface Ticket {
  /** Marks the call finished now, and counts `extraAttempts` more requests it made (its retries). */
  settle(extraAttempts: number): Promise<void>;
}

export class RequestBudget {
  readonly #ns: Namespace<TicketValue | number>;
  readonly #scope: string;
  readonly #rule: BudgetRule;
  readonly #reserve: number;
  readonly #clock: Clock;
  readonly #gcTtlMs: number;

  /** `scope` names who is limited (e.g. the API key); only a hash of it is stored. */
  constructor(store: Store, scope: string, rule: BudgetRule, clock: Clock, reserve = 1) {
    if (rule.limit < 1 || reserve < 0 || reserve >= rule.limit) throw new RangeError('invalid budget rule');
    this.#ns = store.namespace<TicketValue | number>('announce-budget');
    this.#scope = createHash('sha256').update(scope).digest('hex').slice(0, 16);
    this.#rule = rule;
    this.#reserve = reserve;
    this.#clock = clock;
    // Tickets only need to outlive the window; kept longer, a clock that runs fast in tests stays safe.
    this.#gcTtlMs = Math.max(2 * rule.windowMs, 10 * 60_000);
  }

  get rule(): BudgetRule {
    return this.#rule;
  }

  #key(n: number): string {
    return `${this.#scope}:${n}`;
  }

  async #head(): Promise<number> {
    const head = await this.#ns.get(`${this.#scope}:head`);
    return typeof head === 'number' && Number.isInteger(head) && head >= 0 ? head : 0;
  }

  async #moveHead(next: number): Promise<void> {
    if ((await this.#head()) < next) await this.#ns.set(`${this.#scope}:head`, next);
  }

  async #timeOf(n: number): Promise<number | undefined> {
    if (n < 0) return undefined;
    const value = await this.#ns.get(this.#key(n));
    return typeof value === 'object' && typeof value.at === 'number' ? value.at : undefined;
  }

  /** The first ticket number not taken yet, from the head on. */
  async #free(): Promise<number> {
    let n = await this.#head();
    while (await this.#ns.has(this.#key(n))) n += 1;
    return n;
  }

  /**
   * Waits until a request may go out and takes its ticket. Rejects with the signal's reason when aborted
   * while waiting.
   */
  async take(signal?: AbortSignal): Promise<Ticket> {
    for (;;) {
      signal?.throwIfAborted();
      const n = await this.#free();
      const guard = await this.#timeOf(n - (this.#rule.limit - this.#reserve));
      const now = this.#clock.now();
      if (guard !== undefined && guard > now - this.#rule.windowMs) {
        await this.#clock.sleep(guard + this.#rule.windowMs - now, signal);
        continue;
      }
      if (await this.#ns.add(this.#key(n), { at: now }, this.#gcTtlMs)) {
        await this.#moveHead(n + 1);
        return this.#ticket(n);
      }
    }
  }

  #ticket(n: number): Ticket {
    return {
      settle: async (extraAttempts) => {
        const now = this.#clock.now();
        await this.#ns.set(this.#key(n), { at: now }, this.#gcTtlMs);
        for (let i = 0; i < Math.min(extraAttempts, this.#reserve); i += 1) {
          for (;;) {
            const free = await this.#free();
            if (await this.#ns.add(this.#key(free), { at: now }, this.#gcTtlMs)) {
              await this.#moveHead(free + 1);
              break;
            }
          }
        }
      },
    };
  }

  /** Times of the tickets taken within the last window (for tests and diagnostics). */
  async recent(): Promise<number[]> {
    const head = await this.#head();
    const now = this.#clock.now();
    const times: number[] = [];
    for (let n = Math.max(0, head - this.#rule.limit - 1); n < head; n += 1) {
      const at = await this.#timeOf(n);
      if (at !== undefined && at > now - this.#rule.windowMs) times.push(at);
    }
    return times;
  }
}
