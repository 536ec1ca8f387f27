/**
 * When a shard process that died is started again. Every identify counts against Discord's daily session
 * start limit (1,000 for most bots), so a shard that crashes at start-up must not loop: each death waits
 * longer than the one before (1 s, 2 s, 4 s... up to `maxDelayMs`), and past `maxDeaths` deaths within
 * `windowMs` the shard is given up, and the process with it, for its supervisor to decide.
 */
export interface RespawnLimits {
  /** Deaths of one shard tolerated within `windowMs`; one more gives up. Default 5. */
  readonly maxDeaths: number;
  /** Default 15 minutes. */
  readonly windowMs: number;
  /** Wait before the first respawn; doubled for each death still in the window. Default 1 s. */
  readonly firstDelayMs: number;
  /** Default 30 s. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RESPAWN_LIMITS: RespawnLimits = {
  maxDeaths: 5,
  windowMs: 15 * 60_000,
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
};

export type RespawnDecision =
  | { readonly respawn: true; readonly delayMs: number; readonly deaths: number }
  | { readonly respawn: false; readonly deaths: number };

/** The deaths of one shard, and what to do after the next one. */
export class RespawnBudget {
  readonly #limits: RespawnLimits;
  #deaths: number[] = [];

  constructor(limits: RespawnLimits = DEFAULT_RESPAWN_LIMITS) {
    this.#limits = limits;
  }

  /** Records a death at `now` (epoch ms) and says whether, and after how long, to start the shard again. */
  died(now: number): RespawnDecision {
    const { maxDeaths, windowMs, firstDelayMs, maxDelayMs } = this.#limits;
    this.#deaths = [...this.#deaths.filter((at) => now - at < windowMs), now];
    const deaths = this.#deaths.length;
    if (deaths > maxDeaths) return { respawn: false, deaths };
    const delayMs = Math.min(maxDelayMs, firstDelayMs * 2 ** Math.min(deaths - 1, 30));
    return { respawn: true, delayMs, deaths };
  }
}
