import {
  PermissionFlagsBits,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type GuildBasedChannel,
} from 'discord.js';
import { UserError } from '../core/user-error.ts';
import type { Translator } from '../i18n/index.ts';

/**
 * What the member who runs `/subscribe`, `/track add`, `/alert add` or `/remind turf` (or a button that
 * runs it again) must be able to do in the channel
 * they point the bot at, in the order they are checked and named: the bot posts there in their name, so it
 * posts nowhere they could not post themselves.
 */
export const CALLER_CHANNEL_PERMISSIONS = [
  ['ViewChannel', PermissionFlagsBits.ViewChannel],
  ['SendMessages', PermissionFlagsBits.SendMessages],
] as const;

/** A role the bot would ping: only its id and whether anyone may mention it are read. */
export interface PingRole {
  readonly id: string;
  readonly mentionable: boolean;
}

/**
 * Refuses, with a localized message, when the caller cannot view or send in `channel` (their overwrites
 * there, their roles, @everyone; Administrator and the owner pass), or when `role` is to be pinged and it
 * is neither mentionable nor mentionable by them (Mention @everyone in that channel). The bot's own rights
 * are checked apart (`checkBotPermissions`).
 */
export function checkCallerRights(
  t: Translator,
  interaction: ChatInputCommandInteraction | ButtonInteraction,
  channel: GuildBasedChannel,
  role?: PingRole,
): void {
  if (!interaction.inCachedGuild()) throw new UserError('subscribe:errors.guildOnly');
  const permissions = channel.permissionsFor(interaction.member, true);
  const missing = CALLER_CHANNEL_PERMISSIONS.filter(([, flag]) => !permissions.has(flag, true));
  if (missing.length > 0) {
    throw new UserError('subscribe:errors.callerMissing', {
      channel: `<#${channel.id}>`,
      permissions: missing.map(([name]) => t.t(`subscribe:permissions.${name}`)).join(', '),
    });
  }
  if (role && !role.mentionable && !permissions.has(PermissionFlagsBits.MentionEveryone, true)) {
    throw new UserError('subscribe:errors.callerMention', {
      role: `<@&${role.id}>`,
      channel: `<#${channel.id}>`,
    });
  }
}
