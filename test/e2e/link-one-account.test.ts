import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleRules } from '../../src/features/roles/rules.ts';
import { startHarness, type Harness } from '../support/secrets.ts';

/**
 * The account owner posts two users' codes in one post: each verifies in turn, the second moves the link,
 * and exactly one user ends linked and holding the rule's role. The real bot (discord.js) between the
 * Discord stand-in and the game sandbox.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => h.close());

const description = (message: { embeds: Array<{ description?: string }> }) =>
  message.embeds[0]?.description ?? '';
const codeIn = (text: string) => /KF-[A-Z0-9]{6}/.exec(text)?.[0];

describe('one post carrying two users’ codes', () => {
  it('leaves exactly one user linked and holding roles', async () => {
    const { standin: s, guild } = h;
    const g = guild.id;
    const botTop = s.addRole(g, {
      name: 'killfeed',
      permissions: PermissionFlagsBits.ManageRoles,
      position: 20,
    });
    s.setMemberRoles(g, s.botUserId, [...(s.memberRoles(g, s.botUserId) ?? []), botTop.id]);
    const verified = s.addRole(g, { name: 'Verified', position: 5 });
    await new RoleRules(h.bot.services.db).add({
      guildId: g,
      kind: 'verified',
      params: {},
      roleIds: [verified.id],
      createdBy: '350000000000000900',
      createdAt: h.bot.services.clock.now(),
    });
    const a = '350000000000000001';
    const b = '350000000000000002';
    s.addMember(g, { id: a, username: 'a' });
    s.addMember(g, { id: b, username: 'b' });

    const player = h.sandbox.world.samples.rankedPlayer;
    const codeA = codeIn(description(await h.command('link', 'name', { player }, { userId: a }).final()));
    const codeB = codeIn(description(await h.command('link', 'name', { player }, { userId: b }).final()));
    expect(codeA).toBeDefined();
    expect(codeB).toBeDefined();
    h.post(player, `${codeA ?? ''} ${codeB ?? ''}`);

    const first = await h.command('link', 'verify', {}, { userId: a }).final();
    expect(first.embeds[0]?.title).toBe('Account linked');
    expect(s.memberRoles(g, a)).toEqual([verified.id]);
    const second = await h.command('link', 'verify', {}, { userId: b }).final();
    expect(description(second)).toContain('This game account was linked to another Discord account');

    const links = await h.bot.services.db.kysely.selectFrom('account_links').select('user_id').execute();
    expect(links).toEqual([{ user_id: b }]);
    expect(s.memberRoles(g, a)).toEqual([]);
    expect(s.memberRoles(g, b)).toEqual([verified.id]);
    const holders = [a, b].filter((id) => (s.memberRoles(g, id) ?? []).includes(verified.id));
    expect(holders).toEqual([b]);
  });
});
