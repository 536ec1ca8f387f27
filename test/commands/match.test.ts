import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/match` through the real bot, the Discord stand-in and the sandbox. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['match'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/match', () => {
  it('shows a ranked match by its id, beyond 2^53, with its players', async () => {
    const world = stack.sandbox.world;
    const match = world.matches.find((m) => m.id === world.samples.matchId)!;
    expect(Number.isSafeInteger(Number(match.id))).toBe(false);
    const reply = await stack.invoke('match', undefined, { id: match.id }).final();
    expect(reply.embeds[0]?.title).toBe(`Ranked match ${match.id}`);
    const text = JSON.stringify(reply.embeds);
    expect(match.participants.some((p) => text.includes(p.playerName))).toBe(true);
    expect(reply.flags & EPHEMERAL).toBe(0);
  });

  it('refuses an id that is not digits before asking the game, privately', async () => {
    const before = stack.sandbox.requests.count(/match/);
    const reply = await stack.invoke('match', undefined, { id: '12ab' }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toContain('A match id is digits only');
    expect(stack.sandbox.requests.count(/match/)).toBe(before);
  });
});
