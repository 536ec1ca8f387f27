import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../core/clock.ts';
import type { SharedLimits, Slot } from './limits.ts';
import type { LimitWindow, Priority } from './window.ts';

/**
 * Discord's global limit (50 requests a second per bot token, every route together) as ONE limiter that
 * every discord.js REST client of the bot sends through (`src/discord/rest-agent.ts` puts it in front of
 * discord.js's own queue). Commands' requests are interactive, the announcement fan-out's background:
 * waiters of one process are served interactive first (the gate's order), so the fan-out takes every slot
 * the commands leave and no more. Across processes (shards and the worker, through Redis) see
 * docs/adr/013: the windows are shared, and background takes leave one slot a second to commands.
 *
 * What it counts:
 * - the `global` window: at most `perSecond` requests in any `1000 + marginMs` ms, shared by every
 *   process of the bot. The margin covers the difference in network delay between the first and the last
 *   request of a second: Discord (and the stand-in) count a fixed one-second window from the first
 *   request that reaches them.
 * - a request counts from the latest moment it can have reached Discord, once its answer is in
 *   ({@link DiscordSlot.answered}): a request held up on its way (a connection being opened, the event loop
 *   held, a slow network) reaches Discord later than its slot was taken, and the one taken a second
 *   after it would otherwise land in the same second there (a 429).
 * - background requests of this process are also spaced, one every `(1000 + marginMs) / perSecond` ms
 *   (20.1 ms at 50 a second with the default margin), on a schedule that a late timer does not push back
 *   (the next slot is the previous slot plus the interval, not the time the previous one was woken; the
 *   takes after a late one go sooner until the schedule is met, up to {@link CATCH_UP_SLOTS} of them),
 *   so the fan-out never fills a second in a burst at its start, which would leave a command waiting for
 *   the next second, and loses nothing to timer lateness.
 */
export interface DiscordGlobalOptions {
  /** Discord's global limit per bot token. Default 50. */
  readonly perSecond?: number;
  /** Added to the one-second window (see above). Default 5 ms: the fan-out at 50 per 1.005 s. */
  readonly marginMs?: number;
  /**
   * Whether the commands of this bot send through this same limiter (one process: the tests, the demo, a
   * bot with its announcements in-process). Default true. False in the worker process: its background
   * requests then leave one slot a second to the shards' commands even while Redis does not share the
   * window (without REDIS_URL every process counts alone; docs/adr/013).
   */
  readonly commandsInProcess?: boolean;
}

/**
 * Background slots that may go without their interval after a take that went late (a timer fired late,
 * the event loop was held): about 200 ms of lateness at 50 a second is made up by the takes after it
 * instead of lost for good; a longer stall is not. The global window still holds every `1000 + marginMs`
 * ms to `perSecond`, and the requests that the stall held up count from when they reached Discord.
 */
const CATCH_UP_SLOTS = 10;

/**
 * Round trips kept to judge the quickest: a request counts from its answer less the quickest of the last
 * these many. They start at 0, so that the first requests (whose connections are being opened) count
 * from their answers.
 */
const ROUND_TRIPS = 64;

/** A slot of the global limit, taken for one request. */
export interface DiscordSlot {
  /**
   * The request's answer (or its failure) is in: it now counts from the latest moment it can have reached
   * Discord, its answer's time less the quickest round trip of late, if that is later than its slot.
   */
  answered(): void;
}

const priorities = new AsyncLocalStorage<Priority>();

/** Runs `work` with every Discord request it makes counted as background (the announcement fan-out). */
export function asBackground<T>(work: () => T): T {
  return priorities.run('background', work);
}

/** The priority of the Discord requests made here: what `asBackground` set, else `fallback`. */
export function discordPriority(fallback: Priority): Priority {
  return priorities.getStore() ?? fallback;
}

export class DiscordGlobalLimit {
  readonly #limits: SharedLimits;
  readonly #clock: Clock;
  readonly #global: LimitWindow;
  readonly #intervalMs: number;
  readonly #commandsInProcess: boolean;
  /** When the next background request of this process may go, at the earliest (clock time). */
  #nextBackground = -Infinity;
  /** The background take under way (they go one at a time). */
  #backgroundTail: Promise<unknown> = Promise.resolve();
  /** The last {@link ROUND_TRIPS} round trips (ms, from the slot to the answer), the oldest overwritten. */
  readonly #roundTrips = new Array<number>(ROUND_TRIPS).fill(0);
  #nextRoundTrip = 0;

  /**
   * `scope` names the bot (its token or application id; only a hash of it is ever stored). Every process
   * of one bot must give the same scope and share `limits` through Redis to count together.
   */
  constructor(limits: SharedLimits, scope: string, clock: Clock, options: DiscordGlobalOptions = {}) {
    const perSecond = options.perSecond ?? 50;
    const marginMs = options.marginMs ?? 5;
    if (!Number.isInteger(perSecond) || perSecond < 1)
      throw new RangeError('perSecond is a positive integer');
    if (!Number.isFinite(marginMs) || marginMs < 0) throw new RangeError('marginMs is zero or more');
    this.#limits = limits;
    this.#clock = clock;
    this.#global = { scope: `discord:${scope}`, name: 'global', limit: perSecond, windowMs: 1000 + marginMs };
    // The global window's own pace: it binds only when a command took a slot or a timer fired late.
    this.#intervalMs = (1000 + marginMs) / perSecond;
    this.#commandsInProcess = options.commandsInProcess ?? true;
  }

  /**
   * Waits for a slot of the global limit and takes it. Background takes wait for their turn on this
   * process's spacing, then behind every interactive waiter of this process; while commands run in other
   * processes (the window shared through Redis, or the worker on its own) they also leave one slot of each
   * second free, so that a shard's command is never left waiting behind the worker's fan-out. The
   * request's answer is told to the slot ({@link DiscordSlot.answered}).
   */
  async take(priority: Priority, signal?: AbortSignal): Promise<DiscordSlot> {
    let slot: Slot;
    if (priority === 'interactive') {
      slot = await this.#limits.take({ windows: [this.#global], priority, ...(signal ? { signal } : {}) });
    } else {
      // One background take at a time, each on the schedule from the one before.
      const turn = this.#backgroundTail.then(() => this.#backgroundTake(signal));
      this.#backgroundTail = turn.catch(() => undefined);
      slot = await turn;
    }
    return { answered: () => this.#answered(slot) };
  }

  async #backgroundTake(signal: AbortSignal | undefined): Promise<Slot> {
    signal?.throwIfAborted();
    const now = this.#clock.now();
    const at = Math.max(now, this.#nextBackground);
    if (at > now) await this.#clock.sleep(at - now, signal);
    // Commands elsewhere (other processes) cannot queue ahead here: one slot a second stays theirs.
    const reserve = this.#limits.shared || !this.#commandsInProcess ? 1 : 0;
    const slot = await this.#limits.take({
      windows: [{ ...this.#global, reserve }],
      priority: 'background',
      ...(signal ? { signal } : {}),
    });
    // On the schedule from the slot before, however late this one went (up to CATCH_UP_SLOTS behind).
    this.#nextBackground =
      Math.max(at, this.#clock.now() - CATCH_UP_SLOTS * this.#intervalMs) + this.#intervalMs;
    return slot;
  }

  /** Moves the slot to the latest moment its request can have reached Discord (see the class). */
  #answered(slot: Slot): void {
    // The request is over: it is no longer in flight in the gate's view of the window.
    slot.release();
    const now = this.#clock.now();
    this.#roundTrips[this.#nextRoundTrip] = Math.max(0, now - slot.at);
    this.#nextRoundTrip = (this.#nextRoundTrip + 1) % ROUND_TRIPS;
    const reached = now - Math.min(...this.#roundTrips);
    // A slot that cannot be moved (the shared store is down) keeps counting from when it was taken: the
    // margin of the window is all that covers that request then, as it did before.
    if (reached > slot.at) slot.retime(reached).catch(() => undefined);
  }

  /** Requests counted in the global window now (tests and the bench). */
  async recent(): Promise<number> {
    return (await this.#limits.recent(this.#global)).length;
  }
}
