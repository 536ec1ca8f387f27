import {
  ApplicationCommandOptionType,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandOption,
} from 'discord.js';
import type { Logger } from 'pino';
import { startBot, type Bot } from '../../bot.ts';
import { loadConfig, type Config } from '../../config/index.ts';
import type { AnnouncementOptions } from '../../announcements/index.ts';
import type { Clock } from '../../core/clock.ts';
import { createLogger } from '../../log/index.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.ts';
import {
  startDiscordStandin,
  type DiscordStandin,
  type DiscordStandinOptions,
  type PendingInteraction,
} from '../standin/index.ts';
import { createStore, type Store, type StoreOptions } from '../../store/index.ts';

/**
 * The whole bot, offline: the game API sandbox, the local Discord stand-in, and the real bot (the real
 * discord.js client) between them. `npm run demo`, the end-to-end tests and the benchmarks use it.
 */
export interface StackOptions {
  readonly sandbox?: SandboxOptions;
  readonly discord?: DiscordStandinOptions;
  readonly storeUrl?: string;
  /** Tuning of that store (tests shorten its health probe). */
  readonly storeOptions?: StoreOptions;
  readonly logger?: Logger;
  /** Extra environment for the bot's configuration (e.g. SECRET_KEY). */
  readonly env?: Readonly<Record<string, string>>;
  /** Load only these command modules; all by default. */
  readonly commands?: readonly string[];
  /** Announcement tuning, or `false` to run without the poller. */
  readonly announcements?: AnnouncementOptions | false;
  /** The bot's and the sandbox's clock (the demo moves it ahead); the system clock by default. */
  readonly clock?: Clock;
}

export type OptionValues = Readonly<Record<string, string | number | boolean>>;

export interface Stack {
  readonly sandbox: Sandbox;
  readonly discord: DiscordStandin;
  readonly bot: Bot;
  readonly config: Config;
  readonly store: Store;
  readonly guildId: string;
  readonly channelId: string;
  /** Invokes `/command [subcommand] options...` as a user would, typed from the command's definition. */
  invoke(
    command: string,
    subcommand: string | undefined,
    values?: OptionValues,
    extra?: {
      readonly locale?: string;
      readonly guildId?: string | null;
      readonly userId?: string;
      readonly memberPermissions?: bigint;
      /** Roles of the invoking member (their rights in a channel come from these). */
      readonly memberRoles?: readonly string[];
      /** The channel it is run in; default the guild's first. */
      readonly channelId?: string;
    },
  ): PendingInteraction;
  /** Asks autocomplete for `option` with the text typed so far. */
  autocomplete(
    command: string,
    subcommand: string | undefined,
    option: string,
    typed: string,
    values?: OptionValues,
  ): PendingInteraction;
  stop(): Promise<void>;
}

/** The environment that points the bot at a sandbox and a Discord stand-in (quiet logs, memory store). */
export function stackEnvironment(
  sandbox: Sandbox,
  discord: DiscordStandin,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.restUrl,
    GAME_API_URL: sandbox.urls.base,
    GAME_LEGACY_URL: sandbox.urls.legacy,
    GAME_MATCHMAKER_URL: sandbox.urls.matchmaker,
    GAME_API_KEY: sandbox.keys.default,
    STORE_URL: 'memory://',
    DATABASE_URL: 'sqlite://:memory:',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const clock = options.clock;
  const sandbox = await startSandbox({ ...(clock ? { now: () => clock.now() } : {}), ...options.sandbox });
  let discord: DiscordStandin | undefined;
  let store: Store | undefined;
  try {
    discord = await startDiscordStandin(options.discord);
    store = await createStore(options.storeUrl ?? 'memory://', options.storeOptions);
    return await assemble(options, sandbox, discord, store);
  } catch (error) {
    await store?.close();
    await discord?.close();
    await sandbox.close();
    throw error;
  }
}

async function assemble(
  options: StackOptions,
  sandbox: Sandbox,
  discord: DiscordStandin,
  store: Store,
): Promise<Stack> {
  const guild = discord.addGuild({ name: 'Killfeed Demo', preferredLocale: 'en-US' });
  const channel = discord.addChannel(guild.id, { name: 'general' });
  const config = loadConfig(
    stackEnvironment(sandbox, discord, { STORE_URL: options.storeUrl ?? 'memory://', ...options.env }),
  );
  const bot = await startBot({
    config,
    token: discord.token,
    store,
    logger: options.logger ?? createLogger({ level: config.log.level }).child({ subsystem: 'bot' }),
    ...(options.commands ? { commands: options.commands } : {}),
    ...(options.announcements === undefined ? {} : { announcements: options.announcements }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  await bot.ready;

  const definitions = new Map(bot.commands.map((command) => [command.json.name, command.json]));
  const build = (
    command: string,
    subcommand: string | undefined,
    values: OptionValues,
    focused?: string,
  ): APIApplicationCommandInteractionDataOption[] => {
    const definition = definitions.get(command);
    if (!definition) throw new Error(`no command /${command}`);
    let optionDefs: readonly APIApplicationCommandOption[] = definition.options ?? [];
    if (subcommand !== undefined) {
      const sub = optionDefs.find((o) => o.name === subcommand);
      if (sub?.type !== ApplicationCommandOptionType.Subcommand) {
        throw new Error(`no subcommand /${command} ${subcommand}`);
      }
      optionDefs = sub.options ?? [];
    }
    const leaves = Object.entries(values).map(([name, value]) => {
      const def = optionDefs.find((o) => o.name === name);
      if (!def) throw new Error(`no option ${name} on /${command} ${subcommand ?? ''}`);
      return {
        type: def.type,
        name,
        value,
        ...(focused === name ? { focused: true } : {}),
      } as APIApplicationCommandInteractionDataOption;
    });
    if (subcommand === undefined) return leaves;
    return [
      { type: ApplicationCommandOptionType.Subcommand, name: subcommand, options: leaves },
    ] as APIApplicationCommandInteractionDataOption[];
  };

  return {
    sandbox,
    discord,
    bot,
    config,
    store,
    guildId: guild.id,
    channelId: channel.id,
    invoke(command, subcommand, values = {}, extra = {}) {
      return discord.invokeCommand({
        name: command,
        options: build(command, subcommand, values),
        ...(extra.locale ? { locale: extra.locale } : {}),
        ...(extra.guildId !== undefined ? { guildId: extra.guildId } : {}),
        ...(extra.userId ? { user: { id: extra.userId } } : {}),
        ...(extra.memberPermissions === undefined ? {} : { memberPermissions: extra.memberPermissions }),
        ...(extra.memberRoles ? { memberRoles: [...extra.memberRoles] } : {}),
        ...(extra.channelId ? { channelId: extra.channelId } : {}),
      });
    },
    autocomplete(command, subcommand, option, typed, values = {}) {
      return discord.autocomplete({
        name: command,
        options: build(command, subcommand, { ...values, [option]: typed }, option),
      });
    },
    async stop() {
      await bot.stop();
      await store.close();
      await discord.close();
      await sandbox.close();
    },
  };
}
