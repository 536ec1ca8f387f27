import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeMarkdown } from '../../src/render/text.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * `/track` through the real bot: add, list, remove and a refusal (what tracking posts is in
 * test/features/tracking/track.test.ts).
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['track'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
const as = { memberPermissions: MANAGER };

describe('/track', () => {
  it('follows a player into a channel, lists it, and stops', async () => {
    const player = stack.sandbox.world.samples.player;
    const added = await stack.invoke('track', 'add', { player, channel: stack.channelId }, as).final();
    const text = added.embeds[0]?.description ?? '';
    expect(text).toContain(`Now following **${escapeMarkdown(player)}** in <#${stack.channelId}>`);
    const id = /\(id `([^`]+)`\)/.exec(text)?.[1];
    expect(id).toBeDefined();

    const list = await stack.invoke('track', 'list', {}, as).final();
    expect(list.embeds[0]?.title).toMatch(/^Followed players \(1 of \d+\)$/);

    const removed = await stack.invoke('track', 'remove', { id: id! }, as).final();
    expect(removed.embeds[0]?.description).toBe(
      `No longer following **${escapeMarkdown(player)}** (id \`${id}\`).`,
    );
  });

  it('refuses to follow the same player twice in the server', async () => {
    const player = stack.sandbox.world.samples.verifiedPlayer;
    await stack.invoke('track', 'add', { player, channel: stack.channelId }, as).final();
    const again = await stack.invoke('track', 'add', { player, channel: stack.channelId }, as).final();
    expect(again.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(again.embeds[0]?.description).toBe(
      `**${escapeMarkdown(player)}** is already followed in <#${stack.channelId}>.`,
    );
  });
});
