import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * `/server leaderboard` through the real bot (the ranking of linked members with their numbers is in
 * test/features/tracking/commands.test.ts): a server with nobody linked, and a DM.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['server'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/server', () => {
  it('says how to get on the board when nobody here is linked, without asking the game', async () => {
    const before = stack.sandbox.requests.count(/player/);
    const reply = await stack.invoke('server', 'leaderboard', {}).final();
    expect(reply.embeds[0]?.description).toContain('Nobody here has a verified link with numbers yet.');
    expect(stack.sandbox.requests.count(/player/)).toBe(before);
  });

  it('refuses in a DM, privately', async () => {
    const reply = await stack.invoke('server', 'leaderboard', {}, { guildId: null }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe('This works in a server only.');
  });
});
