import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * `/alert` through the real bot (the worker firing alerts, limits and blocked DMs are in
 * test/features/alerts/commands.test.ts): adding one to the DMs, listing it, and the refusals.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['alert'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/alert', () => {
  it('sets an alert for the caller’s DMs and lists it', async () => {
    const as = { userId: '350000000000000001' };
    const skin = stack.sandbox.world.samples.skinIndex;
    const added = await stack
      .invoke('alert', 'add', { skin, direction: 'below', price: 5 }, as)
      .final(20_000);
    expect(added.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(added.embeds[0]?.title).toBe('Price alert set');
    expect(added.embeds[0]?.description).toContain('at or below 5 KR');
    expect(added.embeds[0]?.description).toContain('your DMs');

    const list = await stack.invoke('alert', 'list', {}, as).final();
    expect(list.embeds[0]?.title).toMatch(/^Your price alerts \(1 of \d+\)$/);
  });

  it('refuses a price of 0 and a channel without Manage Server', async () => {
    const as = { userId: '350000000000000002' };
    const skin = stack.sandbox.world.samples.skinIndex;
    const zero = await stack.invoke('alert', 'add', { skin, direction: 'above', price: 0 }, as).final();
    expect(zero.embeds[0]?.description).toMatch(/^The price must be a whole number of KR from 1 to /);
    const channel = await stack
      .invoke(
        'alert',
        'add',
        { skin, direction: 'above', price: 10, channel: stack.channelId },
        { ...as, memberPermissions: 0n },
      )
      .final();
    expect(channel.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(channel.embeds[0]?.description).toContain('needs the Manage Server permission');
  });
});
