import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks } from '../../src/players/accounts.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/unlink` through the real bot (linking end to end is in link.test.ts). */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['unlink'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/unlink', () => {
  it('removes the caller’s link, and only the caller’s', async () => {
    const links = accountLinks(stack.bot.services);
    const me = '340000000000000001';
    const other = '340000000000000002';
    await links.set(me, { playerName: stack.sandbox.world.samples.player, linkedAt: 1 });
    await links.set(other, { playerName: stack.sandbox.world.samples.verifiedPlayer, linkedAt: 1 });
    const reply = await stack.invoke('unlink', undefined, {}, { userId: me }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe(
      `You are no longer linked to **${stack.sandbox.world.samples.player}**.`,
    );
    expect(await links.get(me)).toBeUndefined();
    expect(await links.get(other)).toMatchObject({ playerName: stack.sandbox.world.samples.verifiedPlayer });
  });

  it('says so when there is nothing to unlink', async () => {
    const reply = await stack.invoke('unlink', undefined, {}, { userId: '340000000000000003' }).final();
    expect(reply.embeds[0]?.description).toBe('Your Discord account is not linked to a game account.');
  });
});
