import { stackEnvironment } from '../src/dev/demo/stack.ts';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  Events,
  InteractionContextType,
  PermissionFlagsBits,
  type Client,
} from 'discord.js';
import { pino } from 'pino';
import { command as subscribe } from '../commands/subscribe.ts';
import { command as subscriptions } from '../commands/subscriptions.ts';
import { TierClient } from '../src/api/client.ts';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig, type Config } from '../src/config/index.ts';
import { createDiscordClient } from '../src/discord/client.ts';
import type { Services } from '../src/services.ts';
import { InteractionRouter } from '../src/discord/interactions.ts';
import { NAME_COMPLETERS } from '../src/search/completers.ts';
import { localizeCommand } from '../src/discord/localize.ts';
import { NameIndex } from '../src/names/index.ts';
import { discordTarget } from '../src/announcements/index.ts';
import { startPipeline } from '../src/worker.ts';
import { openRecords } from '../src/records.ts';
import { openDatabase, type Database } from '../src/db/index.ts';
import { ANNOUNCEMENT_KINDS } from '../src/kinds.ts';
import { openRepositories, type Repositories } from '../src/announcements/repositories.ts';
import { Translations } from '../src/i18n/index.ts';
import { startSandbox, type Sandbox } from '../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../src/dev/standin/index.ts';
import { createStore, type Store } from '../src/store/index.ts';
import { demandReader } from '../src/demand.ts';
import { DiscordGlobalLimit } from '../src/traffic/discord-global.ts';
import { against, loopDelayFigure, MEASURED_LOOP_DELAY, watchLoop, type SectionFigures } from './figures.ts';

const CHANNELS = Number(process.env['BENCH_FANOUT_CHANNELS'] ?? 10_000);
/** Discord's limit of subscriptions a server: the channels are spread over as many servers as that takes. */
const PER_GUILD = 25;
const GLOBAL_LIMIT = 50;
/** A command every this often while the fan-out runs, alternating `/subscribe` and `/subscriptions`. */
const COMMAND_EVERY_MS = 2_000;

/**
 * One featured map fanned out to 10,000 subscribed channels through the Discord stand-in, which enforces
 * Discord's global limit of 50 requests a second (a fixed window, 429 beyond it), with commands answered
 * alongside: every 2 s a `/subscribe` (defers, reads the bot's member through REST, which counts against
 * the global limit, and edits its reply) or a `/subscriptions` (answers at once; interaction callbacks do
 * not count). Commands and the fan-out share the bot's one global limiter (docs/adr/012). Figures: the
 * fan-out's time against the 200 s that 50/s allows (goal ≤ 1.03), the same against every request the
 * limit counted (the commands' included), the 429s, and the commands' latency during the fan-out.
 */
export async function benchFanout(): Promise<SectionFigures> {
  const world = await openWorld();
  try {
    const channels = await subscribeChannels(world);
    const { announcements, sandbox, discord } = world;
    // Reads the history once (nothing in it is announced), so that the measured poll is the fan-out.
    await announcements.pollOnce();
    const map = sandbox.world.maps.find((m) => m.hidden === null && !m.featured);
    if (!map) throw new Error('the sandbox has no map to feature');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    sandbox.events.publish('map.featured', map.id);
    const requestsBefore = discord.requests().length;
    const loop = watchLoop();
    const started = performance.now();
    let running = true;
    let ended = started;
    const fanout = announcements.pollOnce().finally(() => {
      ended = performance.now();
      running = false;
    });
    const firstRequest = discord
      .until(() => discord.requests().length > requestsBefore, 'the first request of the fan-out', 600_000)
      .then(() => (performance.now() - started) / 1000);
    const commands = await commandsAlongside(world, () => running);
    await fanout;
    const seconds = (ended - started) / 1000;
    const delayMs = await loop.stop();
    // One pass over the stand-in's messages (one look-up of them a channel was 10,000 passes over all).
    const announced = new Set(
      discord
        .messages()
        .filter((message) => message.kind === 'channel')
        .map((message) => message.channelId),
    );
    const posted = channels.filter((channelId) => announced.has(channelId)).length;
    const requests = discord.requests().slice(requestsBefore);
    const counted = requests.filter((r) => !/^\/(interactions|webhooks)\//.test(r.path)).length;
    const posts = requests.filter((r) => r.method === 'POST' && /^\/channels\/\d+\/messages$/.test(r.path));
    const postSpan = ((posts.at(-1)?.at ?? 0) - (posts[0]?.at ?? 0)) / 1000;
    return {
      channels: CHANNELS,
      'channels announced': posted,
      'fan-out time (s)': Number(seconds.toFixed(2)),
      'time the 50/s limit allows for the posts (s)': CHANNELS / GLOBAL_LIMIT,
      'fan-out time ÷ what 50/s allows': against(seconds / (CHANNELS / GLOBAL_LIMIT), { max: 1.03 }),
      'first request to Discord after (s)': Number((await firstRequest).toFixed(2)),
      'from the first post to the last (s)': Number(postSpan.toFixed(2)),
      'posts a second between the first and the last': Number(((posts.length - 1) / postSpan).toFixed(2)),
      'requests the global limit counted during the fan-out (posts and commands)': counted,
      'fan-out time ÷ what 50/s allows for all of them': Number(
        (seconds / (counted / GLOBAL_LIMIT)).toFixed(3),
      ),
      '429 answers during the fan-out': against(
        requests.filter((r) => r.status === 429).length,
        { max: 0 },
        0,
      ),
      ...commands,
      [MEASURED_LOOP_DELAY]: loopDelayFigure(delayMs),
    };
  } finally {
    await world.close();
  }
}

interface World {
  readonly sandbox: Sandbox;
  readonly discord: DiscordStandin;
  readonly store: Store;
  readonly db: Database;
  readonly repos: Repositories;
  readonly client: Client;
  readonly announcements: Awaited<ReturnType<typeof startPipeline>>;
  /** The guild the commands run in (apart from the fan-out's), and channels to subscribe there. */
  readonly commandGuild: { readonly id: string; readonly channels: readonly string[] };
  close(): Promise<void>;
}

function servicesOf(config: Config, store: Store, db: Database, api: TierClient): Services {
  return {
    api,
    store,
    db,
    records: openRecords(db, store, config),
    translations: new Translations(),
    names: new NameIndex(),
    config,
    clock: systemClock,
    log: pino({ level: 'silent' }),
    demand: demandReader(db),
  };
}

function routerOf(services: Services): InteractionRouter {
  const commands = [subscribe, subscriptions].map((command) => ({
    ...command,
    json: localizeCommand(
      {
        integration_types: [ApplicationIntegrationType.GuildInstall],
        contexts: [InteractionContextType.Guild],
        ...command.data,
      },
      command.data.name,
      services.translations,
    ),
  }));
  return new InteractionRouter(commands, services, { completers: NAME_COMPLETERS });
}

async function openWorld(): Promise<World> {
  const sandbox = await startSandbox();
  const discord = await startDiscordStandin({ globalRateLimit: { perSecond: GLOBAL_LIMIT } });
  const store = await createStore('memory://', { purgeIntervalMs: 0 });
  const db = await openDatabase('sqlite://:memory:');
  const config = loadConfig(stackEnvironment(sandbox, discord, { LOG_LEVEL: 'silent' }));
  const api = new TierClient({
    urls: { base: config.game.baseUrl, legacy: config.game.legacyUrl, matchmaker: config.game.matchmakerUrl },
    apiKey: config.game.apiKey,
    cache: store.namespace('cache'),
  });
  const services = servicesOf(config, store, db, api);
  const router = routerOf(services);
  // Commands and the fan-out on one global limiter, as the bot runs (src/bot.ts).
  const limit = new DiscordGlobalLimit(api.limits, discord.token, systemClock);
  const client = createDiscordClient({ apiUrl: discord.restUrl, limit });
  client.on(Events.InteractionCreate, router.handle);
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(discord.token);
  await ready;
  const announcements = await startPipeline({
    discord: discordTarget(client),
    services,
    config,
    kinds: ANNOUNCEMENT_KINDS,
    options: { autoStart: false },
  });
  const guild = discord.addGuild({ name: 'Commands' });
  const channels = Array.from(
    { length: PER_GUILD },
    (_, i) => discord.addChannel(guild.id, { name: `c-${i}` }).id,
  );
  return {
    sandbox,
    discord,
    store,
    db,
    repos: openRepositories(db, store),
    client,
    announcements,
    commandGuild: { id: guild.id, channels },
    async close() {
      await announcements.stop();
      client.off(Events.InteractionCreate, router.handle);
      await router.drain(2_000);
      await client.destroy();
      await api.close();
      await store.close();
      await db.close();
      await discord.close();
      await sandbox.close();
    },
  };
}

/** The fan-out's channels, `PER_GUILD` a server, each subscribed to featured maps. */
async function subscribeChannels(world: World): Promise<string[]> {
  const { discord, repos } = world;
  const channels: string[] = [];
  const since = Date.now();
  let guildId = '';
  for (let i = 0; i < CHANNELS; i += 1) {
    if (i % PER_GUILD === 0) guildId = discord.addGuild({ name: `Guild ${i / PER_GUILD}` }).id;
    const channelId = discord.addChannel(guildId, { name: `maps-${i}` }).id;
    channels.push(channelId);
    await repos.subscriptions.create({
      guildId,
      channelId,
      kind: 'maps',
      options: {},
      locale: 'en-US',
      createdBy: '1',
      createdAt: since,
      since,
      state: { status: 'active' },
    });
  }
  return channels;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Commands every `COMMAND_EVERY_MS` while `running()`: their latencies, by kind. */
async function commandsAlongside(world: World, running: () => boolean): Promise<SectionFigures> {
  const { discord, commandGuild } = world;
  const manager = { memberPermissions: PermissionFlagsBits.ManageGuild };
  const subscribed: number[] = [];
  const listed: number[] = [];
  let answers = 0;
  for (let n = 0; running(); n += 1) {
    await new Promise((resolve) => setTimeout(resolve, COMMAND_EVERY_MS));
    if (!running()) break;
    const started = performance.now();
    if (n % 2 === 1) {
      await discord.invokeCommand({ name: 'subscriptions', guildId: commandGuild.id, ...manager }).final();
      listed.push(performance.now() - started);
      continue;
    }
    const channelId = commandGuild.channels[(n / 2) % commandGuild.channels.length] ?? '';
    const reply = await discord
      .invokeCommand({
        name: 'subscribe',
        guildId: commandGuild.id,
        ...manager,
        options: [
          {
            type: ApplicationCommandOptionType.Subcommand,
            name: 'maps',
            options: [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: channelId }],
          },
        ],
      })
      .final();
    if ((reply.embeds[0]?.title ?? reply.content) !== '') answers += 1;
    subscribed.push(performance.now() - started);
  }
  return {
    '/subscribe (defers, REST on the global limit) during the fan-out: count': subscribed.length,
    '/subscribe answered with a reply': answers,
    '/subscribe latency during the fan-out, median / max (ms)': `${Math.round(percentile(subscribed, 50))} / ${Math.round(percentile(subscribed, 100))}`,
    '/subscriptions latency during the fan-out, median / max (ms)': `${Math.round(percentile(listed, 50))} / ${Math.round(percentile(listed, 100))}`,
  };
}
