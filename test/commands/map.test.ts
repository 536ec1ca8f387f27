import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeMarkdown } from '../../src/render/text.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/map` through the real bot, the Discord stand-in and the sandbox. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['map'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/map', () => {
  it('shows a map’s creator, and its leaderboard best first', async () => {
    const world = stack.sandbox.world;
    const map = world.maps.find((m) => m.name === world.samples.timeBoardMap)!;
    const info = await stack.invoke('map', 'info', { name: map.name }).final();
    expect(info.embeds[0]?.title).toContain(map.name);
    const fields = Object.fromEntries((info.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Creator']).toContain(escapeMarkdown(map.creatorName));

    const board = await stack.invoke('map', 'leaderboard', { name: map.name }).final();
    expect(board.embeds[0]?.title).toBe(`Leaderboard of ${map.name}`);
    const first = (board.embeds[0]?.description ?? '').split('\n')[0] ?? '';
    expect(first).toMatch(/^\*\*🥇\*\* /);
    expect((map.boards.time ?? []).some((entry) => first.includes(escapeMarkdown(entry.playerName)))).toBe(
      true,
    );
  });

  it('says, privately, that a hidden map cannot be found', async () => {
    const hidden = stack.sandbox.world.samples.hiddenMap;
    const reply = await stack.invoke('map', 'info', { name: hidden }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toContain('No map named');
    expect(reply.embeds[0]?.description).toContain(hidden);
  });
});
