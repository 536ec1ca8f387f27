import { PermissionFlagsBits } from 'discord.js';
import { nextSnowflake } from './snowflake.ts';
import type { DiscordState, GuildState, MemberState, RoleState } from './state.ts';
import type { Member, Role, RoleOptions } from './types.ts';

// Roles and member roles, and the rules Discord applies to who may give and take them.

/**
 * A new role. Without a position it goes where Discord puts a created role, at 1 just above @everyone,
 * and every role from 1 up moves one higher (returned as `moved`, so the gateway can announce them); a
 * given position is taken as it is, ties included.
 */
export function addRole(
  world: DiscordState,
  guildId: string,
  r: RoleOptions,
): { role: RoleState; moved: RoleState[] } {
  const guild = world.guild(guildId);
  const id = r.id ?? nextSnowflake();
  if (guild.roles.has(id)) throw new Error(`role ${id} already exists`);
  const moved: RoleState[] = [];
  if (r.position === undefined) {
    for (const other of guild.roles.values()) {
      if (other.position < 1) continue;
      other.position += 1;
      moved.push(other);
    }
  } else {
    assertPosition(r.position);
  }
  const role: RoleState = {
    id,
    guildId,
    name: r.name ?? `role-${guild.roles.size}`,
    permissions: r.permissions ?? 0n,
    position: r.position ?? 1,
    managed: r.managed ?? false,
    managedBotId: null,
  };
  guild.roles.set(id, role);
  return { role, moved };
}

export function editRole(
  world: DiscordState,
  guildId: string,
  roleId: string,
  changes: { name?: string; permissions?: bigint; position?: number },
): RoleState {
  const role = roleOf(world.guild(guildId), roleId);
  if (changes.position !== undefined) {
    if (roleId === guildId) throw new Error('@everyone stays at position 0');
    assertPosition(changes.position);
    role.position = changes.position;
  }
  if (changes.name !== undefined) role.name = changes.name;
  if (changes.permissions !== undefined) role.permissions = changes.permissions;
  return role;
}

/** Deletes a role and takes it from every member that had it. */
export function deleteRole(world: DiscordState, guildId: string, roleId: string): void {
  const guild = world.guild(guildId);
  const role = roleOf(guild, roleId);
  if (roleId === guildId) throw new Error('@everyone cannot be deleted');
  if (role.managedBotId !== null) throw new Error('a bot role goes only when its bot leaves the guild');
  guild.roles.delete(roleId);
  for (const member of guild.members.values()) {
    if (member.roles.includes(roleId)) member.roles = member.roles.filter((r) => r !== roleId);
  }
}

/** Gives (`add`) or takes a role; false when the member already had it, or already lacked it. */
export function changeMemberRole(member: MemberState, roleId: string, action: 'add' | 'remove'): boolean {
  const has = member.roles.includes(roleId);
  if (action === 'add' ? has : !has) return false;
  member.roles = action === 'add' ? [...member.roles, roleId] : member.roles.filter((r) => r !== roleId);
  return true;
}

/** The position of a member's highest role; 0 (@everyone) when it has none. */
export function highestRolePosition(guild: GuildState, userId: string): number {
  let highest = 0;
  for (const roleId of guild.members.get(userId)?.roles ?? []) {
    highest = Math.max(highest, guild.roles.get(roleId)?.position ?? 0);
  }
  return highest;
}

/**
 * Whether `userId` may give or take `role`, as Discord decides: Manage Roles (Administrator implies it),
 * and a role strictly below the user's highest role (the owner is above every role). Nobody gives or
 * takes @everyone or a managed role.
 */
export function canManageRole(
  world: DiscordState,
  guild: GuildState,
  userId: string,
  role: RoleState,
): boolean {
  if (role.id === guild.id || role.managed) return false;
  const manageRoles = PermissionFlagsBits.ManageRoles;
  if ((world.basePermissions(guild, userId) & manageRoles) !== manageRoles) return false;
  return userId === guild.ownerId || role.position < highestRolePosition(guild, userId);
}

export function publicRole(role: RoleState): Role {
  return {
    id: role.id,
    guildId: role.guildId,
    name: role.name,
    permissions: role.permissions,
    position: role.position,
    managed: role.managed,
  };
}

export function publicMember(guild: GuildState, member: MemberState): Member {
  return { guildId: guild.id, userId: member.userId, roles: member.roles.filter((r) => r !== guild.id) };
}

function roleOf(guild: GuildState, roleId: string): RoleState {
  const role = guild.roles.get(roleId);
  if (!role) throw new Error(`unknown role ${roleId} in guild ${guild.id}`);
  return role;
}

function assertPosition(position: number): void {
  if (!Number.isInteger(position) || position < 1) {
    throw new Error(`role position ${position} must be a whole number from 1 (0 is @everyone's)`);
  }
}
