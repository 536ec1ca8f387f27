import type { ResultOf, RouteName, Routes, TierClient } from '../../../api/client.ts';
import { RequestBudget, type BudgetRule } from '../../../traffic/budget.ts';
import type { Clock } from '../../../core/clock.ts';
import type { SharedLimits } from '../../../traffic/index.ts';
import type { BackgroundScheduler } from '../../../traffic/scheduler.ts';

/**
 * The reads of the daily digest and of the turf reminders: turf and clan endpoints of the game API (no key),
 * in the background. Each read takes its turn in the background scheduler (under the source's name, beside
 * the other feeds, commands never wait there) and a ticket of one budget the two features share, counted
 * in the shared limits (across processes with Redis): {@link TURF_CLAN_READS} a minute, which
 * `followCapacity` subtracts from what the players feed and the price alerts plan, as it does for the turf
 * poll. Within one poll a read is made once, however many clans or servers need it.
 */
import { TURF_CLAN_READS } from '../../../traffic/capacity.ts';

export { TURF_CLAN_READS };
/** The budget's scope in the shared limits: one window for both features, in every process. */
export const TURF_CLAN_READS_SCOPE = 'turf-clan-reads';

/** A budget of {@link TURF_CLAN_READS} (or the rule given, for tests) in these limits. */
export function turfReadsBudget(limits: SharedLimits, clock: Clock, rule?: BudgetRule): RequestBudget {
  return new RequestBudget(limits, TURF_CLAN_READS_SCOPE, rule ?? TURF_CLAN_READS, clock);
}

export interface TurfReadsDeps {
  readonly api: TierClient;
  readonly scheduler: BackgroundScheduler;
  readonly budget: RequestBudget;
  /** The scheduler's owner (the source's name). */
  readonly owner: string;
  readonly signal: AbortSignal;
  /** How long one read may take, waits and its one retry included. */
  readonly deadlineMs?: number;
}

function keyOf(name: string, params: Record<string, unknown>): string {
  return `${name}?${JSON.stringify(params, Object.keys(params).sort())}`;
}

/** The reads of one poll: each distinct call goes upstream once, its answer (or failure) shared. */
export class TurfReads {
  readonly #deps: TurfReadsDeps;
  readonly #made = new Map<string, Promise<unknown>>();
  #requests = 0;

  constructor(deps: TurfReadsDeps) {
    this.#deps = deps;
  }

  /** Requests sent upstream by this poll (retries included). */
  get requests(): number {
    return this.#requests;
  }

  /** Gives a call's answer without reading (one kept from an earlier poll: a finished day's board). */
  seed<N extends RouteName>(name: N, params: Record<string, unknown>, value: ResultOf<Routes[N]>): void {
    this.#made.set(keyOf(name, params), Promise.resolve(value));
  }

  call<N extends RouteName>(name: N, params: Record<string, unknown>): Promise<ResultOf<Routes[N]>> {
    const key = keyOf(name, params);
    let made = this.#made.get(key);
    if (made === undefined) {
      made = this.#read(name, params);
      // A failure is shared too (the poll goes on without it, and the next poll asks again).
      made.catch(() => undefined);
      this.#made.set(key, made);
    }
    return made as Promise<ResultOf<Routes[N]>>;
  }

  #read<N extends RouteName>(name: N, params: Record<string, unknown>): Promise<ResultOf<Routes[N]>> {
    const { api, scheduler, budget, owner, signal } = this.#deps;
    return scheduler.run(
      owner,
      async () => {
        const ticket = await budget.take(signal);
        let attempts = 0;
        try {
          return await api.call(name, params, {
            priority: 'background',
            fresh: true,
            signal,
            deadlineMs: this.#deps.deadlineMs ?? 30_000,
            onAttempt: () => (attempts += 1),
          });
        } finally {
          this.#requests += attempts;
          await ticket.settle(Math.max(0, attempts - 1));
        }
      },
      signal,
    );
  }
}
