import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { stackEnvironment } from '../../src/dev/demo/stack.ts';
import { startSandbox, type CommunityMap, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import { spawnBot, type BotHandle } from './bot-handle.ts';
import type { AnnouncementTuning } from './ipc.ts';
import { mapsToFeature } from './load.ts';
import { BOT_FD_LIMIT, TIMELINE, type Scenario, type Shared } from './model.ts';
import { freePort } from './net.ts';
import { startRedis, type PrivateRedis } from './redis.ts';
import { startTcpGate, type TcpGate } from './tcp-gate.ts';
import { startUpstreamProxy, type UpstreamProxy } from './upstream-proxy.ts';
import type { WebhookTarget } from './webhook-sender.ts';

/**
 * A fresh stack for one scenario, all on 127.0.0.1: the sandbox behind a rewriting proxy, the Discord
 * stand-in with one guild, the store (a SQLite file, or a private Redis behind a gate), and the bot in a
 * process of its own, started and ready.
 */
export interface ChaosStack {
  readonly sandbox: Sandbox;
  readonly upstream: UpstreamProxy;
  readonly discord: DiscordStandin;
  readonly bot: BotHandle;
  readonly redis: PrivateRedis | undefined;
  readonly gate: TcpGate | undefined;
  readonly webhook: WebhookTarget;
  /** Subscribed to featured maps by the run. */
  readonly channels: readonly string[];
  readonly turfChannel: string;
  readonly maps: readonly CommunityMap[];
  /** Names the announcements show for maps the scenario renamed. */
  readonly shownNames: ReadonlyMap<number, string>;
  readonly logPath: string;
  readonly storeUrl: string;
  /** The bot's SQL database (domain records; where the inbox is). */
  readonly databaseUrl: string;
  /** Stops the bot, killing it when it does not stop in time; true when it had to be killed. */
  stopBot(): Promise<boolean>;
  /** Stops the rest (and the bot, if still running). */
  close(): Promise<void>;
}

/**
 * Featured maps reach the bot as signed webhook deliveries (the events feed is limited to 6 requests a
 * minute, too slow for a short run); the poller runs at the production minimum as the backstop.
 */
const ANNOUNCEMENTS: AnnouncementTuning = {
  pollIntervalMs: 20_000,
  budget: { limit: 10_000, windowMs: 60_000 },
  webhookHost: '127.0.0.1',
};
/** The sandbox's own windows out of the way: the bot's client paces itself at the real limits. */
const GENEROUS = { limit: 1_000_000, windowMs: 60_000 };
const WEBHOOK_SECRET = 'chaos-webhook-secret';
const WEBHOOK_SERVICE = 'Krunker';
const WEBHOOK_PATH = '/webhook';
const BOT_START_MS = 20_000;
const BOT_STOP_MS = 6_000;

export async function startChaosStack(
  scenario: Scenario,
  shared: Shared,
  index: number,
): Promise<ChaosStack> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const dir = join(shared.dir, String(index));
  await mkdir(dir, { recursive: true });
  // The store's files go last; the bot's log stays for reading.
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const logPath = join(shared.dir, `${index}-bot.log`);
  const log = createWriteStream(logPath);
  cleanups.push(() => new Promise((resolve) => log.end(resolve)));
  let bot: BotHandle | undefined;
  const stopBot = async () => (await bot?.stop(BOT_STOP_MS)) ?? false;
  const close = async () => {
    await stopBot();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    const sandbox = await startSandbox({ rateLimit: GENEROUS, eventsRateLimit: GENEROUS });
    cleanups.push(() => sandbox.close());
    const upstream = await startUpstreamProxy(sandbox.urls.base);
    cleanups.push(() => upstream.close());
    const discord = await startDiscordStandin();
    cleanups.push(() => discord.close());
    const guild = discord.addGuild({ name: 'Chaos', preferredLocale: 'en-US' });
    discord.addChannel(guild.id, { name: 'general' });
    const channels = Array.from(
      { length: TIMELINE.announcementChannels },
      (_, i) => discord.addChannel(guild.id, { name: `maps-${i}` }).id,
    );
    const turfChannel = discord.addChannel(guild.id, { name: 'turf' }).id;

    let redis: PrivateRedis | undefined;
    let gate: TcpGate | undefined;
    let storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
    const databaseUrl = `sqlite://${join(dir, 'killfeed.sqlite')}`;
    if (scenario.store === 'redis') {
      if (shared.redisServer === undefined) throw new Error('redis-server is not on PATH');
      const server = await startRedis(shared.redisServer);
      redis = server;
      cleanups.push(() => server.stop());
      const opened = await startTcpGate(server.port);
      gate = opened;
      cleanups.push(() => opened.close());
      storeUrl = `redis://127.0.0.1:${opened.port}`;
    }

    const maps = mapsToFeature(sandbox);
    const shownNames = new Map<number, string>();
    scenario.prepare?.({ sandbox, upstream, maps, showMapAs: (id, name) => shownNames.set(id, name) });

    const env = stackEnvironment(sandbox, discord, {
      GAME_API_URL: upstream.url,
      STORE_URL: storeUrl,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      WEBHOOK_PORT: String(await freePort()),
      WEBHOOK_SECRET,
      WEBHOOK_SERVICE,
      WEBHOOK_PATH,
    });
    const handle = spawnBot(log, BOT_FD_LIMIT);
    bot = handle;
    handle.send({
      type: 'start',
      env,
      announcements: {
        ...ANNOUNCEMENTS,
        pollIntervalMs: scenario.pollIntervalMs ?? ANNOUNCEMENTS.pollIntervalMs,
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const port = await Promise.race([
      handle.ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the bot was not ready in ${BOT_START_MS / 1000} s`)),
          BOT_START_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    if (port === undefined) throw new Error('the bot started no webhook receiver');
    return {
      sandbox,
      upstream,
      discord,
      bot: handle,
      redis,
      gate,
      webhook: { port, path: WEBHOOK_PATH, secret: WEBHOOK_SECRET, service: WEBHOOK_SERVICE },
      channels,
      turfChannel,
      maps,
      shownNames,
      logPath,
      storeUrl,
      databaseUrl,
      stopBot,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
