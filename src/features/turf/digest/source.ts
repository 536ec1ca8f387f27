import { ApiError, NotFoundError } from '../../../api/errors.ts';
import type { TurfTopPerformingClans } from '../../../api/schemas/index.ts';
import type { BudgetRule, RequestBudget } from '../../../traffic/budget.ts';
import { TURF_SOURCE, type Subscription } from '../../../announcements/model.ts';
import type { Source, SourceDeps, SourceFactory, SourceRun } from '../../../announcements/sources.ts';
import { turfDay, turfDayDate } from '../../../api/turf-days.ts';
import { readDigest } from './collect.ts';
import { wantsDigest, wantsIdle } from './kind.ts';
import { DIGEST_DELAY_MS, TURF_DIGEST_EVENT, TURF_DIGEST_SOURCE, digestKey } from './model.ts';
import { TurfReads, turfReadsBudget } from './reads.ts';

/**
 * The daily digest's source: shortly after each UTC turf day ends (on the clock the bot runs with), it
 * reads the day of every clan a channel wants a digest of, once per clan whatever the number of channels,
 * and stores one event per clan and day (`turf-digest:<day>:<clanId>`) in the inbox; the outbox posts it
 * to each of those channels exactly once. A restart finds the event pending or done and neither reads nor
 * posts it again. A bot that was not running at the rollover makes the digest late, as long as the next
 * day has not ended; after that the day is skipped (only the day that ended last is ever made).
 */
export interface TurfDigestOptions {
  /** How long after the day ends the digest waits (the game settles its payouts); default 2 minutes. */
  readonly delayMs?: number;
  /** Clans read by one poll at most (the next poll goes on); default 50. */
  readonly maxClansPerPoll?: number;
  /** The shared budget of turf clan reads (tests may give a larger one). */
  readonly budget?: BudgetRule;
}

interface FollowedClan {
  readonly clanId: number;
  readonly clanName: string;
  readonly idle: boolean;
}

/** Clans whose digest of the day that ended at `endedAt` some channel gets (subscribed by then). */
export function digestClans(
  subscriptions: readonly Subscription[],
  endedAt: number,
  isTurf: (subscription: Subscription) => boolean,
): FollowedClan[] {
  const clans = new Map<number, FollowedClan>();
  for (const subscription of subscriptions) {
    if (!isTurf(subscription) || !wantsDigest(subscription)) continue;
    // As the outbox decides (`KindRegistry.targets`): events from the subscription's own second on.
    if (Math.floor(subscription.since / 1000) * 1000 > endedAt) continue;
    const clanId = subscription.options['clanId'];
    const clanName = subscription.options['clanName'];
    if (typeof clanId !== 'number') continue;
    const known = clans.get(clanId);
    clans.set(clanId, {
      clanId,
      clanName: typeof clanName === 'string' ? clanName : (known?.clanName ?? String(clanId)),
      idle: (known?.idle ?? false) || wantsIdle(subscription),
    });
  }
  return [...clans.values()].sort((a, b) => a.clanId - b.clanId);
}

export class TurfDigestSource implements Source {
  readonly name = TURF_DIGEST_SOURCE;
  readonly #deps: SourceDeps;
  readonly #budget: RequestBudget;
  readonly #delayMs: number;
  readonly #maxClans: number;
  /** Keys of the day that ended last known made (or given up on): the inbox is asked once per key. */
  readonly #handled = new Set<string>();
  readonly #warned = new Set<string>();
  #day = -1;
  #board: { readonly day: number; readonly value: TurfTopPerformingClans } | undefined;

  constructor(deps: SourceDeps, options: TurfDigestOptions = {}) {
    this.#deps = deps;
    this.#budget = turfReadsBudget(deps.api.limits, deps.clock, options.budget);
    this.#delayMs = options.delayMs ?? DIGEST_DELAY_MS;
    this.#maxClans = options.maxClansPerPoll ?? 50;
  }

  wanted(subscriptions: readonly Subscription[]): boolean {
    return subscriptions.some((s) => this.#isTurf(s) && wantsDigest(s));
  }

  #isTurf(subscription: Subscription): boolean {
    return this.#deps.kinds.fromSource(subscription, TURF_SOURCE);
  }

  async poll(run: SourceRun): Promise<void> {
    const { clock } = this.#deps;
    // Whatever a crash left in the inbox goes out before anything newer.
    await run.deliver();
    const now = clock.now();
    const today = turfDay(now);
    const endedAt = turfDayDate(today);
    if (today === 0 || now < endedAt + this.#delayMs) return;
    const day = today - 1;
    if (day !== this.#day) {
      this.#handled.clear();
      this.#warned.clear();
      this.#day = day;
    }
    const due: FollowedClan[] = [];
    for (const clan of digestClans(run.subscriptions, endedAt, (s) => this.#isTurf(s))) {
      if (due.length >= this.#maxClans) break;
      if (!(await this.#known(digestKey(day, clan.clanId)))) due.push(clan);
    }
    if (due.length === 0) return;
    const reads = new TurfReads({
      api: this.#deps.api,
      scheduler: this.#deps.scheduler,
      budget: this.#budget,
      owner: this.name,
      signal: run.signal,
    });
    // The finished day's board does not change: read once a day, not once a poll.
    const boardParams = { day };
    if (this.#board?.day === day) reads.seed('turfTopPerformingClans', boardParams, this.#board.value);
    // A poll reads for at most half its interval (then the next goes on), and always for one clan.
    const deadline = clock.now() + Math.max(1_000, run.spreadMs);
    let stored = 0;
    for (const [index, clan] of due.entries()) {
      if (index > 0 && clock.now() >= deadline) break;
      if (await this.#make(reads, clan, day, endedAt, run.signal)) stored += 1;
    }
    const board = await reads.call('turfTopPerformingClans', boardParams).catch(() => undefined);
    if (board !== undefined) this.#board = { day, value: board };
    if (stored === 0) return;
    await this.#deps.hook?.('stored', { eventKey: `turf-digest:${day}` });
    await run.deliver();
  }

  /** Whether the clan's digest of the day is made (pending, done or set aside) or given up on. */
  async #known(key: string): Promise<boolean> {
    if (this.#handled.has(key)) return true;
    const { inbox } = this.#deps.repos;
    const known =
      (await inbox.isDone(key)) ||
      (await inbox.get(key)) !== undefined ||
      (await inbox.quarantined(key)) !== undefined;
    if (known) this.#handled.add(key);
    return known;
  }

  async #make(
    reads: TurfReads,
    clan: FollowedClan,
    day: number,
    endedAt: number,
    signal: AbortSignal,
  ): Promise<boolean> {
    const { repos, log } = this.#deps;
    const key = digestKey(day, clan.clanId);
    try {
      const digest = await readDigest(reads, clan, day, clan.idle);
      await repos.inbox.accept({
        key,
        source: TURF_DIGEST_SOURCE,
        type: TURF_DIGEST_EVENT,
        // When the day ended: the channels subscribed by then get it.
        at: endedAt,
        data: { ...digest },
      });
      this.#handled.add(key);
      return true;
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof NotFoundError) {
        // The clan is gone (deleted): nothing to tell about this day.
        this.#handled.add(key);
        log.info({ clanId: clan.clanId, day }, 'no turf digest: the game no longer knows the clan');
        return false;
      }
      // The store failing is the poll's failure (the loop backs off); the game failing is this clan's.
      if (!(error instanceof ApiError)) throw error;
      const first = !this.#warned.has(key);
      this.#warned.add(key);
      log[first ? 'warn' : 'debug']({ err: error, clanId: clan.clanId, day }, 'turf digest not made yet');
      return false;
    }
  }
}

/** The digest's source for the worker (a source `startPipeline` is handed). */
export function turfDigestSource(options: TurfDigestOptions = {}): SourceFactory {
  return (deps) => new TurfDigestSource(deps, options);
}
