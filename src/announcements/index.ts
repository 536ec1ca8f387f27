import { randomUUID } from 'node:crypto';
import { Events, type Client, type REST } from 'discord.js';
import type { Config } from '../config/index.ts';
import type { Delivery } from './model.ts';
import type { Services } from '../services.ts';
import { RequestBudget, type BudgetRule } from '../traffic/budget.ts';
import { DEFAULT_DELIVERY_OPTIONS, Deliverer, type DeliveryOptions, type StepHook } from './delivery.ts';
import { KindRegistry } from './kinds/registry.ts';
import type { AnnouncementKind } from './kinds/kind.ts';
import { Lease } from './lease.ts';
import { Leadership, type LeaderState } from './leadership.ts';
import { Outbox } from './outbox.ts';
import { ActiveSubscriptions } from './records/subscriptions.ts';
import { openRepositories, purgeExpiredRecords, type Repositories } from './repositories.ts';
import { EventsFeed, TurfFeed, fromApiEvent, type Source, type SourceFactory } from './sources.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook.ts';
import { BackgroundScheduler } from '../traffic/scheduler.ts';

export type { AnnouncementKind, DeliveryPlan } from './kinds/kind.ts';
export type { SourceFactory } from './sources.ts';
export type { Subscription, AnnouncementEvent } from './model.ts';
export type { LeaderState } from './leadership.ts';
export { openRepositories, type Repositories } from './repositories.ts';
export type { Step, StepHook } from './delivery.ts';

/**
 * Announcements: the pollers (game events feed, turf status, and the sources handed in), the signed
 * webhook receiver and the fan-out to subscribed channels. They run in the worker: of every process that
 * starts them, one holds the worker lease (`leadership.ts`) and does the work; the others stand by. Each
 * source polls on its own schedule; what a poll finds goes to the inbox, which the outbox delivers in
 * passes of its own (`outbox.ts`), so a long fan-out never delays a poll.
 *
 * "From now on": a subscription announces only events that happened at or after its `since` (when it
 * was made, or made again). So the first poll of a feed with no cursor pages through the history the
 * game keeps (30 days), stores none of it (no subscription is that old) and leaves the cursor at the
 * newest event; nothing is replayed into new channels.
 */
export interface Announcements {
  /** The webhook receiver, when WEBHOOK_PORT, WEBHOOK_SECRET and WEBHOOK_SERVICE are set and it listens. */
  readonly webhook: { readonly port: number; readonly url: string } | undefined;
  /** Why a configured receiver is not listening (e.g. `EADDRINUSE`); polling and delivery go on without it. */
  readonly webhookError: string | undefined;
  /** Whether this process is the worker now. */
  readonly state: LeaderState;
  /**
   * Takes the worker lease if it is free (or renews it), then polls every source once and delivers what
   * they found before resolving (tests; the loops do this on their own schedules). Does nothing when
   * another process is the worker.
   */
  pollOnce(): Promise<void>;
  /** Takes the worker lease if it is free (or renews it) and delivers whatever is pending now. */
  flush(): Promise<void>;
  /** Counters since start: `quarantined`, events set aside after failing every pass. */
  readonly stats: { readonly quarantined: number };
  stop(): Promise<void>;
}

/** What announcements report, when the composition root hands metrics in (src/metrics). */
export interface AnnouncementMetrics {
  pollCycle(source: string, seconds: number): void;
  delivery(outcome: Delivery['outcome']): void;
  setOutboxDepth(read: () => Promise<number>): void;
}

/** Tuning, mainly for tests and benchmarks; every field has a production default. */
export interface AnnouncementOptions {
  /** Default `config.events.pollSeconds`. */
  readonly pollIntervalMs?: number;
  /** A schedule of its own for some sources, by name (`events`, `turf`, `kpd`); default `pollIntervalMs`. */
  readonly sourceIntervalsMs?: Readonly<Record<string, number>>;
  /** Default `config.events.leaseSeconds`. */
  readonly leaseTtlMs?: number;
  /** The events endpoint's own limit; default 6 per 60 000 ms. */
  readonly budget?: BudgetRule;
  /** Default 100. */
  readonly pageSize?: number;
  /** Pages of the events feed one poll reads at most; default 50. */
  readonly maxPagesPerPoll?: number;
  readonly delivery?: Partial<DeliveryOptions>;
  /** This process's name in leases and claims; default a random UUID. */
  readonly holderId?: string;
  /** Run the loops (default true); tests call `pollOnce()` themselves. */
  readonly autoStart?: boolean;
  readonly webhookHost?: string;
  readonly webhookTimeoutMs?: number;
  readonly webhookMaxBodyBytes?: number;
  /** Connections the receiver holds at once; default 256. */
  readonly webhookMaxConnections?: number;
  /** Called at each step of storing and delivering (tests stop there, as a crash would). */
  readonly hook?: StepHook;
  readonly metrics?: AnnouncementMetrics;
  /** The background scheduler every source takes turns in; default one of its own. */
  readonly scheduler?: BackgroundScheduler;
}

/** Where announcements are posted: Discord's REST API, and what the gateway knows of guilds, if any. */
export interface DiscordTarget {
  readonly rest: REST;
  /** The guild's language when a gateway session knows it (the worker alone does not: it uses the stored one). */
  guildLocale(guildId: string): string | undefined;
  /** Resolves when posting may begin. */
  readonly ready: Promise<void>;
}

/** A logged-in (or logging-in) client as a {@link DiscordTarget}. */
export function discordTarget(client: Client): DiscordTarget {
  return {
    rest: client.rest,
    guildLocale: (guildId) => client.guilds.cache.get(guildId)?.preferredLocale,
    ready: client.isReady()
      ? Promise.resolve()
      : new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve())),
  };
}

export interface AnnouncementDeps {
  readonly discord: DiscordTarget;
  readonly services: Services;
  readonly config: Pick<Config, 'events' | 'webhook' | 'game'>;
  /** The kinds subscriptions can have (`ANNOUNCEMENT_KINDS`, from `kinds/index.ts`). */
  readonly kinds: readonly AnnouncementKind[];
  /** Sources besides the game's events feed and turf, which are built in (the KPD feed: `kpdSource`). */
  readonly sources?: readonly SourceFactory[];
  readonly options?: AnnouncementOptions;
}

export const DEFAULT_EVENTS_BUDGET: BudgetRule = { limit: 6, windowMs: 60_000 };
const PURGE_EVERY_MS = 60 * 60_000;
/** How long a featured map's webhook delivery waits for the map's details (then stored without). */
const WEBHOOK_DETAILS_MS = 5_000;

export async function startAnnouncements(deps: AnnouncementDeps): Promise<Announcements> {
  const { discord, services, config } = deps;
  const options = deps.options ?? {};
  const { api, store, db, clock, translations } = services;
  const log = services.log.child({ subsystem: 'announcements' });
  const repos: Repositories = openRepositories(db, store);
  const holder = options.holderId ?? randomUUID();
  const intervalMs = options.pollIntervalMs ?? config.events.pollSeconds * 1000;
  const leaseTtlMs = options.leaseTtlMs ?? config.events.leaseSeconds * 1000;
  const hook = options.hook;
  const kinds = new KindRegistry(deps.kinds);
  const metrics = options.metrics;

  const active = new ActiveSubscriptions(repos.subscriptions);
  const deliverer = new Deliverer({
    discord,
    activeSubscriptions: () => active.get(),
    repos,
    translations,
    clock,
    log,
    holder,
    // A claim needs to outlive a pass of the worker only: a standby that took over waits no longer than that.
    options: {
      ...DEFAULT_DELIVERY_OPTIONS,
      claimTtlMs: Math.min(DEFAULT_DELIVERY_OPTIONS.claimTtlMs, leaseTtlMs),
      ...options.delivery,
    },
    hook,
    kinds,
    ...(metrics ? { onOutcome: (outcome: Delivery['outcome']) => metrics.delivery(outcome) } : {}),
  });
  const scheduler = options.scheduler ?? new BackgroundScheduler();
  const sourceDeps = { api, repos, clock, log, hook, kinds, scheduler, db };
  const sources: Source[] = [
    new TurfFeed(sourceDeps),
    ...(deps.sources ?? []).map((make) => make(sourceDeps)),
  ];
  let eventsFeed: EventsFeed | undefined;
  if (config.game.apiKey !== undefined) {
    const budget = new RequestBudget(
      api.limits,
      `events:${config.game.apiKey}`,
      options.budget ?? DEFAULT_EVENTS_BUDGET,
      clock,
    );
    eventsFeed = new EventsFeed(sourceDeps, budget, {
      pageSize: options.pageSize ?? 100,
      deadlineMs: 30_000,
      ...(options.maxPagesPerPoll === undefined ? {} : { maxPagesPerPoll: options.maxPagesPerPoll }),
    });
    sources.unshift(eventsFeed);
  } else {
    log.info('no GAME_API_KEY: the events feed is not polled (map announcements stay silent)');
  }

  const stopping = new AbortController();
  const leadership = new Leadership(
    new Lease(store, 'worker', holder, leaseTtlMs),
    clock,
    log,
    stopping.signal,
  );
  const outbox = new Outbox((signal) => deliverer.deliverPending(signal), log);
  metrics?.setOutboxDepth(() => repos.inbox.depth());
  const ready = Promise.race([
    discord.ready,
    new Promise<void>((resolve) =>
      stopping.signal.addEventListener('abort', () => resolve(), { once: true }),
    ),
  ]);
  const stopped = () => stopping.signal.aborted;
  const termSignal = (term: AbortSignal) => AbortSignal.any([stopping.signal, term]);

  /** One poll of one source, timed; `deliver` says what its deliveries do (wait for them, or kick them). */
  const pollSource = async (source: Source, signal: AbortSignal, deliver: () => Promise<void>) => {
    const started = performance.now();
    const subscriptions = await active.get();
    if (!source.wanted(subscriptions)) return;
    await source.poll({ subscriptions, signal, deliver, spreadMs: intervalOf(source) / 2 });
    metrics?.pollCycle(source.name, (performance.now() - started) / 1000);
  };
  const intervalOf = (source: Source) => options.sourceIntervalsMs?.[source.name] ?? intervalMs;

  const pollOnce = async () => {
    await ready;
    if (!(await leadership.check())) return;
    const term = leadership.term;
    if (!term) return;
    const signal = termSignal(term);
    const failures: unknown[] = [];
    for (const source of sources) {
      if (signal.aborted) break;
      try {
        await pollSource(source, signal, () => outbox.drain(signal));
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  };

  // While polls of a source fail (the store or the game API is down), its next one waits longer each
  // time, up to eight intervals, and only the first failure of a run is a warning: no spinning, no log
  // flood. Nothing is lost meanwhile: cursors, the turf state and the inbox stay where the last good poll
  // left them.
  const sourceLoop = async (source: Source) => {
    let failures = 0;
    const every = intervalOf(source);
    while (!stopped()) {
      await leadership.whenActive();
      const term = leadership.term;
      if (stopped()) break;
      if (!term) {
        await clock.sleep(Math.max(10, Math.floor(leaseTtlMs / 3)), stopping.signal).catch(() => undefined);
        continue;
      }
      const signal = termSignal(term);
      const begun = clock.now();
      let waitMs = every;
      try {
        await pollSource(source, signal, () => {
          outbox.kick(signal);
          return Promise.resolve();
        });
        // Polls start every interval (a long one is followed by the next one sooner, never at once).
        waitMs = Math.max(every / 10, every - (clock.now() - begun));
        if (failures > 0) log.info({ source: source.name, failures }, 'polling works again');
        failures = 0;
      } catch (error) {
        if (!signal.aborted) {
          failures += 1;
          waitMs = Math.min(8 * every, every * 2 ** Math.min(failures - 1, 3));
          if (failures === 1)
            log.warn(
              { err: error, source: source.name, waitMs },
              'poll failed; backing off until it works again',
            );
          else log.debug({ err: error, source: source.name, failures, waitMs }, 'poll failed again');
        }
      }
      await clock.sleep(waitMs, stopping.signal).catch(() => undefined);
    }
  };

  const maintenance = async () => {
    while (!stopped()) {
      await clock.sleep(PURGE_EVERY_MS, stopping.signal).catch(() => undefined);
      if (stopped() || leadership.state !== 'active') continue;
      try {
        const removed = await purgeExpiredRecords(db, clock.now());
        if (removed > 0) log.debug({ removed }, 'purged expired announcement records');
      } catch (error) {
        log.warn({ err: error }, 'purging expired announcement records failed');
      }
    }
  };

  const running: Promise<unknown>[] = [];
  if (options.autoStart !== false) {
    running.push(
      ready.then(() => leadership.run()),
      ...sources.map((source) => ready.then(() => sourceLoop(source))),
      maintenance(),
    );
  }

  let receiver: WebhookReceiver | undefined;
  let webhookError: string | undefined;
  if (config.webhook) {
    const webhook = config.webhook;
    receiver = await startWebhookReceiver({
      port: webhook.port,
      host: options.webhookHost,
      path: webhook.path,
      secret: webhook.secret,
      service: webhook.service,
      toleranceSeconds: webhook.toleranceSeconds,
      clock,
      log: log.child({ part: 'webhook' }),
      ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
      ...(options.webhookMaxBodyBytes === undefined ? {} : { maxBodyBytes: options.webhookMaxBodyBytes }),
      ...(options.webhookMaxConnections === undefined
        ? {}
        : { maxConnections: options.webhookMaxConnections }),
      async onEvent(apiEvent) {
        let event = fromApiEvent(apiEvent, clock.now());
        const subscriptions = await active.get();
        if (!kinds.isWanted(event, subscriptions)) return;
        // A featured map's votes, plays and creator, as the poller adds them: within a bound, so that the
        // sender is answered in time; without them when they do not come.
        if (eventsFeed && (event.type === 'map.featured' || event.type === 'map.unfeatured')) {
          const bound = AbortSignal.any([stopping.signal, AbortSignal.timeout(WEBHOOK_DETAILS_MS)]);
          event = await eventsFeed.withMapDetails(event, bound).catch(() => event);
        }
        // Already pending or done (polled, or delivered twice by the sender): acknowledged, not repeated.
        if (!(await repos.inbox.accept(event))) return;
        // Any process may receive; only the worker delivers (a standby's event waits in the inbox for it).
        const term = leadership.term;
        if (term) outbox.kick(termSignal(term));
      },
    }).catch((error: unknown) => {
      // Only the receiver is lost (the sender retries; the poller still finds every event): said loudly.
      webhookError = (error as NodeJS.ErrnoException | undefined)?.code ?? 'failed';
      log.error(
        { port: webhook.port, code: webhookError, err: error },
        'webhook receiver could not start; announcements go on by polling only',
      );
      return undefined;
    });
    if (receiver) log.info({ url: receiver.url }, 'webhook receiver listening');
  }

  let shutdown: Promise<void> | undefined;
  return {
    webhook: receiver && { port: receiver.port, url: receiver.url },
    webhookError,
    get state() {
      return leadership.state;
    },
    pollOnce,
    stats: {
      get quarantined() {
        return deliverer.quarantined;
      },
    },
    flush: async () => {
      await ready;
      await leadership.check();
      const term = leadership.term;
      if (term) await outbox.drain(termSignal(term));
    },
    stop() {
      shutdown ??= (async () => {
        stopping.abort(new Error('announcements stopped'));
        await receiver?.close();
        await Promise.allSettled(running);
        await outbox.idle();
        await leadership.stop();
      })();
      return shutdown;
    },
  };
}
