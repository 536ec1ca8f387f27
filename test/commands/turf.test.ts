import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/turf` through the real bot, the Discord stand-in and the sandbox. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['turf'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/turf', () => {
  it('shows the turf maps with their holders, and a clan’s standing', async () => {
    const status = await stack.invoke('turf', 'status', {}).final();
    expect(status.embeds[0]?.title).toBe('Turf wars');
    expect(status.embeds[0]?.footer?.text).toMatch(/^\d+ of \d+ maps held/);

    const clan = stack.sandbox.world.samples.clan;
    const standing = await stack.invoke('turf', 'clan', { name: clan }).final();
    expect(standing.embeds[0]?.title).toBe(`Turf wars · ${clan}`);
  });

  it('says, privately, that a clan does not exist', async () => {
    const reply = await stack.invoke('turf', 'clan', { name: 'NoSuchClanAnywhere' }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe(
      'No clan is named **NoSuchClanAnywhere**. Check the spelling and try again.',
    );
  });
});
