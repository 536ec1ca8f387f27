import { randomUUID } from 'node:crypto';
import { Events, type Client } from 'discord.js';
import type { Config } from '../config/index.ts';
import type { Services } from '../services.ts';
import { RequestBudget, type BudgetRule } from './budget.ts';
import { DEFAULT_DELIVERY_OPTIONS, Deliverer, type DeliveryOptions, type StepHook } from './delivery.ts';
import { KindRegistry } from './kinds/registry.ts';
import type { AnnouncementKind } from './kinds/kind.ts';
import { Lease } from './lease.ts';
import { openRepositories, type Repositories } from './repositories.ts';
import { EventsFeed, TurfFeed, fromApiEvent, type Source, type SourceFactory } from './sources.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook.ts';

export type { AnnouncementKind, DeliveryPlan } from './kinds/kind.ts';
export type { SourceFactory } from './sources.ts';
export type { Subscription, AnnouncementEvent } from './model.ts';
export { openRepositories, type Repositories } from './repositories.ts';
export type { Step, StepHook } from './delivery.ts';

/**
 * Announcements: the pollers (game events feed, turf status), the signed webhook receiver and delivery
 * to subscribed channels. `startBot` starts it once the client exists; `stop()` ends it cleanly.
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
  /** Runs one poll of every source now (tests; the loop does this every EVENTS_POLL_SECONDS). */
  pollOnce(): Promise<void>;
  /** Delivers whatever is pending now (webhook events are delivered this way as they arrive). */
  flush(): Promise<void>;
  /** Counters since start (metrics come later): `quarantined`, events set aside after failing every pass. */
  readonly stats: { readonly quarantined: number };
  stop(): Promise<void>;
}

/** Tuning, mainly for tests and benchmarks; every field has a production default. */
export interface AnnouncementOptions {
  /** Default `config.events.pollSeconds`. */
  readonly pollIntervalMs?: number;
  /** Default three poll intervals, at least a minute. */
  readonly leaseTtlMs?: number;
  /** The events endpoint's own limit; default 6 per 60 000 ms. */
  readonly budget?: BudgetRule;
  /** Default 100. */
  readonly pageSize?: number;
  readonly delivery?: Partial<DeliveryOptions>;
  /** This process's name in leases and claims; default a random UUID. */
  readonly holderId?: string;
  /** Run the poll loop (default true); tests call `pollOnce()` themselves. */
  readonly autoStart?: boolean;
  readonly webhookHost?: string;
  readonly webhookTimeoutMs?: number;
  readonly webhookMaxBodyBytes?: number;
  /** Connections the receiver holds at once; default 256. */
  readonly webhookMaxConnections?: number;
  /** Called at each step of storing and delivering (tests stop there, as a crash would). */
  readonly hook?: StepHook;
}

export interface AnnouncementDeps {
  readonly client: Client;
  readonly services: Services;
  readonly config: Pick<Config, 'events' | 'webhook' | 'game'>;
  /** The kinds subscriptions can have (`ANNOUNCEMENT_KINDS`, from `kinds/index.ts`). */
  readonly kinds: readonly AnnouncementKind[];
  /** Sources besides the game's events feed and turf, which are built in (the KPD feed: `kpdSource`). */
  readonly sources?: readonly SourceFactory[];
  readonly options?: AnnouncementOptions;
}

export const DEFAULT_EVENTS_BUDGET: BudgetRule = { limit: 6, windowMs: 60_000 };

export async function startAnnouncements(deps: AnnouncementDeps): Promise<Announcements> {
  const { client, services, config } = deps;
  const options = deps.options ?? {};
  const { api, store, clock, translations } = services;
  const log = services.log.child({ subsystem: 'announcements' });
  const repos: Repositories = openRepositories(store);
  const holder = options.holderId ?? randomUUID();
  const intervalMs = options.pollIntervalMs ?? config.events.pollSeconds * 1000;
  const leaseTtlMs = options.leaseTtlMs ?? Math.max(3 * intervalMs, 60_000);
  const hook = options.hook;
  const kinds = new KindRegistry(deps.kinds);

  const deliverer = new Deliverer({
    client,
    repos,
    translations,
    clock,
    log,
    holder,
    options: { ...DEFAULT_DELIVERY_OPTIONS, ...options.delivery },
    hook,
    kinds,
  });
  const sourceDeps = { api, repos, clock, log, hook, kinds };
  const sources: Source[] = [
    new TurfFeed(sourceDeps),
    ...(deps.sources ?? []).map((make) => make(sourceDeps)),
  ];
  if (config.game.apiKey !== undefined) {
    const budget = new RequestBudget(
      store,
      `events:${config.game.apiKey}`,
      options.budget ?? DEFAULT_EVENTS_BUDGET,
      clock,
    );
    sources.unshift(
      new EventsFeed(sourceDeps, budget, { pageSize: options.pageSize ?? 100, deadlineMs: 30_000 }),
    );
  } else {
    log.info('no GAME_API_KEY: the events feed is not polled (map announcements stay silent)');
  }
  const leases = new Map(
    sources.map((source) => [source.name, new Lease(store, source.name, holder, leaseTtlMs)]),
  );

  const stopping = new AbortController();
  const ready = client.isReady()
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        client.once(Events.ClientReady, () => resolve());
        stopping.signal.addEventListener('abort', () => resolve(), { once: true });
      });
  const background = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked = work.catch((error: unknown) => log.warn({ err: error }, 'announcement delivery failed'));
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
  };

  const pollSource = async (
    source: Source,
    subscriptions: Awaited<ReturnType<typeof repos.subscriptions.active>>,
  ) => {
    const lease = leases.get(source.name);
    if (!lease || !(await lease.acquire())) return;
    const cycle = new AbortController();
    const signal = AbortSignal.any([stopping.signal, cycle.signal]);
    // A long fan-out or a budget wait keeps the lease alive; losing it stops this poll at its next step.
    const keepAlive = setInterval(
      () => {
        lease.renew().then(
          (held) => {
            if (!held) cycle.abort(new Error(`lost the ${source.name} lease`));
          },
          (error: unknown) => log.warn({ err: error, source: source.name }, 'could not renew the lease'),
        );
      },
      Math.max(10, Math.floor(lease.ttlMs / 3)),
    );
    try {
      await source.poll({ subscriptions, signal, deliver: () => deliverer.deliverPending(signal) });
    } finally {
      clearInterval(keepAlive);
    }
  };

  const pollOnce = async () => {
    await ready;
    const subscriptions = await repos.subscriptions.active();
    const failures: unknown[] = [];
    for (const source of sources) {
      if (stopping.signal.aborted) break;
      if (!source.wanted(subscriptions)) continue;
      try {
        await pollSource(source, subscriptions);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  };

  const stopped = () => stopping.signal.aborted;
  // While polls fail (the store or the game API is down), the next one waits longer each time, up to eight
  // intervals, and only the first failure of a run is a warning: no spinning, no log flood. Nothing is
  // lost meanwhile: the cursor, the turf state and the inbox stay where the last good poll left them.
  const maxWaitMs = 8 * intervalMs;
  const loop = async () => {
    let failures = 0;
    while (!stopped()) {
      let waitMs = intervalMs;
      try {
        await pollOnce();
        if (failures > 0) log.info({ failures }, 'polling works again');
        failures = 0;
      } catch (error) {
        if (!stopped()) {
          failures += 1;
          waitMs = Math.min(maxWaitMs, intervalMs * 2 ** Math.min(failures - 1, 3));
          if (failures === 1)
            log.warn({ err: error, waitMs }, 'poll failed; backing off until it works again');
          else log.debug({ err: error, failures, waitMs }, 'poll failed again');
        }
      }
      await clock.sleep(waitMs, stopping.signal).catch(() => undefined);
    }
  };
  const running = options.autoStart === false ? Promise.resolve() : loop();

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
        const event = fromApiEvent(apiEvent, clock.now());
        const subscriptions = await repos.subscriptions.active();
        if (!kinds.isWanted(event, subscriptions)) return;
        // Already pending or done (polled, or delivered twice by the sender): acknowledged, not repeated.
        if (!(await repos.inbox.accept(event))) return;
        if (client.isReady()) track(deliverer.deliverPending(stopping.signal));
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
    pollOnce,
    stats: {
      get quarantined() {
        return deliverer.quarantined;
      },
    },
    flush: async () => {
      await ready;
      await deliverer.deliverPending(stopping.signal);
    },
    stop() {
      shutdown ??= (async () => {
        stopping.abort(new Error('announcements stopped'));
        await receiver?.close();
        await running;
        await Promise.allSettled([...background]);
        for (const lease of leases.values()) await lease.release().catch(() => undefined);
      })();
      return shutdown;
    },
  };
}
