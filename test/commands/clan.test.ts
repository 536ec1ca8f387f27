import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../src/dev/standin/index.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/clan` through the real bot, the Discord stand-in and the sandbox. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['clan'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;
/** The sandbox's clan whose name, message of the day and split mode are full of markup. */
const MARKDOWN_CLAN = '*_~|Ghosts|~_*';

type Button = { custom_id?: string; label?: string; disabled?: boolean };
const buttonsOf = (message: MessageRecord) =>
  (message.components as Array<{ components?: Button[] }>).flatMap((row) => row.components ?? []);
const fieldsOf = (message: MessageRecord) =>
  Object.fromEntries((message.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
const lines = (message: MessageRecord) => (message.embeds[0]?.description ?? '').split('\n');

async function game<T>(path: string): Promise<T> {
  const reply = await fetch(`${stack.sandbox.urls.base}${path}`);
  return ((await reply.json()) as { data: T }).data;
}

describe('/clan', () => {
  it('shows the profile with its owner and member count, and a page of members', async () => {
    const clan = stack.sandbox.world.clans.find((c) => c.name === stack.sandbox.world.samples.clan)!;
    const profile = await stack.invoke('clan', 'profile', { name: ` ${clan.name} ` }).final();
    const embed = profile.embeds[0]!;
    expect(embed.title).toContain(clan.name);
    const fields = fieldsOf(profile);
    expect(fields['Owner']).toContain(clan.ownerName);
    expect(fields['Members']).toContain(String(clan.members.length));

    const members = await stack.invoke('clan', 'members', { name: clan.name }).final();
    expect(members.embeds[0]?.title).toBe(`Members of ${clan.name}`);
    const listed = members.embeds[0]?.description ?? '';
    expect(listed.split('\n')[0]).toMatch(/^• /);
    expect(listed).not.toContain('**#1**');
    expect(members.embeds[0]?.footer?.text).toContain('by role, then score');
    expect(clan.members.some((m) => listed.includes(m.playerName))).toBe(true);
  });

  it('shows the message of the day and how the clan splits turf earnings', async () => {
    const clan = stack.sandbox.world.clans.find((c) => c.name === stack.sandbox.world.samples.clan)!;
    const loot = await game<{ mode: string; leader_share: number; member_share: number }>(
      `/clans/${clan.id}/loot-config`,
    );
    const fields = fieldsOf(await stack.invoke('clan', 'profile', { name: clan.name }).final());
    expect(fields['Message of the day']).toBe(clan.motd === '' ? 'No message of the day.' : clan.motd);
    expect(fields['Turf earnings split']).toBe(
      `${loot.mode === 'points' ? 'Split by points scored' : 'Split equally between members'}\n` +
        `Leader ${loot.leader_share}% · members ${loot.member_share}%`,
    );
  });

  it("keeps a hostile clan's name, message of the day and split mode as text", async () => {
    const profile = await stack.invoke('clan', 'profile', { name: MARKDOWN_CLAN }).final();
    expect(profile.embeds[0]?.title).toBe('\\*\\_\\~\\|Ghosts\\|\\~\\_\\*');
    const fields = fieldsOf(profile);
    const motd = fields['Message of the day'] ?? '';
    expect(motd).toContain('\\*\\*Raid tonight\\*\\* @\u200beveryone <\u200b@123> \\[join\\](https://e.vil)');
    expect(motd.split('\n')[1]).toBe('\\# be there');
    expect(fields['Turf earnings split']).toMatch(
      /^Split: unknown mode \\\*\\\*greedy\\\*\\\* @\u200bhere\n/,
    );
    expect(JSON.stringify(profile.embeds)).not.toMatch(/@(everyone|here)|<@\d/);
  });

  it('browses the recruitment board by page; a clan’s button opens its profile, which leads back', async () => {
    const recruiting = stack.sandbox.world.clans.filter((c) => c.recruiting);
    expect(recruiting.length).toBeGreaterThan(10);
    const board = await stack.invoke('clan', 'recruitment', {}).final();
    expect(board.embeds[0]?.title).toBe('Clans recruiting');
    expect(lines(board)[0]).toBe('Region: any · language: any');
    expect(lines(board).slice(2)).toHaveLength(10);
    const next = buttonsOf(board).find((b) => b.label === 'Next ▶');
    const second = await stack.discord.clickButton(board, next?.custom_id ?? '').final();
    expect(lines(second)[2]).toMatch(/^\*\*#11\*\* /);

    const europe = await stack.invoke('clan', 'recruitment', { region: 3, language: 'en' }).final();
    const expected = recruiting.filter((c) => c.region === 3 && c.language === 'en');
    expect(lines(europe)[0]).toBe('Region: Europe · language: English');
    expect(lines(europe).slice(2)).toHaveLength(Math.max(1, expected.length));

    const first = recruiting[10]!;
    const open = buttonsOf(second).find((b) => b.label === first.name);
    expect(open).toBeDefined();
    const profile = await stack.discord.clickButton(second, open?.custom_id ?? '').final();
    expect(profile.embeds[0]?.title).toBe(first.name);
    expect(fieldsOf(profile)['Message of the day']).toBeDefined();
    const back = buttonsOf(profile).find((b) => b.label === 'Back to recruitment');
    const again = await stack.discord.clickButton(profile, back?.custom_id ?? '').final();
    expect(lines(again)).toEqual(lines(second));
  });

  it('says, privately, that a clan does not exist, that names are exact, and offers a close one', async () => {
    const reply = await stack.invoke('clan', 'profile', { name: 'NoSuchClanAnywhere' }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.title).toBe('Not found');
    expect(reply.embeds[0]?.description).toContain(
      'No clan named `NoSuchClanAnywhere`. Clan names are exact: capitals, spaces and symbols must match.',
    );
    const clan = stack.sandbox.world.samples.clan;
    const lower = await stack.invoke('clan', 'profile', { name: clan.toLowerCase() }).final();
    const choice = buttonsOf(lower).find((b) => b.label === clan);
    expect(choice).toBeDefined();
    const shown = await stack.discord.clickButton(lower, choice?.custom_id ?? '').final();
    expect(shown.embeds[0]?.title).toBe(clan);
  });
});
