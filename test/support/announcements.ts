import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  Events,
  InteractionContextType,
  type APIApplicationCommandInteractionDataOption,
  type Client,
  type ClientEvents,
} from 'discord.js';
import { pino, type Logger } from 'pino';
import { afterEach, beforeEach, expect } from 'vitest';
import { command as subscribe } from '../../commands/subscribe.ts';
import { stackEnvironment } from '../../src/dev/demo/stack.ts';
import { command as subscriptions } from '../../commands/subscriptions.ts';
import { command as unsubscribe } from '../../commands/unsubscribe.ts';
import { TierClient } from '../../src/api/client.ts';
import { createMemoryLimits, type SharedLimits } from '../../src/traffic/index.ts';
import { DiscordGlobalLimit, type DiscordGlobalOptions } from '../../src/traffic/discord-global.ts';
import type { Clock } from '../../src/core/clock.ts';
import { loadConfig, type Config } from '../../src/config/index.ts';
import { createDiscordClient } from '../../src/discord/client.ts';
import type { Command, LoadedCommand } from '../../src/discord/command.ts';
import type { Services } from '../../src/services.ts';
import { InteractionRouter } from '../../src/discord/interactions.ts';
import { NAME_COMPLETERS } from '../../src/search/completers.ts';
import { localizeCommand } from '../../src/discord/localize.ts';
import { NameIndex } from '../../src/names/index.ts';
import {
  discordTarget,
  type AnnouncementOptions,
  type Announcements,
} from '../../src/announcements/index.ts';
import { startPipeline } from '../../src/worker.ts';
import { openRecords } from '../../src/records.ts';
import { ANNOUNCEMENT_KINDS } from '../../src/kinds.ts';
import type { Subscription } from '../../src/announcements/model.ts';
import { kpdSource } from '../../src/features/kpd/feed.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import type { KyselyPlugin } from 'kysely';
import { openRepositories, type Repositories } from '../../src/announcements/repositories.ts';
import { Translations } from '../../src/i18n/index.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/dev/sandbox/index.ts';
import {
  startDiscordStandin,
  type DiscordStandin,
  type DiscordStandinOptions,
  type MessageRecord,
  type PendingInteraction,
} from '../../src/dev/standin/index.ts';
import { StoreError, createStore, type Namespace, type Store } from '../../src/store/index.ts';
import { spawnRedisServer } from './redis-server.ts';
import { ManualClock } from './clock.ts';
import { freePort } from '../../src/dev/net.ts';
import { captureSnapshots } from '../../src/players/capture.ts';
import type { SourceFactory } from '../../src/announcements/sources.ts';
import { demandReader } from '../../src/demand.ts';

/**
 * The announcement subsystem between the game API sandbox and the Discord stand-in, driven through the
 * real discord.js client: a bot process is `Process` (its own client, tier client and runtime), and
 * several processes can share one store. Only the three commands of this subsystem are loaded, so these
 * tests do not depend on other commands.
 */
/**
 * The worlds' log when a test gives none: errors only, on stderr, so that a reply of "Something went wrong"
 * in a CI run comes with its cause (`KF_TEST_LOG=debug` shows everything).
 */
export const silentLog = pino({ level: process.env['KF_TEST_LOG'] ?? 'error' }, pino.destination(2));
export const translations = new Translations();

// Typed commands are Commands of their own definition; the loader erases that the same way.
const OWN_COMMANDS: Command[] = [subscribe, subscriptions, unsubscribe as unknown as Command];

/**
 * Adds commands to those the test processes route (a test file that drives `/player` or `/roles` says so
 * at its top): only the files that need them pay for loading them.
 */
export function routeCommands(...commands: readonly unknown[]): void {
  for (const command of commands as Command[])
    if (!OWN_COMMANDS.includes(command)) OWN_COMMANDS.push(command);
  ownCommands = undefined;
}

export function loadOwnCommands(): LoadedCommand[] {
  return OWN_COMMANDS.map((command) => ({
    ...command,
    json: localizeCommand(
      {
        integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
        contexts: [InteractionContextType.Guild],
        ...command.data,
      },
      command.namespace ?? command.data.name,
      translations,
    ),
  }));
}

export interface WorldOptions {
  readonly clock?: ManualClock;
  readonly sandbox?: Omit<SandboxOptions, 'now'>;
  readonly discord?: DiscordStandinOptions;
  readonly store?: Store;
  /** The database the processes share; a private in-memory SQLite one by default. */
  readonly db?: Database;
  readonly env?: Readonly<Record<string, string>>;
}

/** The outside world of one test: game API, Discord, clock, and the store the bot processes share. */
export interface World {
  readonly clock: ManualClock;
  readonly sandbox: Sandbox;
  readonly discord: DiscordStandin;
  readonly store: Store;
  readonly db: Database;
  readonly repos: Repositories;
  /** The game API limits the processes share, as they would through Redis. */
  readonly limits: SharedLimits;
  readonly config: Config;
  readonly guildId: string;
  readonly channelId: string;
  /** A text channel, with the bot's default permissions. */
  addChannel(name?: string): string;
  close(): Promise<void>;
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const clock = options.clock ?? new ManualClock();
  const sandbox = await startSandbox({ ...options.sandbox, now: () => clock.now() });
  const discord = await startDiscordStandin(options.discord);
  const store = options.store ?? (await createStore('memory://', { purgeIntervalMs: 0 }));
  const db = options.db ?? (await openDatabase('sqlite://:memory:'));
  const limits = createMemoryLimits(clock);
  const guild = discord.addGuild({ name: 'Arena', preferredLocale: 'en-US' });
  const channel = discord.addChannel(guild.id, { name: 'announcements' });
  const config = loadConfig(
    stackEnvironment(sandbox, discord, { EVENTS_POLL_SECONDS: '20', LOG_LEVEL: 'silent', ...options.env }),
  );
  return {
    clock,
    sandbox,
    discord,
    store,
    db,
    repos: openRepositories(db, store),
    limits,
    config,
    guildId: guild.id,
    channelId: channel.id,
    addChannel: (name) => discord.addChannel(guild.id, name === undefined ? {} : { name }).id,
    async close() {
      await discord.close();
      await sandbox.close();
      await limits.close();
      if (!options.store) await store.close();
      if (!options.db) await db.close();
    },
  };
}

/** One bot process: a discord.js client logged in to the stand-in, its services, and its announcements. */
export interface Process {
  readonly client: Client;
  readonly services: Services;
  readonly api: TierClient;
  readonly announcements: Announcements;
  stop(): Promise<void>;
}

export interface ProcessOptions {
  readonly store?: Store;
  readonly db?: Database;
  readonly clock?: Clock;
  readonly announcements?: AnnouncementOptions;
  readonly config?: Config;
  /** Route interactions to the three commands (one process per test should). */
  readonly commands?: boolean;
  readonly log?: Logger;
  readonly translations?: Translations;
  /** The sources besides events and turf; default the KPD feed (tracking: add `playersSource`). */
  readonly sources?: (services: Services) => readonly SourceFactory[];
  /** Sends through the bot's global limiter at this rate, on the world's limits and clock; unlimited otherwise. */
  readonly discordLimit?: DiscordGlobalOptions;
}

export async function startProcess(world: World, options: ProcessOptions = {}): Promise<Process> {
  const store = options.store ?? world.store;
  const db = options.db ?? world.db;
  const clock = options.clock ?? world.clock;
  const config = options.config ?? world.config;
  const api = new TierClient({
    urls: { base: config.game.baseUrl, legacy: config.game.legacyUrl, matchmaker: config.game.matchmakerUrl },
    apiKey: config.game.apiKey,
    cache: store.namespace('cache'),
    clock,
    sharedLimits: world.limits,
  });
  const services: Services = {
    api,
    store,
    db,
    records: openRecords(db, store, config),
    translations: options.translations ?? translations,
    names: new NameIndex(store.namespace<string>('names')),
    config,
    clock,
    log: options.log ?? silentLog,
    demand: demandReader(db),
  };
  const stopCapture = captureSnapshots(services);
  const limit = options.discordLimit
    ? new DiscordGlobalLimit(world.limits, world.discord.token, clock, options.discordLimit)
    : undefined;
  const client = createDiscordClient({ apiUrl: world.discord.restUrl, limit });
  const router =
    options.commands === false
      ? undefined
      : new InteractionRouter(loadOwnCommands(), services, { completers: NAME_COMPLETERS });
  if (router) client.on(Events.InteractionCreate, router.handle);
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(world.discord.token);
  await ready;
  const announcements = await startPipeline({
    discord: discordTarget(client),
    services,
    config,
    kinds: ANNOUNCEMENT_KINDS,
    sources: options.sources?.(services) ?? [kpdSource(services)],
    // Posts are not paced here unless `discordLimit` says (a pass of several would wait on the manual
    // clock for each): the pacing tests in test/announcements/delivery.test.ts set a rate.
    options: {
      autoStart: false,
      delivery: { backoffMs: 5, claimTtlMs: 200 },
      ...options.announcements,
    },
  });
  let stopping: Promise<void> | undefined;
  return {
    client,
    services,
    api,
    announcements,
    stop() {
      stopping ??= (async () => {
        await announcements.stop();
        if (router) {
          client.off(Events.InteractionCreate, router.handle);
          await router.drain(2_000);
        }
        await client.destroy();
        stopCapture();
        await api.close();
      })();
      return stopping;
    },
  };
}

export type OptionValue = string | number | boolean;

/** Localized once (it takes tens of milliseconds: a hundred calls at once would hold the loop for seconds). */
let ownCommands: LoadedCommand[] | undefined;

/** The raw options of `/command [sub] name:value...`, typed from the command's definition. */
export function commandOptions(
  name: string,
  subcommand: string | undefined,
  values: Readonly<Record<string, OptionValue>> = {},
): APIApplicationCommandInteractionDataOption[] {
  ownCommands ??= loadOwnCommands();
  const command = ownCommands.find((c) => c.json.name === name);
  if (!command) throw new Error(`no command /${name}`);
  let definitions = command.json.options ?? [];
  if (subcommand !== undefined) {
    const sub = definitions.find((o) => o.name === subcommand);
    if (!sub || sub.type !== ApplicationCommandOptionType.Subcommand)
      throw new Error(`no subcommand ${subcommand}`);
    definitions = ('options' in sub ? sub.options : undefined) ?? [];
  }
  const leaves = Object.entries(values).map(([option, value]) => {
    const definition = definitions.find((o) => o.name === option);
    if (!definition) throw new Error(`no option ${option}`);
    return { type: definition.type, name: option, value } as APIApplicationCommandInteractionDataOption;
  });
  if (subcommand === undefined) return leaves;
  return [
    { type: ApplicationCommandOptionType.Subcommand, name: subcommand, options: leaves },
  ] as APIApplicationCommandInteractionDataOption[];
}

/** A subscription made directly in the store (what /subscribe would save), for tests about delivery. */
export async function subscribeDirectly(
  world: World,
  fields: Partial<Subscription> & Pick<Subscription, 'kind'>,
): Promise<Subscription> {
  const now = world.clock.now();
  return world.repos.subscriptions.create({
    guildId: world.guildId,
    channelId: world.channelId,
    options: {},
    locale: 'en-US',
    createdBy: '300000000000000001',
    createdAt: now,
    since: now,
    state: { status: 'active' },
    ...fields,
  });
}

/** Messages the bot posted in a channel (not interaction replies). */
export function posted(world: World, channelId: string = world.channelId): MessageRecord[] {
  return world.discord.messages(channelId).filter((message) => message.kind === 'channel');
}

/**
 * Settles a promise that may wait on the manual clock (budget waits, tier-client retries): see
 * {@link ManualClock.settle}. Time moves only while the work sleeps on the clock, never by real time.
 */
export function drive<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  return clock.settle(work);
}

/**
 * Resolves once `check` holds for the client's cache, checking it now and after each of `events` (the
 * gateway events that change what it looks at): the cache is told by the gateway, not by time.
 */
export async function cached(
  client: Client,
  check: () => boolean,
  events: ReadonlyArray<keyof ClientEvents>,
): Promise<void> {
  if (check()) return;
  await new Promise<void>((resolve) => {
    const listener = () => {
      if (!check()) return;
      for (const event of events) client.off(event, listener);
      resolve();
    };
    for (const event of events) client.on(event, listener);
  });
}

export function invoke(
  world: World,
  name: string,
  subcommand: string | undefined,
  values: Readonly<Record<string, OptionValue>> = {},
  extra: {
    readonly memberPermissions?: bigint;
    readonly memberRoles?: readonly string[];
    readonly locale?: string;
  } = {},
): PendingInteraction {
  return world.discord.invokeCommand({
    name,
    guildId: world.guildId,
    options: commandOptions(name, subcommand, values),
    ...(extra.memberPermissions === undefined ? {} : { memberPermissions: extra.memberPermissions }),
    ...(extra.memberRoles === undefined ? {} : { memberRoles: [...extra.memberRoles] }),
    ...(extra.locale === undefined ? {} : { locale: extra.locale }),
  });
}

/** The largest number of times that fall in one window of `windowMs` (sliding, half-open). */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

export interface WorldFixture {
  /** The current test's world. */
  readonly world: World;
  /** A bot process on the current world (no commands unless asked), stopped after the test. */
  readonly start: (options?: ProcessOptions) => Promise<Process>;
}

/** A fresh world for every test, and the processes each test starts, all stopped after it. */
export function useWorldPerTest(options: WorldOptions = {}): WorldFixture {
  let current: World | undefined;
  const processes: Process[] = [];
  beforeEach(async () => {
    current = await startWorld(options);
  });
  afterEach(async () => {
    for (const process of processes.splice(0)) await process.stop();
    await current?.close();
    current = undefined;
  });
  const fixture: WorldFixture = {
    get world(): World {
      if (!current) throw new Error('the world exists only inside a test');
      return current;
    },
    start: async (options = {}) => {
      const process = await startProcess(fixture.world, { commands: false, ...options });
      processes.push(process);
      return process;
    },
  };
  return fixture;
}

/**
 * A process killed just after Discord took its first post of an event whose key starts with `eventPrefix`:
 * it polls once, the hook throws after that send (as a crash between Discord's answer and the outbox's
 * record would), and the process is stopped. What a restart then does is the test's to check.
 */
export async function crashAfterFirstSend(
  fixture: WorldFixture,
  options: ProcessOptions,
  eventPrefix: string,
): Promise<void> {
  let crashed = false;
  const crashing = await fixture.start({
    ...options,
    announcements: {
      ...options.announcements,
      hook: (step, info) => {
        if (!crashed && step === 'sent' && info.eventKey.startsWith(eventPrefix)) {
          crashed = true;
          throw new Error('crash after sending');
        }
      },
    },
  });
  await expect(crashing.announcements.pollOnce()).rejects.toThrow('crash after sending');
  await crashing.stop();
}

/** A log that keeps every line it writes (pino's JSON), for tests about what is logged. */
export function capturedLog(): { readonly log: Logger; readonly lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

/**
 * A store that can be switched off: while `down`, every call of every namespace rejects with a
 * `StoreError`, as a store that stopped answering does. `failures` counts those calls.
 */
export interface FlakyStore extends Store {
  down: boolean;
  failures: number;
}

export function flakyStore(inner: Store): FlakyStore {
  const health: Store['health'] = {
    get healthy() {
      return !flaky.down;
    },
    get reason() {
      return flaky.down ? 'down' : undefined;
    },
    onChange: () => () => undefined,
  };
  const flaky: FlakyStore = {
    down: false,
    failures: 0,
    kind: inner.kind,
    health,
    purgeExpired: () => inner.purgeExpired(),
    close: () => inner.close(),
    namespace<T = unknown>(name: string): Namespace<T> {
      const ns = inner.namespace<T>(name);
      const guard = async <R>(work: () => Promise<R>): Promise<R> => {
        if (flaky.down) {
          flaky.failures += 1;
          throw new StoreError('the store is not answering');
        }
        return work();
      };
      return {
        name: ns.name,
        get: (key) => guard(() => ns.get(key)),
        set: (key, value, ttlMs) => guard(() => ns.set(key, value, ttlMs)),
        delete: (key) => guard(() => ns.delete(key)),
        has: (key) => guard(() => ns.has(key)),
        add: (key, value, ttlMs) => guard(() => ns.add(key, value, ttlMs)),
        replace: (key, expected, value, ttlMs) => guard(() => ns.replace(key, expected, value, ttlMs)),
        async *entries() {
          await guard(() => Promise.resolve());
          yield* ns.entries();
        },
      };
    },
  };
  return flaky;
}

/** Debian's redis-server, which the CI image installs; tests that need it are skipped where it is absent. */
export const REDIS_SERVER = '/usr/bin/redis-server';
export const redisAvailable = existsSync(REDIS_SERVER);

/** A redis-server of the test's own on 127.0.0.1 (nothing saved); the test stops it with `stop()`. */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = await spawnRedisServer(port);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { url: `redis://127.0.0.1:${port}`, stop };
}

/**
 * `inner` failing as the flaky store does, on the same switch: while `flaky.down`, every query rejects
 * with a StoreError before it reaches the database (a Kysely plugin sees every query first).
 */
export function flakyDatabase(inner: Database, flaky: Pick<FlakyStore, 'down' | 'failures'>): Database {
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (flaky.down) {
        flaky.failures += 1;
        throw new StoreError('the store is not answering');
      }
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  return { ...inner, kysely: inner.kysely.withPlugin(plugin), ping: () => Promise.resolve(!flaky.down) };
}
