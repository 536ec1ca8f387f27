import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionRepository } from '../../src/announcements/records/subscriptions.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/unsubscribe` through the real bot (every kind's round trip is in subscribe.test.ts). */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['subscribe', 'unsubscribe'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;

describe('/unsubscribe', () => {
  it('removes a subscription of this server by its id', async () => {
    const as = { memberPermissions: MANAGER };
    await stack.invoke('subscribe', 'maps', { channel: stack.channelId }, as).final();
    const repository = new SubscriptionRepository(stack.bot.services.db);
    const [made] = await repository.forGuild(stack.guildId);
    expect(made).toBeDefined();
    const reply = await stack.invoke('unsubscribe', undefined, { id: made!.id.toUpperCase() }, as).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(await repository.get(made!.id)).toBeUndefined();
  });

  it('refuses an id this server does not have', async () => {
    const reply = await stack
      .invoke('unsubscribe', undefined, { id: 'nope42' }, { memberPermissions: MANAGER })
      .final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe(
      'This server has no subscription with the id nope42. See /subscriptions.',
    );
  });
});
