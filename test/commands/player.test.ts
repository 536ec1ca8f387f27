import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * `/player` through the real bot, the Discord stand-in and the sandbox. Its sections are covered at
 * length elsewhere (test/e2e/player.test.ts, test/e2e/commands.test.ts, test/features/tracking/commands.test.ts,
 * test/features/players/card-command.test.ts); this file checks the command's own refusals and one answer.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['player'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/player', () => {
  it('shows the posts of a player', async () => {
    const player = stack.sandbox.world.samples.player;
    const reply = await stack.invoke('player', 'posts', { name: player }).final();
    expect(reply.flags & EPHEMERAL).toBe(0);
    expect(JSON.stringify(reply.embeds)).toContain(player);
  });

  it('asks for a name when none is given and no account is linked', async () => {
    const reply = await stack.invoke('player', 'profile', {}, { userId: '330000000000000001' }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe(
      'Give a player name, or link your account with /link to make it the default.',
    );
  });

  it('refuses to compare a player with themself', async () => {
    const player = stack.sandbox.world.samples.player;
    const reply = await stack.invoke('player', 'compare', { a: player, b: player.toUpperCase() }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe('Pick two different players.');
  });
});
