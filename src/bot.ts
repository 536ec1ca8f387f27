import { Events, ShardClientUtil, type Client } from 'discord.js';
import type { Logger } from 'pino';
import { systemClock, type Clock } from './core/clock.ts';
import type { Config } from './config/index.ts';
import type { LoadedCommand } from './discord/command.ts';
import type { Services } from './services.ts';
import { createDiscordClient, type DiscordClientOptions } from './discord/client.ts';
import { DiscordGlobalLimit } from './traffic/discord-global.ts';
import { InteractionRouter } from './discord/interactions.ts';
import { loadCommands } from './discord/loader.ts';
import { NAME_COMPLETERS } from './search/completers.ts';
import { startNameCatalog } from './search/catalog.ts';
import { discordTarget, type AnnouncementOptions, type Announcements } from './announcements/index.ts';
import { startPipeline } from './worker.ts';
import type { Database } from './db/index.ts';
import { GuildDepartures } from './guilds/departures.ts';
import { openStorage } from './storage.ts';
import { ANNOUNCEMENT_KINDS } from './kinds.ts';
import { kpdSource } from './features/kpd/feed.ts';
import { playersSource } from './features/tracking/feed.ts';
import { clanLogSource } from './features/clans/log/source.ts';
import { turfDigestSource } from './features/turf/digest/source.ts';
import { remindersSource } from './features/turf/reminders/source.ts';
import { rolesFollowRefresh } from './features/roles/follow-account.ts';
import { reportKpdKeys } from './features/kpd/keys.ts';
import { logFor } from './log/index.ts';
import type { SharedLimits } from './traffic/index.ts';
import { composeServices } from './compose.ts';
import { createMetrics, startOpsServer, type HealthReport, type Metrics } from './metrics/index.ts';
import type { Store } from './store/index.ts';

/**
 * The composition root: builds every service once from the configuration, connects to Discord and
 * returns a handle whose `stop()` shuts everything down in order. `main.ts` calls it with the
 * environment's configuration; tests and the demo call it with theirs.
 */
export interface BotOptions {
  readonly config: Config;
  readonly token: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** An already-open store (tests share one); otherwise opened from `config.store.url` and closed on stop. */
  readonly store?: Store;
  /** An already-open database (tests share one); otherwise opened from `config.database.url`, closed on stop. */
  readonly database?: Database;
  /** Load only these command modules (file names in `commands/`); all by default. */
  readonly commands?: readonly string[];
  /** Tuning of the announcements (poller, webhook, delivery); `false` runs the bot without them. */
  readonly announcements?: AnnouncementOptions | false;
  /** This process's metrics (a shard process passes its own); a fresh registry otherwise. */
  readonly metrics?: Metrics;
  /** Game API limits shared with another role of this process; otherwise built here and closed on stop. */
  readonly limits?: SharedLimits;
}

export interface Bot {
  readonly client: Client;
  readonly services: Services;
  readonly commands: readonly LoadedCommand[];
  /** Resolves when the gateway session is ready. */
  readonly ready: Promise<void>;
  /** The poller, webhook receiver and delivery, once started (after the gateway is ready). */
  readonly announcements: Promise<Announcements | undefined>;
  /** What `GET /metrics` serves for this process. */
  readonly metrics: Metrics;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config } = options;
  const log = options.logger ?? logFor('bot');
  const clock = options.clock ?? systemClock;
  const metrics = options.metrics ?? createMetrics({ process: 'bot', clock });
  const storage = await openStorage(config, {
    ...(options.store ? { store: options.store } : {}),
    ...(options.database ? { database: options.database } : {}),
    log,
    now: clock.now(),
  });
  const { store, db } = storage;
  const composed = await composeServices({ config, clock, log, metrics, store, db, limits: options.limits });
  const { services } = composed;
  const { translations, names } = services;
  await names.load();
  const commands = await loadCommands(translations, options.commands ? { only: options.commands } : {});
  const router = new InteractionRouter(commands, services, { metrics, completers: NAME_COMPLETERS });

  // Commands and the fan-out share Discord's global limit through one limiter (docs/adr/013).
  const discordLimit = new DiscordGlobalLimit(services.api.limits, options.token, clock);
  const { client, ready, departuresSettled } = connectClient(router, services, {
    apiUrl: config.discord.apiUrl,
    limit: discordLimit,
  });
  const health =
    config.http.port === undefined
      ? undefined
      : await startOpsServer({
          port: config.http.port,
          host: config.http.host,
          health: () => healthOf(client, store),
          metrics: () => metrics.text(),
          log,
        });
  void preloadStaticNames(services);
  // Keys sealed under an older SECRET_KEY are named in the log, so operators know who must relink.
  void reportKpdKeys(services).catch((error: unknown) =>
    log.warn({ err: error }, 'could not audit linked KPD keys'),
  );
  await client.login(options.token);
  // The names the game publishes (maps, mods, clans), for "did you mean" and autocomplete; stopped on stop.
  const catalog = startNameCatalog({ ...services, limits: composed.limits });
  const announcements =
    options.announcements === false
      ? Promise.resolve(undefined)
      : startShardPipeline(client, services, config, { metrics, ...options.announcements });

  let stopped = false;
  return {
    client,
    services,
    commands,
    ready,
    announcements,
    metrics,
    async stop() {
      if (stopped) return;
      stopped = true;
      log.info('shutting down');
      client.off(Events.InteractionCreate, router.handle);
      catalog.stop();
      await (await announcements)?.stop();
      await router.drain(5_000);
      await client.destroy();
      await departuresSettled();
      await composed.close();
      await health?.close();
      await storage.close();
      log.info('stopped');
    },
  };
}

/**
 * The gateway client, routing interactions to the commands, noting who uses the bot in which server
 * (who its leaderboard ranks: the bot has no member list) and when it joins or leaves a server.
 */
function connectClient(router: InteractionRouter, services: Services, discord: DiscordClientOptions) {
  const { db, clock, log } = services;
  const client = createDiscordClient(discord);
  client.on(Events.InteractionCreate, router.handle);
  const members = services.records.players.members;
  client.on(Events.InteractionCreate, (interaction) => {
    if (!interaction.inGuild() || !interaction.isChatInputCommand()) return;
    members
      .seen(interaction.guildId, interaction.user.id, clock.now())
      .catch((error: unknown) => log.warn({ err: error }, 'could not note a member'));
  });
  client.on(Events.Error, (error) => log.error({ err: error }, 'discord client error'));
  const departuresSettled = followDepartures(client, db, clock, log);
  client.on(Events.Warn, (message) => log.warn({ message }, 'discord client warning'));
  const ready = new Promise<void>((resolve) =>
    client.once(Events.ClientReady, (ready) => {
      log.info({ user: ready.user.tag, guilds: ready.guilds.cache.size }, 'ready');
      resolve();
    }),
  );
  return { client, ready, departuresSettled };
}

/**
 * The announcement pipeline in the shard's process (role `all` with one shard, tests and the demo): the
 * worker's parts (`startPipeline`), posting through this client, without the price alerts.
 */
function startShardPipeline(
  client: Client,
  services: Services,
  config: Config,
  options: AnnouncementOptions,
): Promise<Announcements | undefined> {
  return startPipeline({
    discord: discordTarget(client),
    services,
    config,
    kinds: ANNOUNCEMENT_KINDS,
    sources: [
      kpdSource(services),
      playersSource(config, services.demand, rolesFollowRefresh(services, client.rest)),
      clanLogSource(config, services.demand),
      turfDigestSource(),
      remindersSource(),
    ],
    options,
  }).catch((error: unknown) => {
    services.log.error({ err: error }, 'announcements could not start');
    return undefined;
  });
}

/**
 * `GET /healthz`: ready while the gateway is connected and the store answers; the body says why not
 * otherwise (the Dockerfile's HEALTHCHECK uses it).
 */
function healthOf(client: Client, store: Store): HealthReport {
  const { healthy, reason } = store.health;
  const status = !client.isReady() ? 'starting' : healthy ? 'ok' : 'store-down';
  return {
    ready: status === 'ok',
    body: { status, ping: client.ws.ping, store: healthy ? { status: 'ok' } : { status: 'down', reason } },
  };
}

/** Fills autocomplete with the game's static lists (skins, official and featured maps, top mods). */
async function preloadStaticNames(services: Services): Promise<void> {
  const { api, names, log } = services;
  const background = { priority: 'background' } as const;
  try {
    const maps = await api.api.officialMaps(undefined, background);
    names.seed(
      'map',
      maps.map((map) => map.name),
    );
    if (services.config.game.apiKey === undefined) return;
    const featured = await api.api.featuredMaps(undefined, background);
    names.seed(
      'map',
      featured.maps.map((map) => map.name),
    );
    const mods = await api.api.mods({ page: 1 }, background);
    names.seed(
      'mod',
      mods.mods.map((mod) => mod.name),
    );
    for (let page = 1; page <= 50; page += 1) {
      const skins = await api.api.skins({ page, perPage: 100 }, background);
      const list = skins.skins;
      names.seedSkins(list.map((skin) => ({ index: skin.skin_index, name: skin.name })));
      if (list.length < (skins.per_page ?? 100)) break;
    }
  } catch (error) {
    log.warn({ err: error }, 'could not preload names for autocomplete');
  }
}

/**
 * Writes down when the bot leaves a server, and strikes it off when the bot is (back) in it: on every
 * join and leave, and at READY, where the servers of this shard that any table holds data of but that are
 * not in the session (the bot was removed while it was offline) count as left now. An outage (`unavailable`) is
 * not a departure. The worker removes the data of servers gone longer than the grace period.
 */
function followDepartures(client: Client, db: Database, clock: Clock, log: Logger): () => Promise<void> {
  const departures = new GuildDepartures(db);
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked = work.catch((error: unknown) =>
      log.warn({ err: error }, 'could not record a server joining or leaving'),
    );
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
  };
  client.on(Events.GuildDelete, (guild) => {
    if (guild.available) track(departures.left(guild.id, clock.now()));
  });
  client.on(Events.GuildCreate, (guild) => track(departures.returned(guild.id)));
  client.once(Events.ClientReady, (ready) => {
    track(
      (async () => {
        const present = ready.guilds.cache;
        await departures.returnedAll([...present.keys()]);
        const shards = ready.options.shards;
        const count = ready.options.shardCount ?? 1;
        const mine = (guildId: string) =>
          !Array.isArray(shards) || shards.includes(ShardClientUtil.shardIdForGuildId(guildId, count));
        for (const guildId of await departures.knownGuildIds()) {
          if (mine(guildId) && !present.has(guildId)) await departures.left(guildId, clock.now());
        }
      })(),
    );
  });
  // Waits for the writes under way (`stop()` closes the database after them).
  return async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
}
