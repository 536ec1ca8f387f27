import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { postgresDatabase, postgresRequired, postgresUp } from '../support/postgres.ts';
import { invoke, startProcess, startWorld, type Process, type World } from '../support/announcements.ts';

/**
 * The per-server limit and the one-subscription-per-channel-kind-and-filter rule hold under concurrent
 * /subscribe, on every database the bot supports (finding 7: 26 on SQLite and 32 on Redis against 25; 10
 * concurrent subscribes of one channel made 5).
 */
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;

interface Backend {
  readonly name: string;
  readonly available: boolean;
  open(): Promise<{ db: Database; close(): Promise<void> }>;
}

/** The limits are the database's constraints: each database the bot supports is tried. */
const backends: Backend[] = [
  {
    name: 'SQLite',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'killfeed-limits-'));
      const db = await openDatabase(`sqlite://${join(dir, 'killfeed.sqlite')}`);
      return {
        db,
        async close() {
          await db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    available: postgresUp || postgresRequired,
    async open() {
      const db = await postgresDatabase('limits');
      return { db, close: () => db.drop() };
    },
  },
];

function replyText(reply: { content: string; embeds: unknown[] }): string {
  return `${reply.content}\n${JSON.stringify(reply.embeds)}`;
}

for (const backend of backends) {
  describe.skipIf(!backend.available)(`concurrent /subscribe on ${backend.name}`, () => {
    let opened: { db: Database; close(): Promise<void> };
    let world: World;
    let bot: Process;

    beforeAll(async () => {
      opened = await backend.open();
      // 100 commands at once in one process answer late on a loaded machine: past Discord's 3 s for the
      // first callback, the stand-in would refuse it (10062) and the command never be answered. That
      // deadline is not what these tests are about (the router's own tests are).
      world = await startWorld({ db: opened.db, discord: { interactionTimeoutMs: 60_000 } });
      bot = await startProcess(world);
    }, 30_000);

    afterAll(async () => {
      await bot.stop();
      await world.close();
      await opened.close();
    });

    beforeEach(async () => {
      for (const subscription of await world.repos.subscriptions.all()) {
        await world.repos.subscriptions.delete(subscription.id);
      }
    });

    const subscribe = (channel: string, kind = 'maps', extra: Record<string, string> = {}) =>
      // 100 commands at once on a loaded machine: wait as long as the test may run, a margin, not a deadline.
      invoke(world, 'subscribe', kind, { channel, ...extra }, { memberPermissions: MANAGER }).final(55_000);

    it('stores exactly 25 of 100 concurrent subscriptions, telling the others the limit', async () => {
      const channels = Array.from({ length: 100 }, (_, i) => world.addChannel(`limit-${i}`));
      const replies = await Promise.all(channels.map((channel) => subscribe(channel)));
      const stored = await world.repos.subscriptions.forGuild(world.guildId);
      expect(stored).toHaveLength(25);
      expect(new Set(stored.map((s) => s.slot))).toEqual(new Set(Array.from({ length: 25 }, (_, i) => i)));
      const texts = replies.map(replyText);
      expect(texts.filter((text) => text.includes('"title":"Subscribed"'))).toHaveLength(25);
      expect(texts.filter((text) => text.includes('already has 25 subscriptions'))).toHaveLength(75);

      // Removing one frees exactly one place.
      const [first] = stored;
      await invoke(
        world,
        'unsubscribe',
        undefined,
        { id: first!.id },
        { memberPermissions: MANAGER },
      ).final();
      const again = await Promise.all(channels.slice(50, 60).map((channel) => subscribe(channel)));
      expect(again.map(replyText).filter((text) => text.includes('"title":"Subscribed"'))).toHaveLength(1);
      expect(await world.repos.subscriptions.forGuild(world.guildId)).toHaveLength(25);
    }, 60_000);

    it('creates one of 10 concurrent subscriptions of the same channel, telling the others it exists', async () => {
      const channel = world.addChannel('same');
      const replies = await Promise.all(Array.from({ length: 10 }, () => subscribe(channel)));
      expect(await world.repos.subscriptions.forGuild(world.guildId)).toHaveLength(1);
      const texts = replies.map(replyText);
      expect(texts.filter((text) => text.includes('"title":"Subscribed"'))).toHaveLength(1);
      // Those that ran after it was saved update it; those that ran alongside are told it exists.
      expect(
        texts.filter(
          (text) => text.includes('already has this subscription') || text.includes('Subscription updated'),
        ),
      ).toHaveLength(9);
      // A different filter (another clan) in the same channel is another subscription.
      const turf = await Promise.all(Array.from({ length: 4 }, () => subscribe(channel, 'turf')));
      expect(turf.map(replyText).filter((text) => text.includes('"title":"Subscribed"'))).toHaveLength(1);
      const clan = world.sandbox.world.clans[0]!.name;
      await subscribe(channel, 'turf', { clan });
      const kinds = (await world.repos.subscriptions.forGuild(world.guildId)).map((s) => s.kind).sort();
      expect(kinds).toEqual(['maps', 'turf', 'turf']);
    }, 60_000);
  });
}
