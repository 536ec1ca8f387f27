import {
  ApplicationCommandOptionType,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandOption,
} from 'discord.js';
import type { LoadedCommand } from '../../src/discord/command.ts';
import { deliveryNonce } from '../../src/announcements/delivery.ts';
import { fromApiEvent } from '../../src/announcements/sources.ts';
import type { Event } from '../../src/api/schemas/index.ts';
import type { ApiEvent } from '../../src/dev/sandbox/index.ts';
import type { DiscordStandin, MessageRecord } from '../../src/dev/standin/index.ts';

/** Discord's deadline for an interaction's first response. */
export const FIRST_RESPONSE_DEADLINE_MS = 3_000;

export type OptionValues = Readonly<Record<string, string | number | boolean>>;

export interface CommandSpec {
  readonly command: string;
  readonly sub?: string;
  readonly values: OptionValues;
  readonly userId: string;
  /** null: in a DM with the bot. */
  readonly guildId?: string | null;
  readonly manager?: boolean;
}

export interface CommandOutcome {
  /** The first response reached Discord within the deadline (the stand-in refuses a later one, as Discord does). */
  readonly inTime: boolean;
  /** The final reply: a result, an error message, the generic "Something went wrong", or none at all. */
  readonly final: 'result' | 'error' | 'wentWrong' | 'none';
  /** The interaction's token (a secret: the run looks for it in the bot's log). */
  readonly token: string;
}

const MANAGE_GUILD = 1n << 5n;

/** Builds a command's options from its definition, as Discord would send them. */
export function optionBuilder(commands: readonly LoadedCommand[]) {
  const definitions = new Map(commands.map((command) => [command.json.name, command.json]));
  return (spec: CommandSpec): APIApplicationCommandInteractionDataOption[] => {
    const definition = definitions.get(spec.command);
    if (!definition) throw new Error(`no command /${spec.command}`);
    let defs: readonly APIApplicationCommandOption[] = definition.options ?? [];
    if (spec.sub !== undefined) {
      const sub = defs.find((o) => o.name === spec.sub);
      if (sub?.type !== ApplicationCommandOptionType.Subcommand) {
        throw new Error(`no subcommand /${spec.command} ${spec.sub}`);
      }
      defs = sub.options ?? [];
    }
    const leaves = Object.entries(spec.values).map(([name, value]) => {
      const def = defs.find((o) => o.name === name);
      if (!def) throw new Error(`no option ${name} on /${spec.command} ${spec.sub ?? ''}`);
      return { type: def.type, name, value } as APIApplicationCommandInteractionDataOption;
    });
    if (spec.sub === undefined) return leaves;
    return [
      { type: ApplicationCommandOptionType.Subcommand, name: spec.sub, options: leaves },
    ] as APIApplicationCommandInteractionDataOption[];
  };
}

/** The titles of the bot's error replies: the generic one, and those that explain what failed. */
export interface ErrorTitles {
  readonly wentWrong: string;
  readonly explained: ReadonlySet<string>;
}

/** Runs one command as a user would and watches its first response and its final reply. */
export async function probeCommand(
  discord: DiscordStandin,
  build: ReturnType<typeof optionBuilder>,
  spec: CommandSpec,
  titles: ErrorTitles,
  finalTimeoutMs: number,
): Promise<CommandOutcome> {
  const pending = discord.invokeCommand({
    name: spec.command,
    options: build(spec),
    user: { id: spec.userId },
    ...(spec.guildId === undefined ? {} : { guildId: spec.guildId }),
    ...(spec.manager === true ? { memberPermissions: MANAGE_GUILD } : {}),
  });
  const [first, final] = await Promise.allSettled([
    pending.response(FIRST_RESPONSE_DEADLINE_MS + 1_000),
    pending.final(finalTimeoutMs),
  ]);
  const inTime = first.status === 'fulfilled' && first.value.afterMs <= FIRST_RESPONSE_DEADLINE_MS;
  const token = pending.token;
  if (final.status === 'rejected') return { inTime, final: 'none', token };
  const title = final.value.embeds[0]?.title ?? '';
  if (title === titles.wentWrong) return { inTime, final: 'wentWrong', token };
  return { inTime, final: titles.explained.has(title) ? 'error' : 'result', token };
}

export interface PublishedMap {
  readonly event: ApiEvent;
  /** The name announcements show (the hostile one when the proxy renames the map). */
  readonly shownName: string;
}

export interface AnnouncementCount {
  readonly expected: number;
  readonly once: number;
  readonly lost: number;
  readonly duplicated: number;
  /** Bot posts in those channels that belong to no published event. */
  readonly other: number;
}

function textOf(message: MessageRecord): string {
  return [message.content, ...message.embeds.flatMap((e) => [e.title ?? '', e.description ?? ''])].join('\n');
}

/**
 * Each bot post in the subscribed channels is attributed to a published event by its nonce (the one the
 * bot derives from the event and the channel), or failing that by the map's name in its text; each
 * (event, channel) pair then counts as posted once, lost, or duplicated.
 */
export function countAnnouncements(
  discord: DiscordStandin,
  channelIds: readonly string[],
  published: readonly PublishedMap[],
): AnnouncementCount {
  let once = 0;
  let lost = 0;
  let duplicated = 0;
  let other = 0;
  for (const channelId of channelIds) {
    const keys = published.map((p) => deliveryNonce(fromApiEvent(p.event as Event, 0).key, channelId));
    const counts = published.map(() => 0);
    for (const message of discord.messages(channelId)) {
      if (message.kind !== 'channel' || message.authorId !== discord.botUserId) continue;
      let index = keys.indexOf(String(message.nonce));
      if (index < 0) index = published.findIndex((p) => textOf(message).includes(p.shownName));
      if (index < 0) other += 1;
      else counts[index] = (counts[index] ?? 0) + 1;
    }
    for (const count of counts) {
      if (count === 0) lost += 1;
      else if (count === 1) once += 1;
      else duplicated += 1;
    }
  }
  return { expected: channelIds.length * published.length, once, lost, duplicated, other };
}
