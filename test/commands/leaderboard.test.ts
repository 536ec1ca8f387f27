import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/leaderboard` through the real bot, the Discord stand-in and the sandbox. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['leaderboard'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/leaderboard', () => {
  it('ranks a region’s players by MMR, the best first', async () => {
    const world = stack.sandbox.world;
    const best = world.ranked
      .filter((r) => r.season === world.currentSeason && r.region === 3 && r.matches >= 6)
      .sort((a, b) => b.mmr - a.mmr)[0]!;
    const reply = await stack.invoke('leaderboard', 'ranked', { region: 3 }).final();
    expect(reply.embeds[0]?.title).toBe('Ranked leaderboard · Europe');
    const first = (reply.embeds[0]?.description ?? '').split('\n')[0] ?? '';
    expect(first).toContain(`MMR **${best.mmr.toLocaleString('en-US')}**`);
    expect(reply.flags & EPHEMERAL).toBe(0);
  });

  it('refuses a region that is not a ranked one, privately', async () => {
    const reply = await stack.invoke('leaderboard', 'ranked', { region: 9 }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe(
      'That is not a ranked region: choose Asia, Europe or North America.',
    );
  });
});
