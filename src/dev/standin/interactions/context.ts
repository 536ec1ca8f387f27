import { apiChannel, apiMember, apiUser } from '../api-shapes.ts';
import { ChannelKind } from '../constants.ts';
import { attachmentSizeLimit } from '../messages.ts';
import type { ChannelState, DiscordState, GuildState } from '../state.ts';
import type { InteractionUserOptions } from '../types.ts';
import type { InteractionContext } from './interaction.ts';

/** The guild, channel and user an interaction comes from, created on demand like a test would expect. */
export function interactionContext(
  world: DiscordState,
  opts: InteractionUserOptions & { guildId?: string | null | undefined; channelId?: string | undefined },
): InteractionContext {
  const user = world.ensureUser(opts.user);
  const guildId = opts.guildId === undefined ? ([...world.guilds.keys()][0] ?? null) : opts.guildId;
  let guild: GuildState | null = null;
  let channel: ChannelState;
  if (guildId === null) {
    if (opts.channelId === undefined) {
      channel = world.dmChannelFor(user.id);
    } else {
      const found = world.channels.get(opts.channelId);
      if (found?.guildId !== null || found.recipientId !== user.id) {
        throw new Error(`channel ${opts.channelId} is not ${user.id}'s DM channel`);
      }
      channel = found;
    }
  } else {
    guild = world.guild(guildId);
    const found =
      opts.channelId === undefined
        ? [...guild.channels.values()].find((c) => c.type === ChannelKind.GuildText)
        : guild.channels.get(opts.channelId);
    if (!found) {
      throw new Error(
        opts.channelId === undefined
          ? `guild ${guildId} has no text channel: addChannel first`
          : `channel ${opts.channelId} is not in guild ${guildId}`,
      );
    }
    channel = found;
    world.ensureMember(guild, user.id, opts.memberRoles);
  }
  const memberPermissions = opts.memberPermissions ?? world.channelPermissions(channel, user.id);
  const appPermissions = opts.appPermissions ?? world.channelPermissions(channel, world.identity.botUserId);
  const base: Record<string, unknown> = {
    application_id: world.identity.applicationId,
    version: 1,
    app_permissions: appPermissions.toString(),
    locale: opts.locale ?? 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': guild ? guild.id : '0' },
    context: guild ? 0 : 1,
    attachment_size_limit: attachmentSizeLimit,
    channel: { ...apiChannel(world, channel), permissions: memberPermissions.toString() },
    channel_id: channel.id,
  };
  if (guild) {
    const member = world.ensureMember(guild, user.id);
    base.guild_id = guild.id;
    base.guild = { id: guild.id, locale: guild.preferredLocale, features: [] };
    base.guild_locale = opts.guildLocale ?? guild.preferredLocale;
    base.member = { ...apiMember(world, guild, member), permissions: memberPermissions.toString() };
  } else {
    base.user = apiUser(user);
  }
  return { guild, channel, user, base };
}
