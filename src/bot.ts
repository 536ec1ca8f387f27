import { createServer, type Server } from 'node:http';
import { Events, type Client } from 'discord.js';
import type { Logger } from 'pino';
import { TierClient } from './api/client.ts';
import { systemClock, type Clock } from './core/clock.ts';
import type { Config } from './config/index.ts';
import type { LoadedCommand } from './discord/command.ts';
import type { Services } from './services.ts';
import { createDiscordClient } from './discord/client.ts';
import { InteractionRouter } from './discord/interactions.ts';
import { loadCommands } from './discord/loader.ts';
import { startAnnouncements, type AnnouncementOptions, type Announcements } from './announcements/index.ts';
import { ANNOUNCEMENT_KINDS } from './announcements/kinds/index.ts';
import { kpdSource } from './kpd/feed.ts';
import { reportKpdKeys } from './kpd/keys.ts';
import { NameIndex } from './names/index.ts';
import { Translations } from './i18n/index.ts';
import { logFor } from './log/index.ts';
import { createStore, type Store } from './store/index.ts';

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
  /** Load only these command modules (file names in `commands/`); all by default. */
  readonly commands?: readonly string[];
  /** Tuning of the announcements (poller, webhook, delivery); `false` runs the bot without them. */
  readonly announcements?: AnnouncementOptions | false;
}

export interface Bot {
  readonly client: Client;
  readonly services: Services;
  readonly commands: readonly LoadedCommand[];
  /** Resolves when the gateway session is ready. */
  readonly ready: Promise<void>;
  /** The poller, webhook receiver and delivery, once started (after the gateway is ready). */
  readonly announcements: Promise<Announcements | undefined>;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config } = options;
  const log = options.logger ?? logFor('bot');
  const clock = options.clock ?? systemClock;
  const store = options.store ?? (await createStore(config.store.url));
  const translations = new Translations();
  const names = new NameIndex(store.namespace<string>('names'));
  await names.load();
  const api = new TierClient({
    urls: { base: config.game.baseUrl, legacy: config.game.legacyUrl, matchmaker: config.game.matchmakerUrl },
    apiKey: config.game.apiKey,
    apiKeyHeader: config.game.apiKeyHeader,
    cache: store.namespace('cache'),
    clock,
    logger: log.child({ subsystem: 'api' }),
  });
  const services: Services = { api, store, translations, names, config, clock, log };
  const commands = await loadCommands(translations, options.commands ? { only: options.commands } : {});
  const router = new InteractionRouter(commands, services);

  const client = createDiscordClient({ apiUrl: config.discord.apiUrl });
  client.on(Events.InteractionCreate, router.handle);
  client.on(Events.Error, (error) => log.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => log.warn({ message }, 'discord client warning'));
  const ready = new Promise<void>((resolve) =>
    client.once(Events.ClientReady, (ready) => {
      log.info({ user: ready.user.tag, guilds: ready.guilds.cache.size }, 'ready');
      resolve();
    }),
  );

  const health =
    config.http.port === undefined ? undefined : await startHealthServer(config.http.port, client, store);
  void preloadStaticNames(services);
  // Keys sealed under an older SECRET_KEY are named in the log, so operators know who must relink.
  void reportKpdKeys(services).catch((error: unknown) =>
    log.warn({ err: error }, 'could not audit linked KPD keys'),
  );
  await client.login(options.token);
  const announcements =
    options.announcements === false
      ? Promise.resolve(undefined)
      : startAnnouncements({
          client,
          services,
          config,
          kinds: ANNOUNCEMENT_KINDS,
          sources: [kpdSource(services)],
          ...(options.announcements ? { options: options.announcements } : {}),
        }).catch((error: unknown) => {
          log.error({ err: error }, 'announcements could not start');
          return undefined;
        });

  let stopped = false;
  return {
    client,
    services,
    commands,
    ready,
    announcements,
    async stop() {
      if (stopped) return;
      stopped = true;
      log.info('shutting down');
      client.off(Events.InteractionCreate, router.handle);
      await (await announcements)?.stop();
      await router.drain(5_000);
      await client.destroy();
      await api.close();
      if (health) await new Promise((resolve) => health.close(resolve));
      if (!options.store) await store.close();
      log.info('stopped');
    },
  };
}

/**
 * `GET /healthz` answers 200 while the gateway is connected and the store answers, 503 with the reason
 * otherwise (the Dockerfile's HEALTHCHECK uses it).
 */
async function startHealthServer(port: number, client: Client, store: Store): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/healthz') {
      response.writeHead(404).end();
      return;
    }
    const { healthy, reason } = store.health;
    const status = !client.isReady() ? 'starting' : healthy ? 'ok' : 'store-down';
    response.writeHead(status === 'ok' ? 200 : 503, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        status,
        ping: client.ws.ping,
        store: healthy ? { status: 'ok' } : { status: 'down', reason },
      }),
    );
  });
  server.maxConnections = 64; // like the webhook receiver's cap: a flood cannot use up our descriptors
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return server;
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
