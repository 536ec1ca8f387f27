import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/render/text.ts';
import { startTestStack, type Stack } from '../support/stack.ts';
import { within } from '../support/processes.ts';
import { ManualClock } from '../support/clock.ts';
import type { NameIndex } from '../../src/names/index.ts';
import type { MessageRecord, PendingInteraction } from '../../src/dev/standin/index.ts';

/**
 * Every command through the real discord.js client, connected to the Discord stand-in, with the game
 * API sandbox behind the tier client.
 */
let stack: Stack;
/** The game API sandbox's delays (its slow market endpoint) wait on this clock. */
const latency = new ManualClock();
const EPHEMERAL = 64;

beforeAll(async () => {
  stack = await startTestStack({
    sandbox: {
      latency: { marketSkinColdMs: 4_000, marketSkinWarmMs: 0 },
      // The slow endpoint answers when the test moves this clock, not after four seconds of real time.
      sleep: (ms, signal) => latency.sleep(ms, signal),
    },
  });
}, 60_000);

afterEach(() => {
  stack.sandbox.faults.clear();
});

afterAll(async () => {
  await stack.stop();
});

const w = () => stack.sandbox.world.samples;

async function answered(pending: PendingInteraction): Promise<MessageRecord> {
  const message = await pending.final(20_000);
  expect(
    checkMessageLimits({ content: message.content, embeds: message.embeds, components: message.components }),
  ).toEqual([]);
  expect(message.allowedMentions).toEqual({ parse: [] });
  return message;
}

function button(message: MessageRecord, label: string): string {
  for (const row of message.components) {
    for (const part of ('components' in row ? row.components : []) as unknown as Array<
      Record<string, unknown>
    >) {
      if (part.type === 2 && typeof part.label === 'string' && part.label.includes(label))
        return String(part.custom_id);
    }
  }
  throw new Error(`no button "${label}"`);
}

const everyCommand: Array<[string, string | undefined, () => Record<string, string | number>]> = [
  ['player', 'profile', () => ({ name: w().player })],
  ['player', 'matches', () => ({ name: w().rankedPlayer, season: 7, page: 1 })],
  ['player', 'inventory', () => ({ name: w().player })],
  ['player', 'listings', () => ({ name: w().player })],
  ['player', 'posts', () => ({ name: w().player })],
  ['clan', 'profile', () => ({ name: w().clan })],
  ['clan', 'members', () => ({ name: w().clan })],
  ['map', 'info', () => ({ name: w().timeBoardMap })],
  ['map', 'leaderboard', () => ({ name: w().scoreBoardMap, type: 'score', order: 1 })],
  ['map', 'featured', () => ({})],
  ['mods', 'list', () => ({})],
  ['mods', 'info', () => ({ name: w().mod })],
  ['match', undefined, () => ({ id: w().matchId })],
  ['leaderboard', 'ranked', () => ({ region: 3 })],
  ['turf', 'status', () => ({})],
  ['turf', 'clan', () => ({ name: w().clan })],
  ['turf', 'player', () => ({ name: w().player })],
  ['lobbies', undefined, () => ({})],
];

describe('every command answers with an embed within Discord limits', () => {
  it.each(everyCommand)('/%s %s', async (command, sub, values) => {
    const message = await answered(stack.invoke(command, sub, values()));
    expect(message.embeds.length).toBeGreaterThan(0);
    expect(message.flags & EPHEMERAL).toBe(0);
  });
});

describe('pagination and menus', () => {
  it('pages ranked matches forward and back', async () => {
    const first = await answered(stack.invoke('player', 'matches', { name: w().rankedPlayer }));
    const second = await answered(stack.discord.clickButton(first, button(first, 'Next')));
    expect(second.embeds[0]?.description).not.toBe(first.embeds[0]?.description);
    const back = await answered(stack.discord.clickButton(second, button(second, 'Previous')));
    expect(back.embeds[0]?.description).toBe(first.embeds[0]?.description);
  });

  it('pages the mods list and a map leaderboard', async () => {
    const mods = await answered(stack.invoke('mods', 'list', {}));
    const next = await answered(stack.discord.clickButton(mods, button(mods, 'Next')));
    expect(next.embeds[0]?.description).toContain('11.');
    const board = await answered(stack.invoke('map', 'leaderboard', { name: w().timeBoardMap }));
    const page2 = await answered(stack.discord.clickButton(board, button(board, 'Next')));
    expect(page2.embeds[0]?.description).toContain('#26');
  });

  it('switches profile sections with the menu', async () => {
    const profile = await answered(stack.invoke('player', 'profile', { name: w().player }));
    const menu = (profile.components[0] as unknown as { components: Array<{ custom_id: string }> })
      .components[0]!;
    const combat = await answered(stack.discord.selectMenu(profile, menu.custom_id, ['combat']));
    expect(combat.embeds[0]?.footer?.text).toContain('Combat');
  });
});

/** Resolves once `names` knows a skin: at once, or when the next seeding (the background preload) brings some. */
function skinsLearned(names: NameIndex): Promise<void> {
  if (names.skinCount > 0) return Promise.resolve();
  return new Promise((resolve) => {
    const seed = names.seedSkins.bind(names);
    names.seedSkins = (skins) => {
      seed(skins);
      if (names.skinCount === 0) return;
      names.seedSkins = seed;
      resolve();
    };
  });
}

describe('autocomplete', () => {
  it('suggests players the bot has seen', async () => {
    await answered(stack.invoke('player', 'profile', { name: w().verifiedPlayer }));
    const pending = stack.autocomplete('player', 'profile', 'name', w().verifiedPlayer.slice(0, 5));
    const response = await pending.response();
    expect(response.type).toBe(8);
    const choices = (response.data as { choices: Array<{ name: string }> }).choices;
    expect(choices.map((c) => c.name)).toContain(w().verifiedPlayer);
  });

  it('suggests skin names whose value is the skin index', async () => {
    const skins = stack.sandbox.world.skins;
    // The bot learns the skin names in the background after it starts: told by the names index itself.
    await within(15_000, skinsLearned(stack.bot.services.names), 'skin names learned');
    const target = skins[3]!;
    const response = await stack.autocomplete('market', 'skin', 'skin', target.name.slice(0, 6)).response();
    const choices = (response.data as { choices: Array<{ name: string; value: number }> }).choices;
    expect(choices.some((c) => c.value === target.index && c.name.includes(target.name))).toBe(true);
  });
});

describe('answers in time', () => {
  it('defers the slow market endpoint within 3 s, then edits in the answer', async () => {
    const pending = stack.invoke('market', 'skin', { skin: 7, days: 30 });
    const first = await pending.response();
    expect(first.type).toBe(5);
    expect(first.afterMs).toBeLessThan(3_000);
    // The endpoint has been asked (it waits on the clock): it answers now, four seconds later.
    await latency.whenSleeping(1);
    await latency.advance(4_000);
    const message = await answered(pending);
    expect(message.attachments.map((a) => a.filename)).toContain('price-history.png');
  });

  it('answers a cached lookup without deferring', async () => {
    await answered(stack.invoke('clan', 'profile', { name: w().clan }));
    const again = stack.invoke('clan', 'profile', { name: w().clan });
    expect((await again.response()).type).toBe(4);
  });

  it('answers a cached market skin without deferring, its chart attached', async () => {
    const first = stack.invoke('market', 'skin', { skin: 5, days: 30 });
    // Not cached yet: deferred before the slow endpoint is asked, which answers on the clock.
    expect((await first.response()).type).toBe(5);
    await latency.whenSleeping(1);
    await latency.advance(4_000);
    await answered(first);
    const again = stack.invoke('market', 'skin', { skin: 5, days: 30 });
    expect((await again.response()).type).toBe(4);
    const message = await answered(again);
    expect(message.attachments.map((a) => a.filename)).toContain('price-history.png');
  });
});

describe('failures are clear, localized and ephemeral', () => {
  it('not found', async () => {
    const message = await answered(stack.invoke('player', 'profile', { name: 'nobody-at-all-here' }));
    expect(message.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(JSON.stringify(message.embeds)).toMatch(/not found|Nothing was found/i);
  });

  it('upstream trouble (5xx after its one retry)', async () => {
    stack.sandbox.faults.inject({ match: /^\/api\/match\//, kind: 'status', status: 503 });
    const message = await answered(stack.invoke('match', undefined, { id: '9007199254740993' }));
    expect(message.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(message.embeds[0]?.title).toMatch(/not answering/);
  });

  it('replies in the user locale, then the guild locale', async () => {
    const german = await answered(
      stack.invoke('player', 'profile', { name: 'nobody-at-all-here' }, { locale: 'de' }),
    );
    expect(german.embeds[0]?.title).not.toBe('That did not work');
  });

  it('works in a DM', async () => {
    const message = await answered(stack.invoke('turf', 'status', {}, { guildId: null }));
    expect(message.embeds.length).toBeGreaterThan(0);
  });
});

describe('when the game API is busy', () => {
  it('rate limited: waits in the queue, its reply saying when the answer should come', async () => {
    // Last in this file: after a 429 the client holds the key's requests until the window resets.
    const uncached = stack.sandbox.world.mods.find((mod) => mod.name !== w().mod && !mod.creatorBanned)!;
    stack.sandbox.faults.inject({ match: /^\/api\/mods\//, kind: 'rateLimit', retryAfterSec: 60 });
    const started = Date.now();
    const message = await answered(stack.invoke('mods', 'info', { name: uncached.name }));
    // The deferred reply, edited while the command waits for the window's reset (a minute away).
    expect(message.embeds[0]?.title).toBe('Waiting for the game API');
    const eta = /<t:(\d+):R>/.exec(message.embeds[0]?.description ?? '');
    expect(Number(eta?.[1]) * 1000).toBeGreaterThanOrEqual(started + 55_000);
  });
});
