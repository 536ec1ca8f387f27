import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/render/text.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import type { MessageRecord } from '../../src/dev/standin/index.ts';

/**
 * Without a developer key, or with one the service refuses, the commands whose data the game tier also
 * carries answer from it, and their footer says so.
 */
const EPHEMERAL = 64;
const NOTE = 'Source: the game API without a key';

let keyless: TestStack;
let refused: TestStack;
const COMMANDS = ['player', 'clan', 'map', 'mods', 'market'];

beforeAll(async () => {
  keyless = await startTestStack({ commands: COMMANDS, announcements: false, env: { GAME_API_KEY: '' } });
  // The sandbox's revoked key (the same for the same seed) is answered 403 `Not allowed.`.
  refused = await startTestStack({
    commands: COMMANDS,
    announcements: false,
    env: { GAME_API_KEY: keyless.sandbox.keys.revoked },
  });
  if (refused.config.game.apiKey !== refused.sandbox.keys.revoked) throw new Error('not the revoked key');
}, 120_000);

afterAll(async () => {
  await keyless.stop();
  await refused.stop();
});

function footer(message: MessageRecord): string {
  return message.embeds.at(-1)?.footer?.text ?? '';
}

function fields(message: MessageRecord): Record<string, string> {
  return Object.fromEntries((message.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
}

type Case = [string, string, (s: TestStack) => Record<string, string | number>, (s: TestStack) => string];
const samples = (s: TestStack) => s.sandbox.world.samples;
const cases: Case[] = [
  ['player', 'profile', (s) => ({ name: samples(s).player }), (s) => samples(s).player],
  ['clan', 'profile', (s) => ({ name: samples(s).clan }), (s) => samples(s).clan],
  ['clan', 'members', (s) => ({ name: samples(s).clan }), (s) => samples(s).clan],
  ['map', 'info', (s) => ({ name: samples(s).timeBoardMap }), (s) => samples(s).timeBoardMap],
  ['map', 'leaderboard', (s) => ({ name: samples(s).timeBoardMap }), (s) => samples(s).timeBoardMap],
  ['mods', 'info', (s) => ({ name: samples(s).mod }), (s) => samples(s).mod],
  ['market', 'skin', (s) => ({ skin: samples(s).skinIndex }), (s) => `#${samples(s).skinIndex}`],
];

describe.each([
  ['no key configured', () => keyless],
  ['the key refused (403)', () => refused],
])('%s', (_label, stackOf) => {
  it.each(cases)('/%s %s answers from the game tier and says so', async (command, sub, values, shows) => {
    const stack = stackOf();
    const message = await stack.invoke(command, sub, values(stack)).final(20_000);
    expect(checkMessageLimits(message)).toEqual([]);
    expect(message.flags & EPHEMERAL).toBe(0);
    expect(message.embeds.length).toBeGreaterThan(0);
    expect(JSON.stringify(message.embeds)).toContain(shows(stack));
    expect(footer(message), `/${command} ${sub} names its source`).toContain(NOTE);
  });
});

describe('what the game tier lacks', () => {
  it('costs the profile its level and KR lines only', async () => {
    const world = keyless.sandbox.world;
    const player = world.players.find((p) => p.name === world.samples.player)!;
    const message = await keyless.invoke('player', 'profile', { name: player.name }).final(20_000);
    const shown = fields(message);
    expect(shown['Level']).toBe('—');
    expect(shown['KR']).toBe('—');
    expect(shown['Score']).toBe(player.stats.score.toLocaleString('en-US'));
    expect(shown['Kills']).toBe(player.stats.kills.toLocaleString('en-US'));
    expect(shown['Games']).toBe(player.stats.games.toLocaleString('en-US'));
  });

  it('costs a skin its top owners only (ids in the game tier)', async () => {
    const skinIndex = keyless.sandbox.world.samples.skinIndex;
    const market = keyless.sandbox.world.market[skinIndex]!;
    const message = await keyless.invoke('market', 'skin', { skin: skinIndex }).final(20_000);
    const shown = fields(message);
    expect(shown['Active listings']).toContain(String(market.listings.length));
    const cheapest = Math.min(...market.listings.map((l) => l.price));
    expect(shown['Lowest price']).toContain(cheapest.toLocaleString('en-US'));
    expect(JSON.stringify(message.embeds)).not.toContain('Top owners');
    expect(JSON.stringify(message.embeds)).not.toContain('Nobody owns');
    expect(message.attachments[0]?.bytes.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('leaves a reply answered with a key as it was', async () => {
    const keyed = await startTestStack({ commands: ['player'], announcements: false });
    try {
      const message = await keyed
        .invoke('player', 'profile', { name: keyed.sandbox.world.samples.player })
        .final();
      expect(footer(message)).not.toContain(NOTE);
      expect(fields(message)['Level']).not.toBe('—');
    } finally {
      await keyed.stop();
    }
  }, 60_000);

  it('does not hide a missing player behind the fallback', async () => {
    const message = await keyless.invoke('player', 'profile', { name: 'NoSuchPlayer000' }).final(20_000);
    expect(message.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(message.embeds[0]?.description).toContain('NoSuchPlayer000');
  });
});
