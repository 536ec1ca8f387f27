import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/lobbies` through the real bot, the Discord stand-in and the sandbox's matchmaker. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['lobbies'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/lobbies', () => {
  it('lists the public lobbies of a region, each with its map', async () => {
    const inRegion = stack.sandbox.world.lobbies.filter((l) => l.region === 'de-fra');
    expect(inRegion.length).toBeGreaterThan(0);
    const reply = await stack.invoke('lobbies', undefined, { region: 'de-fra' }).final();
    const embed = reply.embeds[0]!;
    expect(embed.title).toBe('Public lobbies · Frankfurt');
    const text = JSON.stringify(embed);
    expect(inRegion.some((lobby) => text.includes(lobby.mapName))).toBe(true);
    expect(reply.flags & EPHEMERAL).toBe(0);
  });

  it('refuses a region the lobby list does not have, privately', async () => {
    const reply = await stack.invoke('lobbies', undefined, { region: 'mars-1' }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toBe(
      'That is not a region of the lobby list: choose one from the list.',
    );
  });
});
