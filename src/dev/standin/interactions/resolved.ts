import { apiMember, apiRole, apiUser } from '../api-shapes.ts';
import { ComponentKind, OptionKind } from '../constants.ts';
import type { ChannelState, DiscordState, GuildState } from '../state.ts';

/** `resolved` for the user, role, mentionable and channel ids a command or select carries. */
export function resolveValues(
  world: DiscordState,
  guild: GuildState | null,
  values: ReadonlyArray<{ type: number; value: string }>,
): Record<string, unknown> | null {
  const byType = new Map<number, string[]>();
  for (const { type, value } of values) byType.set(type, [...(byType.get(type) ?? []), value]);
  const resolved: Record<string, Record<string, unknown>> = {};
  const add = (key: string, id: string, value: unknown): void => {
    resolved[key] ??= {};
    resolved[key][id] = value;
  };
  const addUser = (id: string): void => {
    const user = world.users.get(id) ?? world.ensureUser({ id });
    add('users', id, apiUser(user));
    const member = guild?.members.get(id);
    if (guild && member) {
      const { user: _user, ...rest } = apiMember(world, guild, member);
      add('members', id, { ...rest, permissions: world.basePermissions(guild, id).toString() });
    }
  };
  const addRole = (id: string): boolean => {
    const role = guild?.roles.get(id);
    if (role) add('roles', id, apiRole(role));
    return role !== undefined;
  };
  for (const id of byType.get(OptionKind.User) ?? []) addUser(id);
  for (const id of byType.get(OptionKind.Role) ?? []) {
    if (!addRole(id)) throw new Error(`role option: unknown role ${id}`);
  }
  for (const id of byType.get(OptionKind.Mentionable) ?? []) {
    if (!addRole(id)) addUser(id);
  }
  for (const id of byType.get(OptionKind.Channel) ?? []) {
    const channel = world.channels.get(id);
    if (!channel) throw new Error(`channel option: unknown channel ${id}`);
    add('channels', id, resolvedChannel(world, channel));
  }
  return Object.keys(resolved).length > 0 ? resolved : null;
}

/** `resolved` for the ids a user, role, mentionable or channel select sends. */
export function resolveSelectValues(
  world: DiscordState,
  guildId: string | null,
  values: readonly string[],
  type: number,
): Record<string, unknown> | null {
  const guild = guildId === null ? null : world.guild(guildId);
  const optionType =
    type === ComponentKind.UserSelect
      ? OptionKind.User
      : type === ComponentKind.RoleSelect
        ? OptionKind.Role
        : type === ComponentKind.ChannelSelect
          ? OptionKind.Channel
          : OptionKind.Mentionable;
  return resolveValues(
    world,
    guild,
    values.map((value) => ({ type: optionType, value })),
  );
}

function resolvedChannel(world: DiscordState, channel: ChannelState): Record<string, unknown> {
  return {
    id: channel.id,
    name: channel.name,
    type: channel.type,
    permissions: world.channelPermissions(channel, world.identity.botUserId).toString(),
    ...(channel.guildId === null ? {} : { guild_id: channel.guildId }),
  };
}

// --- the bot answering ---------------------------------------------------------------------
