import type { Logger } from 'pino';
import type { TierClient } from '../api/client.ts';
import type { RouteName } from '../api/routes/index.ts';
import type { Clock } from '../core/clock.ts';
import type { EventType } from '../api/params.ts';
import type { Event, TurfStatus } from '../api/schemas/index.ts';
import type { Database } from '../db/index.ts';
import type { BackgroundScheduler } from '../traffic/scheduler.ts';
import type { RequestBudget } from '../traffic/budget.ts';
import type { StepHook } from './delivery.ts';
import type { KindRegistry } from './kinds/registry.ts';
import type { Inbox } from './inbox.ts';
import { isTurfDay } from '../api/turf-days.ts';
import {
  EVENTS_SOURCE,
  TURF_DAILY_EVENT,
  TURF_OWNER_EVENT,
  TURF_SOURCE,
  isSaneTime,
  isUpstreamId,
  type AnnouncementEvent,
  type Subscription,
  type TurfOwner,
  type TurfState,
} from './model.ts';
import type { Repositories } from './repositories.ts';

/**
 * Sources are the feeds that produce announcements. Each is polled under its own lease by one process at a
 * time; a poll stores what it found in the inbox first, then moves its own position (cursor, stored
 * state), then has the inbox delivered.
 */
export interface SourceRun {
  readonly subscriptions: readonly Subscription[];
  readonly signal: AbortSignal;
  /**
   * Has everything pending in the inbox delivered: in the worker's loops it starts the outbox and returns
   * at once; in `pollOnce` (tests) it waits until delivered.
   */
  deliver(): Promise<void>;
  /** How long a source may spread its requests over (half its interval). */
  readonly spreadMs: number;
}

export interface Source {
  readonly name: string;
  /** Whether any of these (active) subscriptions needs this source. */
  wanted(subscriptions: readonly Subscription[]): boolean;
  poll(run: SourceRun): Promise<void>;
}

/**
 * A source handed in (the KPD feed, the players feed, the alerts), built by the composition root
 * (`src/worker.ts`) with the parts every source shares.
 */
export type SourceFactory = (deps: SourceDeps) => Source;

export interface SourceDeps {
  readonly api: TierClient;
  /** Where a poll stores what it found (only what some subscription wants, each event once). */
  readonly inbox: Inbox;
  /** The records: cursors, the turf state, subscriptions (opened once, at the composition root). */
  readonly repos: Repositories;
  readonly clock: Clock;
  readonly log: Logger;
  readonly hook?: StepHook | undefined;
  /** The kinds the bot runs with: which events are wanted, and by which subscriptions. */
  readonly kinds: KindRegistry;
  /** Where every background read of the game API takes its turn (commands never wait there). */
  readonly scheduler: BackgroundScheduler;
  readonly db: Database;
}

/**
 * An event of the game's feed (or of a webhook delivery) as an announcement event. A creation time that
 * is missing, unreadable or more than a century away from now is replaced by the time it was received.
 */
export function fromApiEvent(event: Event, receivedAt: number): AnnouncementEvent {
  const created = event.created_at === undefined ? Number.NaN : Date.parse(event.created_at);
  return {
    key: `e:${event.id}`,
    source: EVENTS_SOURCE,
    type: event.type,
    at: isSaneTime(created, receivedAt) ? created : receivedAt,
    data: { ...event },
  };
}

export interface EventsFeedOptions {
  /** Events per page (`limit`, 1..100). */
  readonly pageSize: number;
  /** Time budget of one page request, waits inside the tier client included. */
  readonly deadlineMs: number;
  /**
   * Pages one poll reads at most (default {@link MAX_EVENT_PAGES_PER_POLL}); the cursor is kept, so the
   * next poll goes on from there. A feed that says `has_more` for ever cannot hold a poll for ever.
   */
  readonly maxPagesPerPoll?: number;
}

/** 50 pages of 100 events: far more than a poll interval brings, a bound on one that never ends. */
export const MAX_EVENT_PAGES_PER_POLL = 50;

/**
 * `GET /api/events`: one cursor per filter set (the sorted list of types the subscriptions need), pages
 * fetched back to back while `has_more`, every request first taking a ticket of the shared 6-a-minute
 * budget.
 */
export class EventsFeed implements Source {
  readonly name = EVENTS_SOURCE;
  readonly #deps: SourceDeps;
  readonly #budget: RequestBudget;
  readonly #options: EventsFeedOptions;

  constructor(deps: SourceDeps, budget: RequestBudget, options: EventsFeedOptions) {
    this.#deps = deps;
    this.#budget = budget;
    this.#options = options;
  }

  wanted(subscriptions: readonly Subscription[]): boolean {
    return this.#deps.kinds.eventTypesFor(subscriptions).length > 0;
  }

  static filterKey(types: readonly string[]): string {
    return `types=${[...types].sort().join(',')}`;
  }

  async poll(run: SourceRun): Promise<void> {
    const { repos, clock, hook, inbox } = this.#deps;
    const types = this.#deps.kinds.eventTypesFor(run.subscriptions);
    if (types.length === 0) return;
    const filterKey = EventsFeed.filterKey(types);
    // Whatever a crash left in the inbox goes out before anything newer.
    await run.deliver();
    let after = (await repos.cursors.get(filterKey))?.after ?? 0;
    const maxPages = this.#options.maxPagesPerPoll ?? MAX_EVENT_PAGES_PER_POLL;
    for (let pages = 1; ; pages += 1) {
      run.signal.throwIfAborted();
      const page = await this.#fetch(after, types, run.signal);
      const subscriptions = run.subscriptions;
      const now = clock.now();
      let stored = 0;
      for (const item of page.events) {
        if (!isUpstreamId(item.id)) {
          this.#deps.log.warn({ id: item.id }, 'skipped an event with an impossible id');
          continue;
        }
        let event = fromApiEvent(item, now);
        if (!inbox.wants(event, subscriptions)) continue;
        if (event.type === 'map.featured' || event.type === 'map.unfeatured')
          event = await this.withMapDetails(event, run.signal);
        if (await inbox.offer(event, subscriptions)) stored += 1;
      }
      await hook?.('stored', { eventKey: `page:${after}` });
      // A cursor that is no id would not read back (and the feed would start over): keep the old one.
      if (!isUpstreamId(page.next)) {
        this.#deps.log.warn({ after, next: page.next }, 'the events feed gave an impossible cursor');
        break;
      }
      await repos.cursors.set(filterKey, { after: page.next, at: now });
      await hook?.('cursor', { eventKey: `page:${after}` });
      this.#deps.log.debug({ after, next: page.next, events: page.events.length, stored }, 'events page');
      await run.deliver();
      // A server that says "more" without moving on would keep us here: stop, and go on next time.
      if (page.has_more !== true || page.next <= after) break;
      if (pages >= maxPages) {
        this.#deps.log.info({ after: page.next, pages }, 'events feed: page limit of one poll reached');
        break;
      }
      after = page.next;
    }
  }

  /**
   * A featured (or unfeatured) map's votes, plays and creator (`GET /api/map/{name}`; the event carries
   * only its id, name and creator), stored with the event as `data.details` so that every channel's post
   * (and its edit) shows them. One request per such event, from the same budget as the feed; when it
   * fails the post goes out without them.
   */
  async withMapDetails(event: AnnouncementEvent, signal: AbortSignal): Promise<AnnouncementEvent> {
    const data = event.data['data'];
    const mapName =
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['map_name'] : undefined;
    if (typeof mapName !== 'string' || mapName.trim() === '' || mapName.length > 100) return event;
    try {
      const map = await this.#deps.scheduler.run(
        this.name,
        () => this.#budgeted('map', { mapName }, signal),
        signal,
      );
      const details = { votes: map.votes, gameplays: map.gameplays, creator_name: map.creator_name };
      return { ...event, data: { ...event.data, details } };
    } catch (error) {
      signal.throwIfAborted();
      this.#deps.log.debug({ err: error, key: event.key }, 'featured map details unavailable');
      return event;
    }
  }

  #fetch(after: number, types: readonly EventType[], signal: AbortSignal) {
    return this.#deps.scheduler.run(this.name, () => this.#fetchNow(after, types, signal), signal);
  }

  #fetchNow(after: number, types: readonly EventType[], signal: AbortSignal) {
    return this.#budgeted('events', { after, types, limit: this.#options.pageSize }, signal);
  }

  /** One call of this feed, paid from its budget. */
  async #budgeted<N extends RouteName>(name: N, params: unknown, signal: AbortSignal) {
    const ticket = await this.#budget.take(signal);
    let attempts = 0;
    try {
      return await this.#deps.api.call(name, params, {
        priority: 'background',
        deadlineMs: this.#options.deadlineMs,
        signal,
        onAttempt: () => (attempts += 1),
      });
    } finally {
      // The tier client may have retried (a 5xx once): count every request of this call that went out.
      await ticket.settle(Math.max(0, attempts - 1));
    }
  }
}

function ownersOf(status: TurfStatus): Record<string, TurfOwner> {
  const owners: Record<string, TurfOwner> = {};
  for (const map of status.maps) {
    // An owner that did not read (degraded) is unknown: keep the last one known rather than guess.
    if (map.owner === undefined || !isUpstreamId(map.map_id)) continue;
    if (map.owner !== null && !isUpstreamId(map.owner.clan_id)) continue;
    owners[String(map.map_id)] =
      map.owner === null ? null : { clanId: map.owner.clan_id, clanName: map.owner.clan_name };
  }
  return owners;
}

function sameOwner(a: TurfOwner | undefined, b: TurfOwner | undefined): boolean {
  return (a?.clanId ?? null) === (b?.clanId ?? null);
}

/** Clans followed by turf subscriptions, once each. */
function followedClans(kinds: KindRegistry, subscriptions: readonly Subscription[]): Map<number, string> {
  const clans = new Map<number, string>();
  for (const subscription of subscriptions) {
    if (!kinds.fromSource(subscription, TURF_SOURCE)) continue;
    const { clanId, clanName } = subscription.options;
    if (typeof clanId === 'number')
      clans.set(clanId, typeof clanName === 'string' ? clanName : String(clanId));
  }
  return clans;
}

/**
 * Turf wars: `/territorial-wars/status` once per poll for every subscription together, compared with the
 * state stored last time. Each owner change becomes an event; when the turf day has rolled over, each
 * followed clan gets its earnings of the day that ended. The first poll only stores the state.
 */
export class TurfFeed implements Source {
  readonly name = TURF_SOURCE;
  readonly #deps: SourceDeps;

  constructor(deps: SourceDeps) {
    this.#deps = deps;
  }

  wanted(subscriptions: readonly Subscription[]): boolean {
    return subscriptions.some((subscription) => this.#deps.kinds.fromSource(subscription, TURF_SOURCE));
  }

  async poll(run: SourceRun): Promise<void> {
    const { api, repos, clock, hook, scheduler, inbox } = this.#deps;
    await run.deliver();
    const status = await scheduler.run(
      this.name,
      () => api.call('turfStatus', {}, { priority: 'background', fresh: true, signal: run.signal }),
      run.signal,
    );
    // A day no calendar can show would poison every announcement made from it: refuse the whole reply.
    if (status.day !== undefined && !isTurfDay(status.day)) {
      this.#deps.log.warn({ day: status.day }, 'the turf status gave an impossible day; ignored');
      return;
    }
    const state = await repos.turf.get();
    const owners = ownersOf(status);
    if (!state) {
      await repos.turf.set({ version: 0, ...(status.day === undefined ? {} : { day: status.day }), owners });
      return;
    }
    const now = clock.now();
    const version = state.version + 1;
    const events: AnnouncementEvent[] = [];
    for (const [mapId, current] of Object.entries(owners)) {
      // A map never seen before has no previous owner to compare with.
      if (!(mapId in state.owners)) continue;
      const previous = state.owners[mapId] ?? null;
      if (sameOwner(previous, current)) continue;
      events.push({
        key: `turf:${version}:${mapId}`,
        source: TURF_SOURCE,
        type: TURF_OWNER_EVENT,
        at: now,
        data: {
          mapId: Number(mapId),
          ...(status.day === undefined ? {} : { day: status.day }),
          previous,
          current,
        },
      });
    }
    const newDay = status.day !== undefined && state.day !== undefined && status.day > state.day;
    if (newDay && status.day !== undefined && status.day > 0)
      events.push(...(await this.#dailyEvents(status.day - 1, run, now)));
    const changed =
      newDay ||
      status.day !== state.day ||
      Object.keys(owners).some((id) => !sameOwner(state.owners[id], owners[id]));
    if (!changed && events.length === 0) return;

    for (const event of events) await inbox.offer(event, run.subscriptions);
    await hook?.('stored', { eventKey: `turf:${version}` });
    const day = status.day ?? state.day;
    const next: TurfState = {
      version,
      ...(day === undefined ? {} : { day }),
      owners: { ...state.owners, ...owners },
    };
    await repos.turf.set(next);
    await hook?.('cursor', { eventKey: `turf:${version}` });
    await run.deliver();
  }

  async #dailyEvents(day: number, run: SourceRun, now: number): Promise<AnnouncementEvent[]> {
    const { api, log, kinds } = this.#deps;
    const events: AnnouncementEvent[] = [];
    for (const [clanId, clanName] of followedClans(kinds, run.subscriptions)) {
      try {
        const earnings = await this.#deps.scheduler.run(
          this.name,
          () => api.call('turfClanEarnings', { clanId }, { priority: 'background', signal: run.signal }),
          run.signal,
        );
        const earned = earnings.days.find((entry) => entry.day === day);
        // No line for that day (a new season began): better silent than a wrong zero.
        if (earned === undefined) continue;
        events.push({
          key: `turf-day:${day}:${clanId}`,
          source: TURF_SOURCE,
          type: TURF_DAILY_EVENT,
          // Just after the owner changes seen by the same poll, so that the day's summary comes last.
          at: now + 1,
          data: { day, clanId, clanName, kr: earned.kr ?? 0 },
        });
      } catch (error) {
        log.warn({ err: error, clanId, day }, 'could not read a clan’s turf earnings');
      }
    }
    return events;
  }
}
