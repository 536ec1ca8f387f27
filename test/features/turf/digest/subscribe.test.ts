import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../../src/dev/standin/index.ts';
import { invoke, useWorldPerTest, type OptionValue } from '../../../support/announcements.ts';

/** `/subscribe turf … digest idle`: the digest is a clan's, and its idle list part of the digest. */
const fixture = useWorldPerTest();
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;

async function run(name: string, sub: string | undefined, values: Record<string, OptionValue> = {}) {
  const message: MessageRecord = await invoke(fixture.world, name, sub, values, {
    memberPermissions: MANAGER,
  }).final();
  return [
    message.content,
    ...message.embeds.flatMap((e) => [e.title, e.description, ...(e.fields ?? []).map((f) => f.value)]),
  ].join('\n');
}

describe('/subscribe turf with the digest', () => {
  it('turns the digest (and its idle list) on for a clan, and off when subscribed again without it', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const channel = world.channelId;
    const answer = await run('subscribe', 'turf', { channel, clan: 'Vortex', digest: true, idle: true });
    expect(answer).toContain('Daily digest after each turf day, naming the members who scored nothing');
    const [stored] = await world.repos.subscriptions.forGuild(world.guildId);
    expect(stored?.options).toMatchObject({ clanName: 'Vortex', digest: 1, idle: 1 });
    expect(await run('subscriptions', undefined)).toContain('Daily digest after each turf day');

    const off = await run('subscribe', 'turf', { channel, clan: 'Vortex' });
    expect(off).toContain('Subscription updated');
    const [again] = await world.repos.subscriptions.forGuild(world.guildId);
    expect(again?.options).toEqual({ clanId: stored?.options['clanId'], clanName: 'Vortex' });
  });

  it('refuses a digest without a clan, and the idle list without the digest', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const channel = world.channelId;
    expect(await run('subscribe', 'turf', { channel, digest: true })).toContain(
      'The digest is about one clan: name the clan too.',
    );
    expect(await run('subscribe', 'turf', { channel, clan: 'Vortex', idle: true })).toContain(
      'part of the digest: turn the digest on too.',
    );
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toEqual([]);
  });
});
