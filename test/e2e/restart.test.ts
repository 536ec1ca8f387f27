import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from '../../src/bot.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin, type MessageRecord } from '../../src/dev/standin/index.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { ManualClock } from '../support/clock.ts';
import { startTestBot } from '../support/stack.ts';

/** Buttons carry what they need: they work after a restart, and stop working when they expire. */
let sandbox: Sandbox;
let discord: DiscordStandin;
let store: Store;

beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandin();
  discord.addChannel(discord.addGuild({ name: 'restarts' }).id);
  store = await createStore('memory://', { purgeIntervalMs: 0 });
});

afterAll(async () => {
  await store.close();
  await discord.close();
  await sandbox.close();
});

function bot(clock?: ManualClock): Promise<Bot> {
  return startTestBot(sandbox, discord, {
    store,
    commands: ['player', 'mods'],
    announcements: false,
    ...(clock ? { clock } : {}),
  });
}

function next(message: MessageRecord): string {
  for (const row of message.components) {
    for (const part of ('components' in row ? row.components : []) as unknown as Array<
      Record<string, unknown>
    >) {
      if (part.type === 2 && typeof part.label === 'string' && part.label.includes('Next'))
        return String(part.custom_id);
    }
  }
  throw new Error('no Next button');
}

const modsList = [{ type: 1, name: 'list', options: [] }];

describe('component ids', () => {
  it('keep working after the bot restarts', async () => {
    const first = await bot();
    const message = await discord.invokeCommand({ name: 'mods', options: modsList }).final();
    await first.stop();

    const second = await bot();
    try {
      const page2 = await discord.clickButton(message, next(message)).final();
      expect(page2.embeds[0]?.description).toContain('**11.**');
    } finally {
      await second.stop();
    }
  });

  it('expire after 30 minutes, with a message that says so', async () => {
    const clock = new ManualClock(Date.now());
    const running = await bot(clock);
    try {
      const message = await discord.invokeCommand({ name: 'mods', options: modsList }).final();
      await clock.advance(31 * 60_000);
      const expired = await discord.clickButton(message, next(message)).final();
      expect(expired.flags & 64).toBe(64);
      expect(expired.embeds[0]?.description).toMatch(/expired/);
    } finally {
      await running.stop();
    }
  });
});
