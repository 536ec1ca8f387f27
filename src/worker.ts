import { REST } from 'discord.js';
import type { Logger } from 'pino';
import { systemClock, type Clock } from './core/clock.ts';
import type { Config } from './config/index.ts';
import type { Database } from './db/index.ts';
import type { Services } from './services.ts';
import { startAnnouncements, type AnnouncementOptions, type LeaderState } from './announcements/index.ts';
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
import { discordRestAgent } from './discord/rest-agent.ts';

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
  const rest = new REST({ api: config.discord.apiUrl, agent: discordRestAgent() }).setToken(options.token);
  void reportKpdKeys(services).catch((error: unknown) =>
    log.warn({ err: error }, 'could not audit linked KPD keys'),
  );
  const announcements = await startAnnouncements({
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
