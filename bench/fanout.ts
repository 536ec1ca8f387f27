import { stackEnvironment } from '../src/dev/demo/stack.ts';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  Events,
  InteractionContextType,
  PermissionFlagsBits,
} from 'discord.js';
import { pino } from 'pino';
import { command as subscribe } from '../commands/subscribe.ts';
import { command as subscriptions } from '../commands/subscriptions.ts';
import { TierClient } from '../src/api/client.ts';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig } from '../src/config/index.ts';
import { createDiscordClient } from '../src/discord/client.ts';
import type { Services } from '../src/services.ts';
import { InteractionRouter } from '../src/discord/interactions.ts';
import { NAME_COMPLETERS } from '../src/search/completers.ts';
import { localizeCommand } from '../src/discord/localize.ts';
import { NameIndex } from '../src/names/index.ts';
import { discordTarget } from '../src/announcements/index.ts';
import { startPipeline } from '../src/worker.ts';
import { openRecords } from '../src/records.ts';
import { openDatabase } from '../src/db/index.ts';
import { ANNOUNCEMENT_KINDS } from '../src/kinds.ts';
import { openRepositories } from '../src/announcements/repositories.ts';
import { Translations } from '../src/i18n/index.ts';
import { startSandbox } from '../src/dev/sandbox/index.ts';
import { startDiscordStandin } from '../src/dev/standin/index.ts';
import { createStore } from '../src/store/index.ts';
import { demandReader } from '../src/demand.ts';

const CHANNELS = 1_000;
const GUILDS = 10;
const GLOBAL_LIMIT = 50;

/**
 * One featured map fanned out to 1,000 subscribed channels through the Discord stand-in, which enforces
 * Discord's global limit of 50 requests a second: the time taken against the 20 s that limit allows,
 * and how long two commands take to be answered while the fan-out runs (`/subscriptions` answers at
 * once; `/subscribe` defers, then reads the bot's member and edits its reply through the REST queue
 * that the fan-out is using).
 */
export async function benchFanout(): Promise<Record<string, number | string>> {
  const sandbox = await startSandbox();
  const discord = await startDiscordStandin({ globalRateLimit: { perSecond: GLOBAL_LIMIT } });
  const store = await createStore('memory://', { purgeIntervalMs: 0 });
  const db = await openDatabase('sqlite://:memory:');
  const repos = openRepositories(db, store);
  const guilds = Array.from({ length: GUILDS }, (_, i) => discord.addGuild({ name: `Guild ${i}` }));
  const channels: Array<{ guildId: string; channelId: string }> = [];
  for (let i = 0; i < CHANNELS; i += 1) {
    const guild = guilds[i % GUILDS];
    if (!guild) throw new Error('no guild');
    channels.push({ guildId: guild.id, channelId: discord.addChannel(guild.id, { name: `maps-${i}` }).id });
  }
  const config = loadConfig(stackEnvironment(sandbox, discord, { LOG_LEVEL: 'silent' }));
  const translations = new Translations();
  const api = new TierClient({
    urls: { base: config.game.baseUrl, legacy: config.game.legacyUrl, matchmaker: config.game.matchmakerUrl },
    apiKey: config.game.apiKey,
    cache: store.namespace('cache'),
  });
  const services: Services = {
    api,
    store,
    db,
    records: openRecords(db, store, config),
    translations,
    names: new NameIndex(),
    config,
    clock: systemClock,
    log: pino({ level: 'silent' }),
    demand: demandReader(db),
  };
  const commands = [subscribe, subscriptions].map((command) => ({
    ...command,
    json: localizeCommand(
      {
        integration_types: [ApplicationIntegrationType.GuildInstall],
        contexts: [InteractionContextType.Guild],
        ...command.data,
      },
      command.data.name,
      translations,
    ),
  }));
  const router = new InteractionRouter(commands, services, { completers: NAME_COMPLETERS });
  const client = createDiscordClient({ apiUrl: discord.restUrl });
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

  try {
    const since = Date.now();
    for (const { guildId, channelId } of channels) {
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
    // Reads the history once (nothing in it is announced), so that the measured poll is the fan-out.
    await announcements.pollOnce();
    const map = sandbox.world.maps.find((m) => m.hidden === null && !m.featured);
    if (!map) throw new Error('the sandbox has no map to feature');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    sandbox.events.publish('map.featured', map.id);
    const requestsBefore = discord.requests().length;

    const started = performance.now();
    const fanout = announcements.pollOnce();
    const manager = { memberPermissions: PermissionFlagsBits.ManageGuild };
    const first = channels[0];
    if (!first) throw new Error('no channel');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const listed = performance.now();
    await discord.invokeCommand({ name: 'subscriptions', guildId: first.guildId, ...manager }).final();
    const listMs = performance.now() - listed;
    const subscribing = performance.now();
    const subscribed = await discord
      .invokeCommand({
        name: 'subscribe',
        guildId: first.guildId,
        ...manager,
        options: [
          {
            type: ApplicationCommandOptionType.Subcommand,
            name: 'maps',
            options: [
              { type: ApplicationCommandOptionType.Channel, name: 'channel', value: first.channelId },
            ],
          },
        ],
      })
      .final();
    const subscribeMs = performance.now() - subscribing;
    const duringFanout = performance.now() - started < 20_000;
    await fanout;
    const seconds = (performance.now() - started) / 1000;

    const posted = channels.filter(({ channelId }) =>
      discord.messages(channelId).some((message) => message.kind === 'channel'),
    ).length;
    const requests = discord.requests().slice(requestsBefore);
    const limitSeconds = CHANNELS / GLOBAL_LIMIT;
    return {
      channels: CHANNELS,
      'channels announced': posted,
      'fan-out time (s)': Number(seconds.toFixed(2)),
      'time the 50/s limit allows (s)': limitSeconds,
      'ratio (goal <= 1.1)': Number((seconds / limitSeconds).toFixed(3)),
      '429 answers during the fan-out': requests.filter((r) => r.status === 429).length,
      '/subscriptions answered during the fan-out (ms)': Math.round(listMs),
      '/subscribe (deferred, REST) answered during the fan-out (ms)': Math.round(subscribeMs),
      '/subscribe answer': subscribed.embeds[0]?.title ?? '(none)',
      'commands ran while the fan-out was still going': duringFanout ? 'yes' : 'no',
    };
  } finally {
    await announcements.stop();
    client.off(Events.InteractionCreate, router.handle);
    await router.drain(2_000);
    await client.destroy();
    await api.close();
    await store.close();
    await db.close();
    await discord.close();
    await sandbox.close();
  }
}
