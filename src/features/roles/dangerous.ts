import { PermissionFlagsBits } from 'discord.js';

/**
 * Permissions that make a role a moderator's or an administrator's: a rule giving such a role hands them
 * to whoever links a matching game account, so it is saved only once the caller confirms it, and
 * `/roles list` marks it.
 */
export const DANGEROUS_PERMISSIONS = [
  'Administrator',
  'ManageGuild',
  'ManageRoles',
  'BanMembers',
  'KickMembers',
  'ManageChannels',
  'MentionEveryone',
] as const;
export type DangerousPermission = (typeof DANGEROUS_PERMISSIONS)[number];

/** The dangerous permissions among a role's, in the order above. */
export function dangerousPermissions(bits: bigint): DangerousPermission[] {
  return DANGEROUS_PERMISSIONS.filter((name) => (bits & PermissionFlagsBits[name]) !== 0n);
}

/** Each role's dangerous permissions, for the roles that have any. */
export function dangersOf(
  roles: Iterable<{ readonly id: string; readonly permissions: bigint | { readonly bitfield: bigint } }>,
): Map<string, DangerousPermission[]> {
  const dangers = new Map<string, DangerousPermission[]>();
  for (const role of roles) {
    const bits = typeof role.permissions === 'bigint' ? role.permissions : role.permissions.bitfield;
    const found = dangerousPermissions(bits);
    if (found.length > 0) dangers.set(role.id, found);
  }
  return dangers;
}
