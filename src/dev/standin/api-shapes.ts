import { MessageType } from 'discord.js';
import { snowflakeTime } from './snowflake.ts';
import {
  isRecord,
  type ChannelState,
  type DiscordState,
  type GuildState,
  type MemberState,
  type MessageInteractionMeta,
  type RoleState,
  type UserState,
} from './state.ts';
import type { MessageRecord } from './types.ts';

// The stand-in's records as Discord's API shows them.

export function apiUser(user: UserState): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator,
    global_name: user.globalName,
    avatar: user.avatar,
    ...(user.bot ? { bot: true } : {}),
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

export function apiRole(role: RoleState): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    description: null,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.managed,
    mentionable: false,
    flags: 0,
    ...roleTags(role),
  };
}

/** What marks a managed role: its bot, or else the booster role's `premium_subscriber` (present as null). */
function roleTags(role: RoleState): Record<string, unknown> {
  if (role.managedBotId !== null) return { tags: { bot_id: role.managedBotId } };
  return role.managed ? { tags: { premium_subscriber: null } } : {};
}

export function apiChannel(world: DiscordState, channel: ChannelState): Record<string, unknown> {
  if (channel.guildId === null) {
    const recipient = channel.recipientId === null ? undefined : world.users.get(channel.recipientId);
    return {
      id: channel.id,
      type: channel.type,
      last_message_id: channel.lastMessageId,
      flags: 0,
      recipients: recipient ? [apiUser(recipient)] : [],
    };
  }
  return {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    flags: 0,
    parent_id: null,
    topic: null,
    nsfw: false,
    last_message_id: channel.lastMessageId,
    rate_limit_per_user: 0,
    permission_overwrites: [...channel.overwrites.values()].map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow.toString(),
      deny: o.deny.toString(),
    })),
  };
}

export function apiMember(
  world: DiscordState,
  guild: GuildState,
  member: MemberState,
): Record<string, unknown> {
  const user = world.users.get(member.userId) ?? world.ensureUser({ id: member.userId });
  return {
    user: apiUser(user),
    nick: null,
    avatar: null,
    banner: null,
    roles: member.roles.filter((r) => r !== guild.id),
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
}

export function apiGuild(guild: GuildState): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [...guild.roles.values()].map((r) => apiRole(r)),
    emojis: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    max_presences: null,
    max_members: 500000,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: guild.preferredLocale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: 0,
    stickers: [],
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    incidents_data: null,
  };
}

/** The GUILD_CREATE payload: the guild plus its channels, members and the gateway-only fields. */
export function apiGuildCreate(world: DiscordState, guild: GuildState): Record<string, unknown> {
  return {
    ...apiGuild(guild),
    joined_at: guild.members.get(world.identity.botUserId)?.joinedAt ?? new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: guild.members.size,
    voice_states: [],
    members: [...guild.members.values()].map((m) => apiMember(world, guild, m)),
    channels: [...guild.channels.values()].map((c) => apiChannel(world, c)),
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    lazy: true,
    application_command_counts: {},
  };
}

export function apiAttachment(message: MessageRecord, index: number): Record<string, unknown> {
  const attachment = message.attachments[index];
  if (!attachment) throw new Error('attachment index out of range');
  const size = pngSize(attachment.bytes);
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url: attachment.url,
    proxy_url: attachment.url,
    ...(attachment.contentType === null ? {} : { content_type: attachment.contentType }),
    ...(attachment.description === null ? {} : { description: attachment.description }),
    ...(size ? { width: size.width, height: size.height } : {}),
    ...((message.flags & 64) !== 0 ? { ephemeral: true } : {}),
  };
}

export function apiMessage(world: DiscordState, message: MessageRecord): Record<string, unknown> {
  const meta = world.messageInteractions.get(message.id);
  const author = world.bot();
  const metaUser = meta ? world.users.get(meta.userId) : undefined;
  const edited =
    message.editedAt === null ? null : new Date(world.startedWall + message.editedAt).toISOString();
  return {
    id: message.id,
    type: messageType(message, meta),
    channel_id: message.channelId,
    author: apiUser(author),
    content: message.content,
    timestamp: new Date(snowflakeTime(message.id)).toISOString(),
    edited_timestamp: edited,
    tts: message.tts,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: message.attachments.map((_, i) => apiAttachment(message, i)),
    embeds: message.embeds.map((e) => apiEmbed(message, e)),
    pinned: false,
    flags: message.flags,
    components: message.components,
    ...(message.nonce === null ? {} : { nonce: message.nonce }),
    ...(message.messageReference ? { message_reference: message.messageReference } : {}),
    ...(meta && metaUser
      ? {
          webhook_id: world.identity.applicationId,
          application_id: world.identity.applicationId,
          interaction_metadata: {
            id: meta.interactionId,
            type: meta.interactionType,
            user: apiUser(metaUser),
            authorizing_integration_owners: { '0': meta.guildId ?? '0' },
            ...(meta.commandName === null ? {} : { name: meta.commandName }),
            ...(meta.commandType === null ? {} : { command_type: meta.commandType }),
          },
          interaction: {
            id: meta.interactionId,
            type: meta.interactionType,
            name: meta.commandName ?? '',
            user: apiUser(metaUser),
          },
        }
      : {}),
  };
}

/** Discord's rendering of an embed: type rich, attachment:// links resolved to the uploaded file. */
function apiEmbed(message: MessageRecord, embed: object): Record<string, unknown> {
  const resolve = (value: unknown): unknown => {
    if (!isRecord(value) || typeof value.url !== 'string' || !value.url.startsWith('attachment://'))
      return value;
    const name = value.url.slice('attachment://'.length);
    const attachment = message.attachments.find((a) => a.filename === name);
    if (!attachment) return value;
    const size = pngSize(attachment.bytes);
    return {
      ...value,
      url: attachment.url,
      proxy_url: attachment.url,
      ...(size ? { width: size.width, height: size.height } : {}),
    };
  };
  const out: Record<string, unknown> = { type: 'rich', ...embed };
  for (const key of ['image', 'thumbnail']) {
    if (key in out) out[key] = resolve(out[key]);
  }
  return out;
}

function messageType(message: MessageRecord, meta: MessageInteractionMeta | undefined): number {
  if (meta?.commandType === 1 && message.kind === 'reply') return MessageType.ChatInputCommand;
  if (meta?.commandType !== undefined && meta.commandType !== null && message.kind === 'reply') {
    return MessageType.ContextMenuCommand;
  }
  return message.messageReference ? MessageType.Reply : MessageType.Default;
}

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
