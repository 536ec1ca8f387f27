import { ApiError, NotFoundError, RateLimitedError } from '../../../api/errors.ts';
import type { AnnouncementEvent, DisableReason, Subscription } from '../../../announcements/model.ts';
import type { Source, SourceDeps, SourceFactory, SourceRun } from '../../../announcements/sources.ts';
import { CLAN_TARGET_MS, clanIntervalOf, type BackgroundPlan } from '../../../traffic/planner.ts';
import { diffRosters, isEmptyChange } from './diff.ts';
import { RANK_BOARD_OWNER, followedClans, type FollowedClan } from './followed.ts';
import {
  CLAN_LOG_EVENT,
  CLAN_LOG_KIND,
  CLAN_LOG_SOURCE,
  MAX_NAME,
  clanOf,
  type ClanLogEvent,
  type Roster,
} from './model.ts';
import type { DemandReader } from '../../../traffic/capacity.ts';
import { planFor, type PlanConfig } from './plan.ts';
import { apiRankReader, apiRosterReader, type RankReader, type RosterReader } from './roster.ts';
import { ClanRosterStore, type StoredRoster } from './store.ts';

/** Why a clan log stops: its clan's roster answers 404 (the clan was deleted, or its id is gone). */
export const CLAN_GONE_REASON: DisableReason = 'clanNotFound';
/** Clans read per poll, at most (the next poll goes on). */
const MAX_PER_POLL = 100;
/** A clan nobody has followed for this long is forgotten (longer than the inbox keeps a done event). */
const FORGET_AFTER_MS = 45 * 86_400_000;
const HOUR_MS = 3_600_000;

/** What the source needs: the announcements' shared deps, less the tier client (it reads through `read`). */
export interface ClanLogDeps extends Omit<SourceDeps, 'api'> {
  readonly read: RosterReader;
  readonly ranks: RankReader;
  readonly config: PlanConfig;
  /** What the background has to refresh now (the composition root's `demandReader`). */
  readonly demand: DemandReader;
}

/**
 * The clan log's feed: each clan some active `clan-log` subscription follows is read once per interval
 * (one keyless call for the whole roster, however many servers follow it), through the background
 * scheduler, at the interval the background's one plan gives clan logs (`src/schedule/planner.ts`). Each
 * read is compared with the last one stored; what changed becomes one event (one message per channel),
 * stored with the new roster in one transaction (`store.ts`). The first read of a clan only stores it. A
 * roster that answers 404 pauses the clan's subscriptions (`/subscriptions` says why) instead of being
 * read again and again.
 */
export class ClanLogSource implements Source {
  readonly name = CLAN_LOG_SOURCE;
  readonly #deps: ClanLogDeps;
  readonly #store: ClanRosterStore;
  /** The clan leaderboard's positions, read at most once per interval for every clan that needs them. */
  #board: { readonly at: number; readonly ranks: ReadonlyMap<number, number> | undefined } | undefined;
  #prunedAt = -Infinity;
  /** When a clan's last read failed (5xx, network): it waits an interval too, as after a read. */
  readonly #failedAt = new Map<number, number>();

  constructor(deps: ClanLogDeps) {
    this.#deps = deps;
    this.#store = new ClanRosterStore(deps.db);
  }

  wanted(subscriptions: readonly Subscription[]): boolean {
    return followedClans(subscriptions).size > 0;
  }

  plan(subscriptions: readonly Subscription[]): Promise<BackgroundPlan> {
    return planFor(this.#deps.demand, subscriptions, this.#deps.config);
  }

  async poll(run: SourceRun): Promise<void> {
    const { clock, log, scheduler } = this.#deps;
    // Whatever a crash left in the inbox goes out before anything newer.
    await run.deliver();
    const followed = followedClans(run.subscriptions);
    if (followed.size === 0) return;
    await this.#prune();
    const now = clock.now();
    const plan = await this.plan(run.subscriptions);
    const stored = await this.#store.many([...followed.keys()]);
    for (const clanId of this.#failedAt.keys()) if (!followed.has(clanId)) this.#failedAt.delete(clanId);
    const readAt = (clan: FollowedClan) =>
      Math.max(stored.get(clan.clanId)?.polledAt ?? -Infinity, this.#failedAt.get(clan.clanId) ?? -Infinity);
    const due = dueClans(followed, readAt, plan, now).slice(0, readsPerPoll(plan, run));
    const ranks = await this.#ranks(due, plan, run);
    const deadline = now + Math.max(1_000, run.spreadMs);
    let found = 0;
    for (const clan of due) {
      if (run.signal.aborted || clock.now() >= deadline) break;
      const owner = `${CLAN_LOG_SOURCE}:${[...clan.owners][0] ?? ''}`;
      try {
        const roster = await scheduler.run(owner, () => this.#deps.read(clan.clanId, run.signal), run.signal);
        found += await this.#record(clan, stored.get(clan.clanId), roster, ranks, run);
      } catch (error) {
        if (error instanceof NotFoundError) await this.#pause(clan, run.subscriptions);
        // The budget is spent for now (commands come first): the rest waits for the next poll.
        else if (error instanceof RateLimitedError) break;
        else if (error instanceof ApiError) {
          this.#failedAt.set(clan.clanId, clock.now());
          log.warn({ err: error, clanId: clan.clanId }, 'could not read a followed clan’s roster');
        } else throw error;
      }
    }
    if (found > 0) await run.deliver();
  }

  /** Stores one read (and what it found); returns 1 when it stored an event. */
  async #record(
    clan: FollowedClan,
    previous: StoredRoster | undefined,
    read: Roster | undefined,
    ranks: ReadonlyMap<number, number> | undefined,
    run: SourceRun,
  ): Promise<number> {
    const { clock, log, hook } = this.#deps;
    if (!read) {
      log.warn({ clanId: clan.clanId }, 'a clan roster came without its members; the last one is kept');
      return 0;
    }
    // Without the board this time, the rank known before stands (no change is made up, none is lost).
    const rank = !clan.wantsRank ? undefined : ranks ? ranks.get(clan.clanId) : previous?.roster.rank;
    const roster: Roster = { ...read, clanId: clan.clanId, ...(rank === undefined ? {} : { rank }) };
    const now = clock.now();
    const event = previous && this.#event(clan, previous, roster, now, run.subscriptions);
    const committed = await this.#store.commit({
      clanId: clan.clanId,
      previous,
      roster,
      polledAt: now,
      event,
    });
    if (!committed || !event) return 0;
    await hook?.('stored', { eventKey: event.key });
    return 1;
  }

  /** The changes since the stored read as an event, when there are some and a subscription wants them. */
  #event(
    clan: FollowedClan,
    previous: StoredRoster,
    roster: Roster,
    now: number,
    subscriptions: readonly Subscription[],
  ): AnnouncementEvent | undefined {
    const change = diffRosters(previous.roster, roster);
    if (isEmptyChange(change)) return undefined;
    const data: ClanLogEvent = {
      clanId: clan.clanId,
      clanName: roster.name === '' ? clan.clanName.slice(0, MAX_NAME) : roster.name,
      fromAt: previous.polledAt,
      change,
    };
    const event: AnnouncementEvent = {
      // The version compared with, and the time: unique to this read, whatever was forgotten before.
      key: `clan-log:${clan.clanId}:${previous.version + 1}:${now}`,
      source: CLAN_LOG_SOURCE,
      type: CLAN_LOG_EVENT,
      at: now,
      data: { ...data },
    };
    return this.#deps.kinds.isWanted(event, subscriptions) ? event : undefined;
  }

  /** The clan leaderboard when a due clan's rank is announced and the last read is an interval old. */
  async #ranks(
    due: readonly FollowedClan[],
    plan: BackgroundPlan,
    run: SourceRun,
  ): Promise<ReadonlyMap<number, number> | undefined> {
    const { clock, log, scheduler } = this.#deps;
    if (!due.some((clan) => clan.wantsRank)) return undefined;
    const every = clanIntervalOf(plan, [RANK_BOARD_OWNER], CLAN_TARGET_MS);
    if (this.#board && this.#board.at > clock.now() - every) return this.#board.ranks;
    let ranks: ReadonlyMap<number, number> | undefined;
    try {
      ranks = await scheduler.run(RANK_BOARD_OWNER, () => this.#deps.ranks(run.signal), run.signal);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      log.warn({ err: error }, 'could not read the clan leaderboard; ranks wait for the next read');
    }
    this.#board = { at: clock.now(), ranks };
    return ranks;
  }

  /** The clan is gone: its subscriptions stop, each saying why in `/subscriptions`. */
  async #pause(clan: FollowedClan, subscriptions: readonly Subscription[]): Promise<void> {
    const { repos, clock, log } = this.#deps;
    for (const subscription of subscriptions) {
      if (subscription.kind !== CLAN_LOG_KIND || clanOf(subscription)?.clanId !== clan.clanId) continue;
      if (await repos.subscriptions.disable(subscription.id, CLAN_GONE_REASON, 404, clock.now()))
        log.info(
          { clanId: clan.clanId, subscription: subscription.id, guild: subscription.guildId },
          'clan log paused: the clan’s roster answers 404',
        );
    }
  }

  /** Clans nobody follows any more are forgotten, once an hour. */
  async #prune(): Promise<void> {
    const now = this.#deps.clock.now();
    if (now - this.#prunedAt < HOUR_MS) return;
    this.#prunedAt = now;
    const removed = await this.#store.prune(now - FORGET_AFTER_MS);
    if (removed > 0) this.#deps.log.debug({ removed }, 'forgot rosters of clans nobody follows');
  }
}

/**
 * The reads one poll may make: what the plan gives clan logs over one poll interval (twice `spreadMs`), so
 * that the reads go out evenly (500 clans never read are read over several polls, not at once), and never
 * more than {@link MAX_PER_POLL}.
 */
function readsPerPoll(plan: BackgroundPlan, run: SourceRun): number {
  const planned = Math.ceil((plan.perMinute.clans * 2 * Math.max(0, run.spreadMs)) / 60_000);
  return Math.min(MAX_PER_POLL, Math.max(1, planned));
}

/** The clans whose interval has passed since their last read, never-read and longest-waiting first. */
function dueClans(
  followed: ReadonlyMap<number, FollowedClan>,
  readAt: (clan: FollowedClan) => number,
  plan: BackgroundPlan,
  now: number,
): FollowedClan[] {
  return (
    [...followed.values()]
      // A second of slack: intervals are rounded up to the millisecond, polls come on whole seconds.
      .filter((clan) => readAt(clan) <= now + 1_000 - clanIntervalOf(plan, clan.owners, CLAN_TARGET_MS))
      .sort((a, b) => readAt(a) - readAt(b) || a.clanId - b.clanId)
  );
}

/** The clan log's source for `startPipeline`: the game tier's rosters, planned in the background's plan. */
export function clanLogSource(config: PlanConfig, demand: DemandReader): SourceFactory {
  return (deps) =>
    new ClanLogSource({
      ...deps,
      log: deps.log.child({ part: CLAN_LOG_SOURCE }),
      read: apiRosterReader(deps.api),
      ranks: apiRankReader(deps.api),
      config,
      demand,
    });
}
