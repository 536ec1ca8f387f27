import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/clan` through the real bot, the Discord stand-in and the sandbox. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['clan'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/clan', () => {
  it('shows the profile with its owner and member count, and a page of members', async () => {
    const clan = stack.sandbox.world.clans.find((c) => c.name === stack.sandbox.world.samples.clan)!;
    const profile = await stack.invoke('clan', 'profile', { name: ` ${clan.name} ` }).final();
    const embed = profile.embeds[0]!;
    expect(embed.title).toContain(clan.name);
    const fields = Object.fromEntries((embed.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Owner']).toContain(clan.ownerName);
    expect(fields['Members']).toContain(String(clan.members.length));

    const members = await stack.invoke('clan', 'members', { name: clan.name }).final();
    expect(members.embeds[0]?.title).toBe(`Members of ${clan.name}`);
    const listed = members.embeds[0]?.description ?? '';
    expect(listed).toContain('**#1**');
    expect(clan.members.some((m) => listed.includes(m.playerName))).toBe(true);
  });

  it('says, privately, that a clan does not exist', async () => {
    const reply = await stack.invoke('clan', 'profile', { name: 'NoSuchClanAnywhere' }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(JSON.stringify(reply.embeds)).toContain('NoSuchClanAnywhere');
    expect(reply.embeds[0]?.title).toBe('Not found');
  });
});
