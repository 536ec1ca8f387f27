import { randomUUID } from 'node:crypto';
import { REST } from 'discord.js';
import type { Logger } from 'pino';
import { systemClock, type Clock } from './core/clock.ts';
import type { Config } from './config/index.ts';
import type { Database } from './db/index.ts';
import type { Services } from './services.ts';
import {
  DEFAULT_EVENTS_BUDGET,
  type AnnouncementKind,
  type AnnouncementOptions,
  type Announcements,
  type DiscordTarget,
  type LeaderState,
  type Repositories,
  type SourceFactory,
  type Subscription,
} from './announcements/index.ts';
import { DEFAULT_DELIVERY_OPTIONS, Deliverer } from './announcements/delivery.ts';
import { Inbox } from './announcements/inbox.ts';
import { listenForWebhooks, WebhookIngress } from './announcements/ingress.ts';
import { KindRegistry } from './announcements/kinds/registry.ts';
import { Lease } from './announcements/lease.ts';
import { Leadership } from './announcements/leadership.ts';
import { RecordPurge } from './announcements/maintenance.ts';
import { Outbox } from './announcements/outbox.ts';
import { AnnouncementPipeline } from './announcements/pipeline.ts';
import { ActiveSubscriptions } from './announcements/records/subscriptions.ts';
import { purgeExpiredRecords } from './announcements/repositories.ts';
import { SourceLoop } from './announcements/source-loop.ts';
import { EventsFeed, TurfFeed, type Source, type SourceDeps } from './announcements/sources.ts';
import { RequestBudget } from './traffic/budget.ts';
import { BackgroundScheduler } from './traffic/scheduler.ts';
import { ANNOUNCEMENT_KINDS } from './kinds.ts';
import { GuildDepartures } from './guilds/departures.ts';
import { kpdSource } from './features/kpd/feed.ts';
import { playersSource } from './features/tracking/feed.ts';
import { clanLogSource } from './features/clans/log/source.ts';
import { alertsSource } from './features/alerts/watch.ts';
import { turfDigestSource } from './features/turf/digest/source.ts';
import { remindersSource } from './features/turf/reminders/source.ts';
import { rolesFollowRefresh } from './features/roles/follow-account.ts';
import { reportKpdKeys } from './features/kpd/keys.ts';
import { logFor } from './log/index.ts';
import { createMetrics, type Metrics } from './metrics/index.ts';
import type { SharedLimits } from './traffic/index.ts';
import { composeServices } from './compose.ts';
import { openStorage } from './storage.ts';
import type { Store } from './store/index.ts';
import { discordRestAgent, limitedRestOptions } from './discord/rest-agent.ts';
import { DiscordGlobalLimit } from './traffic/discord-global.ts';

/**
 * The worker: the pollers, the webhook receiver and the fan-out, without a gateway session (it posts
 * through Discord's REST API only). Every worker process competes for one lease; the holder works, the
 * others stand by and take over within one lease period when it dies. The holder also removes, hourly,
 * the data of servers the bot left more than the grace period ago.
 */
export interface WorkerOptions {
  readonly config: Config;
  readonly token: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly store?: Store;
  readonly database?: Database;
  readonly announcements?: AnnouncementOptions;
  /** Game API limits shared with another role of this process; otherwise built here and closed on stop. */
  readonly limits?: SharedLimits;
  /** This process's metrics (the manager of role `all` passes its own); a fresh registry otherwise. */
  readonly metrics?: Metrics;
}

export interface WorkerHealth {
  readonly ready: boolean;
  readonly state: 'active' | 'standby' | 'starting' | 'down';
  readonly detail?: string;
}

export interface Worker {
  readonly services: Services;
  readonly metrics: Metrics;
  health(): WorkerHealth;
  /** Runs the departed servers' purge now (tests; it runs hourly on its own while this process works). */
  purgeDeparted(): Promise<number>;
  stop(): Promise<void>;
}

const PURGE_DEPARTED_EVERY_MS = 60 * 60_000;

function healthOf(state: LeaderState, storeHealthy: boolean): WorkerHealth {
  if (!storeHealthy) return { ready: false, state: 'down', detail: 'store-down' };
  switch (state) {
    case 'active':
      return { ready: true, state: 'active' };
    case 'standby':
      return { ready: true, state: 'standby', detail: 'another process holds the worker lease' };
    case 'starting':
      return { ready: false, state: 'starting' };
    case 'stopped':
      return { ready: false, state: 'down', detail: 'stopped' };
  }
}

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { config } = options;
  const log = options.logger ?? logFor('worker');
  const clock = options.clock ?? systemClock;
  const storage = await openStorage(config, {
    ...(options.store ? { store: options.store } : {}),
    ...(options.database ? { database: options.database } : {}),
    log,
    now: clock.now(),
  });
  const { store, db } = storage;
  const metrics = options.metrics ?? createMetrics({ process: 'worker', clock });
  const composed = await composeServices({ config, clock, log, metrics, store, db, limits: options.limits });
  const { services } = composed;
  // The worker's requests are background on the bot's one global limiter (docs/adr/013).
  const discordLimit = new DiscordGlobalLimit(services.api.limits, options.token, clock, {
    commandsInProcess: false,
  });
  const rest = new REST({
    api: config.discord.apiUrl,
    agent: discordRestAgent(),
    ...limitedRestOptions(discordLimit, 'background'),
  }).setToken(options.token);
  void reportKpdKeys(services).catch((error: unknown) =>
    log.warn({ err: error }, 'could not audit linked KPD keys'),
  );
  const announcements = await startPipeline({
    discord: { rest, guildLocale: () => undefined, ready: Promise.resolve() },
    services,
    config,
    kinds: ANNOUNCEMENT_KINDS,
    sources: [
      kpdSource(services),
      playersSource(config, services.demand, rolesFollowRefresh(services, rest)),
      alertsSource(services, rest, services.demand),
      clanLogSource(config, services.demand),
      turfDigestSource(),
      remindersSource(),
    ],
    options: { metrics, ...options.announcements },
  });

  const departures = new GuildDepartures(db);
  const purgeDeparted = async () => (await departures.purge(clock.now(), log)).length;
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;
  const housekeeping = (async () => {
    while (!stopped()) {
      await clock.sleep(PURGE_DEPARTED_EVERY_MS, stopping.signal).catch(() => undefined);
      if (stopped() || announcements.state !== 'active') continue;
      await purgeDeparted().catch((error: unknown) =>
        log.warn({ err: error }, 'could not purge departed servers'),
      );
    }
  })();

  let stopping_: Promise<void> | undefined;
  return {
    services,
    metrics,
    health: () => healthOf(announcements.state, store.health.healthy),
    purgeDeparted,
    stop() {
      stopping_ ??= (async () => {
        stopping.abort(new Error('worker stopped'));
        await announcements.stop();
        await housekeeping;
        await composed.close();
        await storage.close();
        log.info('worker stopped');
      })();
      return stopping_;
    },
  };
}

/** What the announcement pipeline is built from. */
export interface PipelineDeps {
  readonly discord: DiscordTarget;
  readonly services: Services;
  readonly config: Pick<Config, 'events' | 'webhook' | 'game'>;
  /** The kinds subscriptions can have (`ANNOUNCEMENT_KINDS`, from `src/kinds.ts`). */
  readonly kinds: readonly AnnouncementKind[];
  /** Sources besides the game's events feed and turf, which are built in (the KPD feed: `kpdSource`). */
  readonly sources?: readonly SourceFactory[];
  readonly options?: AnnouncementOptions;
}

/** What the parts of one pipeline share. */
interface Shared {
  readonly services: Services;
  readonly repos: Repositories;
  readonly kinds: KindRegistry;
  readonly log: Logger;
  readonly holder: string;
  readonly leaseTtlMs: number;
  readonly stopping: AbortController;
  readonly subscriptions: () => Promise<readonly Subscription[]>;
}

/**
 * The announcement pipeline, built from its named parts (docs/adr/011): a loop per source polls under
 * the worker lease and stores what it finds in the inbox; the outbox has the inbox delivered, in passes
 * of its own, by the deliverer; the webhook ingress stores pushed events in the same inbox. Each part is
 * handed the next one here, so an event flows down source → inbox → outbox → deliverer and nothing calls
 * back up. The records are the ones opened once for the process (`services.records`). The worker runs
 * it; a shard of role `all` runs the same in-process (`src/bot.ts`).
 */
export async function startPipeline(deps: PipelineDeps): Promise<Announcements> {
  const { services, config } = deps;
  const options = deps.options ?? {};
  const repos = services.records.announcements;
  const active = new ActiveSubscriptions(repos.subscriptions);
  const shared: Shared = {
    services,
    repos,
    kinds: new KindRegistry(deps.kinds),
    log: services.log.child({ subsystem: 'announcements' }),
    holder: options.holderId ?? randomUUID(),
    leaseTtlMs: options.leaseTtlMs ?? config.events.leaseSeconds * 1000,
    stopping: new AbortController(),
    subscriptions: () => active.get(),
  };
  const { log, stopping } = shared;
  const { clock } = services;
  const lease = new Lease(services.store, 'worker', shared.holder, shared.leaseTtlMs);
  const leadership = new Leadership(lease, clock, log, stopping.signal);
  const deliverer = newDeliverer(shared, deps.discord, options);
  const outbox = new Outbox(deliverer, log);
  options.metrics?.setOutboxDepth(() => repos.inbox.depth());
  const inbox = new Inbox(repos.inbox, shared.kinds);
  const { sources, eventsFeed } = newSources(shared, deps, inbox);
  const loops = sources.map((source) => newSourceLoop(shared, deps, source, leadership, outbox));
  const ingress = new WebhookIngress({
    inbox,
    outbox,
    leadership,
    subscriptions: shared.subscriptions,
    details: eventsFeed,
    clock,
    stopping: stopping.signal,
  });
  const listening = await listenForWebhooks(config.webhook, ingress, { ...options, clock, log });
  const purge = new RecordPurge({
    purge: (now) => purgeExpiredRecords(services.db, now),
    leadership,
    clock,
    log,
    stopping: stopping.signal,
  });
  const parts = { leadership, loops, outbox, deliverer, purge, listening, stopping };
  const pipeline = new AnnouncementPipeline({ ...parts, discordReady: deps.discord.ready });
  return options.autoStart === false ? pipeline : pipeline.start();
}

function newDeliverer(shared: Shared, discord: DiscordTarget, options: AnnouncementOptions): Deliverer {
  const { services, repos, kinds, log, holder, leaseTtlMs } = shared;
  const metrics = options.metrics;
  return new Deliverer({
    discord,
    activeSubscriptions: shared.subscriptions,
    repos,
    translations: services.translations,
    clock: services.clock,
    log,
    holder,
    // A claim needs to outlive a pass of the worker only: a standby that took over waits no longer than that.
    options: {
      ...DEFAULT_DELIVERY_OPTIONS,
      claimTtlMs: Math.min(DEFAULT_DELIVERY_OPTIONS.claimTtlMs, leaseTtlMs),
      ...options.delivery,
    },
    hook: options.hook,
    kinds,
    ...(metrics ? { onOutcome: (outcome) => metrics.delivery(outcome) } : {}),
  });
}

/**
 * The sources, in the order `pollOnce` polls them: the game's events feed (with an API key only), turf,
 * then the ones handed in. The events feed is also the webhook's source of featured maps' details.
 */
function newSources(
  shared: Shared,
  deps: PipelineDeps,
  inbox: Inbox,
): { readonly sources: readonly Source[]; readonly eventsFeed: EventsFeed | undefined } {
  const { services, repos, kinds, log } = shared;
  const { api, clock, db } = services;
  const options = deps.options ?? {};
  const scheduler = options.scheduler ?? new BackgroundScheduler();
  const sourceDeps: SourceDeps = { api, inbox, repos, clock, log, hook: options.hook, kinds, scheduler, db };
  const sources: Source[] = [
    new TurfFeed(sourceDeps),
    ...(deps.sources ?? []).map((make) => make(sourceDeps)),
  ];
  const apiKey = deps.config.game.apiKey;
  if (apiKey === undefined) {
    log.info('no GAME_API_KEY: the events feed is not polled (map announcements stay silent)');
    return { sources, eventsFeed: undefined };
  }
  const budget = new RequestBudget(
    api.limits,
    `events:${apiKey}`,
    options.budget ?? DEFAULT_EVENTS_BUDGET,
    clock,
  );
  const eventsFeed = new EventsFeed(sourceDeps, budget, {
    pageSize: options.pageSize ?? 100,
    deadlineMs: 30_000,
    ...(options.maxPagesPerPoll === undefined ? {} : { maxPagesPerPoll: options.maxPagesPerPoll }),
  });
  return { sources: [eventsFeed, ...sources], eventsFeed };
}

function newSourceLoop(
  shared: Shared,
  deps: PipelineDeps,
  source: Source,
  leadership: Leadership,
  outbox: Outbox,
): SourceLoop {
  const options = deps.options ?? {};
  const intervalMs = options.pollIntervalMs ?? deps.config.events.pollSeconds * 1000;
  return new SourceLoop({
    source,
    leadership,
    outbox,
    subscriptions: shared.subscriptions,
    clock: shared.services.clock,
    log: shared.log,
    intervalMs: options.sourceIntervalsMs?.[source.name] ?? intervalMs,
    standbyCheckMs: Math.max(10, Math.floor(shared.leaseTtlMs / 3)),
    stopping: shared.stopping.signal,
    metrics: options.metrics,
  });
}
