import { apiMember, apiRole, apiUser } from './api-shapes.ts';
import { Intent } from './constants.ts';
import type { Gateway } from './gateway.ts';
import type { DiscordState, GuildState, MemberState, RoleState } from './state.ts';

// Gateway events for members and roles, sent to the sessions that asked for them.

/**
 * GUILD_MEMBER_ADD / GUILD_MEMBER_UPDATE need the (privileged) Guild Members intent, except that Discord
 * sends every session the updates of its own member: how discord.js learns the bot's roles changed.
 */
export function announceMember(
  world: DiscordState,
  gateway: Gateway,
  guild: GuildState,
  member: MemberState,
  event: 'GUILD_MEMBER_ADD' | 'GUILD_MEMBER_UPDATE',
): void {
  const own = event === 'GUILD_MEMBER_UPDATE' && member.userId === world.identity.botUserId;
  gateway.dispatch(
    guild.id,
    event,
    { guild_id: guild.id, ...apiMember(world, guild, member) },
    own ? undefined : Intent.GuildMembers,
  );
}

export function announceMemberRemove(
  world: DiscordState,
  gateway: Gateway,
  guildId: string,
  userId: string,
): void {
  const user = world.users.get(userId) ?? world.ensureUser({ id: userId });
  gateway.dispatch(
    guildId,
    'GUILD_MEMBER_REMOVE',
    { guild_id: guildId, user: apiUser(user) },
    Intent.GuildMembers,
  );
}

export function announceRole(
  gateway: Gateway,
  role: RoleState,
  event: 'GUILD_ROLE_CREATE' | 'GUILD_ROLE_UPDATE',
): void {
  gateway.dispatch(role.guildId, event, { guild_id: role.guildId, role: apiRole(role) }, Intent.Guilds);
}

export function announceRoleDelete(gateway: Gateway, guildId: string, roleId: string): void {
  gateway.dispatch(guildId, 'GUILD_ROLE_DELETE', { guild_id: guildId, role_id: roleId }, Intent.Guilds);
}
