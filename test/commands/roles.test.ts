import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * `/roles` through the real bot (rules of every kind, syncs and their refusals are in
 * test/features/roles/roles.test.ts): an empty list, and who may change the rules.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['roles'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;
const ADMIN = PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles;

describe('/roles', () => {
  it('lists no rules in a new server', async () => {
    const reply = await stack.invoke('roles', 'list', {}, { memberPermissions: ADMIN }).final();
    expect(reply.embeds[0]?.title).toBe('Role rules (0)');
    expect(reply.embeds[0]?.description).toBe('No role rules yet. Add one with /roles add.');
  });

  it('refuses a member without Manage Roles, and a DM', async () => {
    const member = await stack
      .invoke('roles', 'list', {}, { memberPermissions: PermissionFlagsBits.ManageGuild })
      .final();
    expect(member.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(member.embeds[0]?.description).toBe(
      "You need Manage Roles and Manage Server to change this server's role rules.",
    );
    const dm = await stack.invoke('roles', 'list', {}, { guildId: null }).final();
    expect(dm.embeds[0]?.description).toBe('This works in a server only.');
  });
});
