import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApplicationCommandOptionType,
  PermissionFlagsBits,
  type APIApplicationCommandInteractionDataOption,
} from 'discord.js';
import { pino } from 'pino';
import type { Bot } from '../../src/bot.ts';
import { createLogger } from '../../src/log/index.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import {
  startDiscordStandin,
  type DiscordStandin,
  type Guild,
  type MessageRecord,
  type PendingInteraction,
} from '../../src/dev/standin/index.ts';
import { startTestBot } from './stack.ts';

/**
 * The real bot (`startBot`) against the game sandbox and the Discord stand-in, with a sqlite store in
 * a temporary folder and every log line kept. A test "posts" on a player's profile through the
 * sandbox, so that `/link verify` can find the code.
 */
export const MANAGE_GUILD = PermissionFlagsBits.ManageGuild;

export interface Harness {
  readonly sandbox: Sandbox;
  readonly standin: DiscordStandin;
  readonly bot: Bot;
  readonly guild: Guild;
  readonly otherGuild: Guild;
  readonly discordToken: string;
  readonly secretKey: Buffer | undefined;
  readonly storeDir: string;
  /**
   * Every log line written so far, at trace level: by a plain logger without any redaction, or with
   * `appLogger` by the application's own logger (what production writes, after its scrubbing).
   */
  logs(): string;
  /** Makes `text` the newest post of `playerName` from now on. */
  post(playerName: string, text: string): void;
  /** Runs a slash command and waits for its first callback. */
  command(
    name: string,
    sub: string | undefined,
    options?: Record<string, string | number>,
    as?: { userId?: string; permissions?: bigint; guildId?: string | null },
  ): PendingInteraction;
  /** Clicks a button of a message, as `userId` (with `permissions` in the channel, when given). */
  click(message: MessageRecord, customId: string, userId: string, permissions?: bigint): PendingInteraction;
  /** The first callback (type and data) of every interaction the harness started. */
  callbacks(): Promise<unknown[]>;
  /**
   * Runs a command that answers with a modal, submits `value` in it (and `fields`, the modal's other
   * inputs, such as `/me`'s `remember`) and returns the reply.
   */
  throughModal(
    name: string,
    sub: string,
    value: string,
    options?: Record<string, string | number>,
    as?: { userId?: string; permissions?: bigint; guildId?: string | null },
    fields?: Record<string, string>,
  ): Promise<MessageRecord>;
  /** The raw bytes of every file of the store's folder (call after `stop`). */
  storeBytes(): Buffer;
  stop(): Promise<void>;
  close(): Promise<void>;
}

function commandOptions(
  sub: string | undefined,
  options: Record<string, string | number>,
): APIApplicationCommandInteractionDataOption[] {
  const values = Object.entries(options).map(([name, value]) => ({
    name,
    type:
      typeof value === 'number' ? ApplicationCommandOptionType.Integer : ApplicationCommandOptionType.String,
    value,
  }));
  const typed = values as APIApplicationCommandInteractionDataOption[];
  return sub === undefined
    ? typed
    : ([
        { name: sub, type: ApplicationCommandOptionType.Subcommand, options: typed },
      ] as APIApplicationCommandInteractionDataOption[]);
}

export async function startHarness(
  options: { withSecret?: boolean; appLogger?: boolean } = {},
): Promise<Harness> {
  const chunks: string[] = [];
  const destination = { write: (chunk: string) => void chunks.push(chunk) };
  const logger = options.appLogger
    ? createLogger({ level: 'trace', destination })
    : pino({ level: 'trace' }, destination);
  const discordToken = `${Buffer.from('1100000000000000001').toString('base64url')}.CanAry.${randomBytes(27).toString('base64url')}`;
  const secretKey = options.withSecret === false ? undefined : randomBytes(32);
  const sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  const standin = await startDiscordStandin({ token: discordToken });
  const storeDir = mkdtempSync(join(tmpdir(), 'killfeed-canary-'));
  const guild = standin.addGuild({ name: 'Moderators' });
  standin.addChannel(guild.id, { name: 'general' });
  const otherGuild = standin.addGuild({ name: 'Elsewhere' });
  standin.addChannel(otherGuild.id, { name: 'general' });

  let bot: Bot;
  try {
    bot = await startTestBot(sandbox, standin, {
      env: {
        STORE_URL: `sqlite://${join(storeDir, 'bot.sqlite')}`,
        DATABASE_URL: `sqlite://${join(storeDir, 'killfeed.sqlite')}`,
        ...(secretKey ? { SECRET_KEY: secretKey.toString('base64') } : {}),
        LOG_LEVEL: 'trace',
      },
      logger,
      // Tests that need announcements start their own, on a schedule they drive (pollOnce).
      announcements: false,
    });
  } catch (error) {
    await Promise.all([standin.close(), sandbox.close()]);
    rmSync(storeDir, { recursive: true, force: true });
    throw error;
  }

  const started: PendingInteraction[] = [];
  const track = (pending: PendingInteraction) => {
    started.push(pending);
    return pending;
  };
  const command: Harness['command'] = (name, sub, values = {}, as = {}) =>
    track(
      standin.invokeCommand({
        name,
        options: commandOptions(sub, values),
        guildId: as.guildId === undefined ? guild.id : as.guildId,
        user: { id: as.userId ?? '300000000000000001' },
        ...(as.permissions === undefined || as.guildId === null ? {} : { memberPermissions: as.permissions }),
      }),
    );

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await bot.stop();
  };
  return {
    sandbox,
    standin,
    bot,
    guild,
    otherGuild,
    discordToken,
    secretKey,
    storeDir,
    logs: () => chunks.join(''),
    post(playerName, text) {
      sandbox.posts.add(playerName, text);
    },
    command,
    async throughModal(name, sub, value, values = {}, as = {}, fields = {}) {
      const opened = command(name, sub, values, as);
      const shown = await opened.response();
      if (shown.type !== 9) return opened.final();
      const customId = (shown.data as { custom_id: string }).custom_id;
      return track(
        standin.submitModal(
          customId,
          { ...fields, secret: value },
          {
            from: opened,
            ...(as.permissions === undefined ? {} : { memberPermissions: as.permissions }),
          },
        ),
      ).final();
    },
    click: (message, customId, userId, permissions) =>
      track(
        standin.clickButton(message, customId, {
          user: { id: userId },
          ...(permissions === undefined ? {} : { memberPermissions: permissions }),
        }),
      ),
    callbacks: () => Promise.all(started.map((pending) => pending.response())),
    storeBytes: () => Buffer.concat(readdirSync(storeDir).map((file) => readFileSync(join(storeDir, file)))),
    stop,
    async close() {
      await stop();
      await standin.close();
      await sandbox.close();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** Everything a message shows, as one string. */
export function shown(message: MessageRecord): string {
  return JSON.stringify({ content: message.content, embeds: message.embeds, components: message.components });
}
