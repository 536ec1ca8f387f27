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

  it('says a score map has no time board, instead of "nobody is on it yet"', async () => {
    const name = stack.sandbox.world.samples.scoreBoardMap;
    const reply = await stack.invoke('map', 'leaderboard', { name, type: 'time' }).final();
    expect(reply.embeds[0]?.description).toBe(
      `**${escapeMarkdown(name)}** is a score map: it has no time leaderboard. Leave out \`type\` to see its score board.`,
    );
  });

  it('gives a position out of the board’s size, and the info a play link', async () => {
    const world = stack.sandbox.world;
    const map = world.maps.find((m) => m.name === world.samples.timeBoardMap)!;
    const size = map.boards.time?.length ?? 0;
    expect(size).toBeGreaterThan(25);
    const board = await stack.invoke('map', 'leaderboard', { name: map.name }).final();
    const second = /^\*\*🥈\*\* (.+?) · /.exec((board.embeds[0]?.description ?? '').split('\n')[1] ?? '');
    const player = map.boards.time?.find((entry) => escapeMarkdown(entry.playerName) === second?.[1]);
    expect(player).toBeDefined();
    const rank = await stack.invoke('map', 'rank', { name: map.name, player: player!.playerName }).final();
    const position = rank.embeds[0]?.fields?.find((f) => f.name === 'Position')?.value;
    expect(position).toBe(`🥈 of ${size}`);
    // The player's name in another case finds the same entry (the board named the player just now).
    const lower = player!.playerName.toLowerCase();
    expect(lower).not.toBe(player!.playerName);
    const again = await stack.invoke('map', 'rank', { name: map.name, player: lower }).final();
    expect(again.embeds[0]?.fields?.find((f) => f.name === 'Position')?.value).toBe(`🥈 of ${size}`);

    const info = await stack.invoke('map', 'info', { name: map.name }).final();
    const play = info.embeds[0]?.fields?.find((f) => f.name === 'Play it')?.value;
    expect(play).toBe(
      `https://krunker.io/?play=${encodeURIComponent(map.name).replace(/[^A-Za-z0-9%-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
    );
  });

  it('lists the featured maps with their creators and play links', async () => {
    const reply = await stack.invoke('map', 'featured', {}).final();
    const lines = (reply.embeds[0]?.description ?? '').split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/ · ▶ https:\/\/krunker\.io\/\?play=[A-Za-z0-9%-]+$/);
  });

  it('says, privately, that a hidden map cannot be found', async () => {
    const hidden = stack.sandbox.world.samples.hiddenMap;
    const reply = await stack.invoke('map', 'info', { name: hidden }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toContain('No map named');
    expect(reply.embeds[0]?.description).toContain(hidden);
  });
});
