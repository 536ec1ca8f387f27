import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * `/subscriptions` through the real bot (making, listing and removing subscriptions of every kind is in
 * subscribe.test.ts): what a manager and a plain member get.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['subscribe', 'subscriptions'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;

describe('/subscriptions', () => {
  it('lists this server’s subscriptions for a manager', async () => {
    const as = { memberPermissions: MANAGER };
    const empty = await stack.invoke('subscriptions', undefined, {}, as).final();
    expect(empty.embeds[0]?.title).toBe('Announcements in this server');
    expect(empty.embeds[0]?.description).toContain('Nothing is announced here yet');

    await stack.invoke('subscribe', 'turf', { channel: stack.channelId }, as).final();
    const listed = await stack.invoke('subscriptions', undefined, {}, as).final();
    expect(JSON.stringify(listed.embeds)).toContain('Turf wars');
    expect(JSON.stringify(listed.embeds)).toContain(`<#${stack.channelId}>`);
  });

  it('refuses a member without Manage Server, privately', async () => {
    const reply = await stack
      .invoke('subscriptions', undefined, {}, { memberPermissions: PermissionFlagsBits.ViewChannel })
      .final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe(
      "Only members with the **Manage Server** permission can change this server's announcements.",
    );
  });
});
