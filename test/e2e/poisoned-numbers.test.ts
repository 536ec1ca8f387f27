import { ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poisonPriceHistory } from '../../bench/chaos/rewrites.ts';
import { startUpstreamProxy, type UpstreamProxy } from '../../bench/chaos/upstream-proxy.ts';
import type { Bot } from '../../src/bot.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin, type MessageRecord } from '../../src/dev/standin/index.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { startTestBot } from '../support/stack.ts';

/**
 * Issue 18, finding 1, end to end: a skin whose price history holds a day of 1e300 KR × 1e9 sales and
 * days of ±1e308 KR used to kill the bot with an uncatchable fatal error, and the reply cache (15 min
 * fresh, 6 h stale) killed it again after a restart. Now `/market skin` answers with the chart and a note
 * of what it left out, and the next command is answered; the same holds for a poisoned reply already in
 * the cache (as a bot before the fix cached it) read by a restarted bot.
 */
let sandbox: Sandbox;
let discord: DiscordStandin;
let store: Store;
let proxy: UpstreamProxy;
let guildId: string;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandin();
  guildId = discord.addGuild({ name: 'poisoned numbers' }).id;
  discord.addChannel(guildId);
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  proxy = await startUpstreamProxy(sandbox.urls.base);
  proxy.rewrite = poisonPriceHistory();
}, 60_000);

afterAll(async () => {
  await proxy.close();
  await store.close();
  await discord.close();
  await sandbox.close();
});

function bot(env: Record<string, string> = {}): Promise<Bot> {
  return startTestBot(sandbox, discord, {
    store,
    commands: ['market', 'lobbies'],
    announcements: false,
    env,
  });
}

const skinIndex = () => sandbox.world.samples.skinIndex;

async function marketSkin(): Promise<MessageRecord> {
  return discord
    .invokeCommand({
      name: 'market',
      guildId,
      options: [
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: 'skin',
          options: [{ type: ApplicationCommandOptionType.Integer, name: 'skin', value: skinIndex() }],
        },
      ],
    })
    .final(30_000);
}

async function expectLobbiesAnswered(): Promise<void> {
  const lobbies = await discord.invokeCommand({ name: 'lobbies', guildId, options: [] }).final(30_000);
  expect(lobbies.embeds.length).toBeGreaterThan(0);
}

function expectChartWithNote(message: MessageRecord, dropped: number): void {
  expect(message.embeds[0]?.footer?.text).toContain(`#${skinIndex()}`);
  const chart = message.attachments.find((a) => a.filename === 'price-history.png');
  expect(chart?.bytes.subarray(0, 4)).toEqual(PNG);
  expect(chart?.description).toContain(`Not drawn, out of range: ${dropped}.`);
}

describe('a poisoned price history', () => {
  it('is answered with the chart and a note, and the bot answers the next command', async () => {
    const running = await bot({ GAME_API_URL: proxy.url });
    try {
      // The three poisoned days reach the chart with their prices unknown (the schema's bounds).
      expectChartWithNote(await marketSkin(), 3);
      await expectLobbiesAnswered();
    } finally {
      await running.stop();
    }
  }, 90_000);

  it('already in the reply cache is not fatal after a restart', async () => {
    // What a bot before the bounds cached: the raw numbers, unchecked. Write them over the cached reply.
    const cache = store.namespace<{ v: Record<string, unknown>; fresh: number; stale: number }>('cache');
    let poisoned = 0;
    for await (const [key, entry] of cache.entries()) {
      if (!key.startsWith(`marketSkin:/api/market/skin/${skinIndex()}?`)) continue;
      const days = Array.isArray(entry.v.price_history) ? entry.v.price_history : [];
      const date = (days.at(-1) as { date?: string } | undefined)?.date ?? '2026-01-01';
      const v = {
        ...entry.v,
        price_history: [
          ...days,
          { date, average_price: 1e300, sales: 1e9 },
          { date, average_price: 1e308, sales: 1 },
          { date, average_price: -1e308, sales: 1 },
        ],
      };
      await cache.set(key, { ...entry, v }, entry.stale - Date.now());
      poisoned += 1;
    }
    expect(poisoned).toBe(1);

    // A fresh bot, a fresh in-process cache, the same store; upstream is the plain sandbox now.
    const restarted = await bot();
    try {
      const before = sandbox.requests.entries().filter((e) => e.path.startsWith('/api/market/skin/')).length;
      // The three cached by the first bot (prices unknown) and the three raw ones written over them.
      expectChartWithNote(await marketSkin(), 6);
      const after = sandbox.requests.entries().filter((e) => e.path.startsWith('/api/market/skin/')).length;
      // Served from the poisoned cache entry, not fetched again.
      expect(after).toBe(before);
      await expectLobbiesAnswered();
    } finally {
      await restarted.stop();
    }
  }, 90_000);
});
