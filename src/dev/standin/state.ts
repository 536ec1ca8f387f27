import { performance } from 'node:perf_hooks';
import { ChannelType, PermissionFlagsBits, PermissionsBitField } from 'discord.js';
import type { ChannelFailure, MessageRecord, User } from './types.ts';
import { nextSnowflake } from './snowflake.ts';

const flags = PermissionFlagsBits;

export const allPermissions: bigint = PermissionsBitField.All;

/** What @everyone may do in a fresh Discord server. */
export const defaultEveryonePermissions: bigint =
  flags.ViewChannel |
  flags.CreateInstantInvite |
  flags.ChangeNickname |
  flags.SendMessages |
  flags.SendMessagesInThreads |
  flags.CreatePublicThreads |
  flags.CreatePrivateThreads |
  flags.EmbedLinks |
  flags.AttachFiles |
  flags.AddReactions |
  flags.UseExternalEmojis |
  flags.UseExternalStickers |
  flags.ReadMessageHistory |
  flags.UseApplicationCommands |
  flags.Connect |
  flags.Speak |
  flags.UseVAD |
  flags.Stream |
  flags.SendVoiceMessages |
  flags.SendPolls |
  flags.UseExternalApps;

/** The bot's managed role, as an invite link asking for these permissions would create it. */
export const defaultBotRolePermissions: bigint =
  flags.ViewChannel |
  flags.SendMessages |
  flags.EmbedLinks |
  flags.AttachFiles |
  flags.ReadMessageHistory |
  flags.UseExternalEmojis |
  flags.AddReactions;

/** What an app may do in a DM with a user. */
export const dmPermissions: bigint =
  flags.ViewChannel |
  flags.SendMessages |
  flags.EmbedLinks |
  flags.AttachFiles |
  flags.ReadMessageHistory |
  flags.AddReactions |
  flags.UseExternalEmojis |
  flags.UseExternalStickers |
  flags.UseApplicationCommands;

export interface UserState extends User {
  discriminator: string;
}

export interface Overwrite {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface ChannelState {
  id: string;
  guildId: string | null;
  name: string;
  type: number;
  position: number;
  overwrites: Map<string, Overwrite>;
  /** The user of a DM channel. */
  recipientId: string | null;
  lastMessageId: string | null;
}

export interface RoleState {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  position: number;
  /** Managed by an integration (a bot's own role, the booster role): nobody may give or take it. */
  managed: boolean;
  /** The bot a managed role belongs to; null for other managed roles (shown as the booster role). */
  managedBotId: string | null;
}

/** A member role added or removed through the REST API, as the audit log would show it. */
export interface RoleChangeState {
  guildId: string;
  userId: string;
  roleId: string;
  action: 'add' | 'remove';
  /** The `X-Audit-Log-Reason` header, URL-decoded; null when the request had none. */
  reason: string | null;
  /** ms since the stand-in started. */
  at: number;
}

export interface MemberState {
  userId: string;
  roles: string[];
  joinedAt: string;
}

export interface GuildState {
  id: string;
  name: string;
  preferredLocale: string;
  ownerId: string;
  botRoleId: string;
  channels: Map<string, ChannelState>;
  roles: Map<string, RoleState>;
  members: Map<string, MemberState>;
}

/** Who and what created an interaction reply, for the message's `interaction_metadata`. */
export interface MessageInteractionMeta {
  interactionId: string;
  interactionType: number;
  userId: string;
  commandName: string | null;
  commandType: number | null;
  guildId: string | null;
}

export interface DiscordIdentity {
  applicationId: string;
  botUserId: string;
  /** http://127.0.0.1:PORT, known once the server listens. */
  baseUrl(): string;
}

/** The stand-in's Discord: guilds, channels, roles, users and messages, and their API shapes. */
export class DiscordState {
  readonly startedAt = performance.now();
  readonly startedWall = Date.now();
  readonly guilds = new Map<string, GuildState>();
  readonly channels = new Map<string, ChannelState>();
  readonly users = new Map<string, UserState>();
  readonly messages = new Map<string, MessageRecord>();
  readonly messageInteractions = new Map<string, MessageInteractionMeta>();
  readonly channelFailures = new Map<string, ChannelFailure>();
  readonly roleChanges: RoleChangeState[] = [];
  readonly #dmChannels = new Map<string, string>();
  readonly identity: DiscordIdentity;

  constructor(identity: DiscordIdentity) {
    this.identity = identity;
    this.users.set(identity.botUserId, {
      id: identity.botUserId,
      username: 'killfeed',
      globalName: null,
      avatar: null,
      bot: true,
      discriminator: '0000',
    });
  }

  /** ms since the stand-in started. */
  now(): number {
    return performance.now() - this.startedAt;
  }

  bot(): UserState {
    const bot = this.users.get(this.identity.botUserId);
    if (!bot) throw new Error('the bot user is missing');
    return bot;
  }

  ensureUser(partial: Partial<User> = {}): UserState {
    const id = partial.id ?? '200000000000000001';
    const existing = this.users.get(id);
    if (existing) {
      Object.assign(existing, definedOnly(partial));
      return existing;
    }
    const user: UserState = {
      id,
      username: partial.username ?? `user${id.slice(-4)}`,
      globalName: partial.globalName ?? null,
      avatar: partial.avatar ?? null,
      bot: partial.bot ?? false,
      discriminator: '0',
    };
    this.users.set(id, user);
    return user;
  }

  addGuild(g: { id?: string; name?: string; preferredLocale?: string; ownerId?: string }): GuildState {
    const id = g.id ?? nextSnowflake();
    if (this.guilds.has(id)) throw new Error(`guild ${id} already exists`);
    const ownerId = g.ownerId ?? '300000000000000001';
    const owner = this.users.get(ownerId) ?? this.ensureUser({ id: ownerId, username: 'guild-owner' });
    const botRoleId = nextSnowflake();
    const guild: GuildState = {
      id,
      name: g.name ?? 'Test Server',
      preferredLocale: g.preferredLocale ?? 'en-US',
      ownerId: owner.id,
      botRoleId,
      channels: new Map(),
      roles: new Map(),
      members: new Map(),
    };
    guild.roles.set(id, {
      id,
      guildId: id,
      name: '@everyone',
      permissions: defaultEveryonePermissions,
      position: 0,
      managed: false,
      managedBotId: null,
    });
    guild.roles.set(botRoleId, {
      id: botRoleId,
      guildId: id,
      name: this.bot().username,
      permissions: defaultBotRolePermissions,
      position: 1,
      managed: true,
      managedBotId: this.identity.botUserId,
    });
    const joinedAt = new Date().toISOString();
    guild.members.set(this.identity.botUserId, {
      userId: this.identity.botUserId,
      roles: [botRoleId],
      joinedAt,
    });
    guild.members.set(owner.id, { userId: owner.id, roles: [], joinedAt });
    this.guilds.set(id, guild);
    return guild;
  }

  guild(guildId: string): GuildState {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new Error(`unknown guild ${guildId}: add it with addGuild first`);
    return guild;
  }

  addChannel(guildId: string, c: { id?: string; name?: string; type?: number }): ChannelState {
    const guild = this.guild(guildId);
    const id = c.id ?? nextSnowflake();
    if (this.channels.has(id)) throw new Error(`channel ${id} already exists`);
    const channel: ChannelState = {
      id,
      guildId,
      name: c.name ?? `channel-${guild.channels.size + 1}`,
      type: c.type ?? ChannelType.GuildText,
      position: guild.channels.size,
      overwrites: new Map(),
      recipientId: null,
      lastMessageId: null,
    };
    guild.channels.set(id, channel);
    this.channels.set(id, channel);
    return channel;
  }

  /** A member overwrite that leaves the bot exactly `perms` in the channel (unless it is an administrator). */
  setBotPermissions(guildId: string, channelId: string, perms: bigint): ChannelState {
    const guild = this.guild(guildId);
    const channel = guild.channels.get(channelId);
    if (!channel) throw new Error(`unknown channel ${channelId} in guild ${guildId}`);
    const botId = this.identity.botUserId;
    channel.overwrites.set(botId, { id: botId, type: 1, allow: perms, deny: allPermissions & ~perms });
    return channel;
  }

  ensureMember(guild: GuildState, userId: string, roles?: readonly string[]): MemberState {
    let member = guild.members.get(userId);
    if (!member) {
      member = { userId, roles: [], joinedAt: new Date().toISOString() };
      guild.members.set(userId, member);
    }
    if (roles) {
      for (const role of roles) {
        if (!guild.roles.has(role)) throw new Error(`unknown role ${role} in guild ${guild.id}`);
      }
      member.roles = [...roles];
    }
    return member;
  }

  /** Removes a member (not the bot: that would be leaving the guild); false when it was not a member. */
  removeMember(guildId: string, userId: string): boolean {
    if (userId === this.identity.botUserId) throw new Error('the bot cannot be removed from its guild');
    return this.guild(guildId).members.delete(userId);
  }

  dmChannelFor(userId: string): ChannelState {
    const existing = this.#dmChannels.get(userId);
    const known = existing === undefined ? undefined : this.channels.get(existing);
    if (known) return known;
    const channel: ChannelState = {
      id: nextSnowflake(),
      guildId: null,
      name: '',
      type: ChannelType.DM,
      position: 0,
      overwrites: new Map(),
      recipientId: userId,
      lastMessageId: null,
    };
    this.channels.set(channel.id, channel);
    this.#dmChannels.set(userId, channel.id);
    return channel;
  }

  /** Guild-wide permissions, as Discord computes them (owner and Administrator get everything). */
  basePermissions(guild: GuildState, userId: string): bigint {
    if (userId === guild.ownerId) return allPermissions;
    let perms = guild.roles.get(guild.id)?.permissions ?? 0n;
    for (const roleId of guild.members.get(userId)?.roles ?? []) {
      perms |= guild.roles.get(roleId)?.permissions ?? 0n;
    }
    return (perms & flags.Administrator) !== 0n ? allPermissions : perms;
  }

  /** Channel permissions: base, then @everyone, role and member overwrites, in Discord's order. */
  channelPermissions(channel: ChannelState, userId: string): bigint {
    if (channel.guildId === null) return dmPermissions;
    const guild = this.guild(channel.guildId);
    const base = this.basePermissions(guild, userId);
    if (base === allPermissions) return base;
    let perms = base;
    const everyone = channel.overwrites.get(guild.id);
    if (everyone) perms = (perms & ~everyone.deny) | everyone.allow;
    let allow = 0n;
    let deny = 0n;
    for (const roleId of guild.members.get(userId)?.roles ?? []) {
      const overwrite = channel.overwrites.get(roleId);
      if (overwrite?.type === 0) {
        allow |= overwrite.allow;
        deny |= overwrite.deny;
      }
    }
    perms = (perms & ~deny) | allow;
    const member = channel.overwrites.get(userId);
    if (member?.type === 1) perms = (perms & ~member.deny) | member.allow;
    return perms;
  }

  channelFor(channelId: string): ChannelState | undefined {
    return this.channels.get(channelId);
  }

  insertMessage(message: MessageRecord): void {
    this.messages.set(message.id, message);
    const channel = this.channels.get(message.channelId);
    if (channel) channel.lastMessageId = message.id;
  }

  deleteMessage(id: string): void {
    this.messages.delete(id);
  }

  listMessages(channelId?: string): MessageRecord[] {
    const all = [...this.messages.values()];
    return channelId === undefined ? all : all.filter((m) => m.channelId === channelId);
  }

  attachmentUrl(channelId: string, attachmentId: string, filename: string): string {
    return `${this.identity.baseUrl()}/attachments/${channelId}/${attachmentId}/${encodeURIComponent(filename)}`;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
