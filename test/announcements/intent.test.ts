import type { REST } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DELIVERY_OPTIONS, Deliverer } from '../../src/announcements/delivery.ts';
import { ANNOUNCEMENT_KINDS, KindRegistry } from '../../src/kinds.ts';
import type { AnnouncementEvent, Pending, Subscription } from '../../src/announcements/model.ts';
import { DeliveryRepository, openRepositories } from '../../src/announcements/repositories.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { ManualClock } from '../support/clock.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import {
  capturedLog,
  flakyDatabase,
  flakyStore,
  translations,
  type FlakyStore,
} from '../support/announcements.ts';

/**
 * Intent before post: the store fails between a send and its record, for less or more than Discord's
 * 5-minute nonce window, then comes back. Discord is a stand-in object here whose nonce window runs on
 * the same manual clock; `Date` is faked too, so that the store's claim expires as it would in real time.
 */
const NONCE_WINDOW_MS = 5 * 60_000;
const START = Date.UTC(2026, 10, 21, 12, 0, 0);

interface FakeDiscord {
  readonly discord: { rest: REST; guildLocale(guildId: string): string | undefined };
  readonly created: Array<{ id: string; channelId: string; nonce: unknown }>;
}

function fakeDiscord(clock: ManualClock): FakeDiscord {
  const created: FakeDiscord['created'] = [];
  const nonces = new Map<string, { id: string; at: number }>();
  const post = (route: string, { body }: { body: { nonce?: string; enforce_nonce?: boolean } }) => {
    const channelId = /^\/channels\/(\d+)\/messages$/.exec(route)?.[1] ?? '?';
    const key = `${channelId}:${String(body.nonce)}`;
    const seen = nonces.get(key);
    if (body.enforce_nonce === true && seen && clock.now() - seen.at < NONCE_WINDOW_MS) {
      return Promise.resolve({ id: seen.id, channel_id: channelId });
    }
    const id = String(900_000_000_000_000_000n + BigInt(created.length));
    created.push({ id, channelId, nonce: body.nonce });
    nonces.set(key, { id, at: clock.now() });
    return Promise.resolve({ id, channel_id: channelId });
  };
  const discord = { rest: { post } as unknown as REST, guildLocale: () => undefined };
  return { discord, created };
}

const subscription: Subscription = {
  id: 'abcdef',
  guildId: '100000000000000001',
  channelId: '100000000000000002',
  kind: 'maps',
  options: {},
  locale: 'en-US',
  createdBy: '1',
  createdAt: START - 60_000,
  since: START - 60_000,
  state: { status: 'active' },
};

const event: AnnouncementEvent = {
  key: 'e:42',
  source: 'events',
  type: 'map.featured',
  at: START,
  data: { id: 42, type: 'map.featured', data: { map_id: 7, map_name: 'Burg', creator: 'someone' } },
};

let inner: Store;
let store: FlakyStore;
let innerDb: Database;
let db: Database;
let clock: ManualClock;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: START });
  inner = await createStore('memory://', { purgeIntervalMs: 0 });
  store = flakyStore(inner);
  innerDb = await openDatabase('sqlite://:memory:');
  db = flakyDatabase(innerDb, store);
  clock = new ManualClock(START);
});

afterEach(async () => {
  vi.useRealTimers();
  await inner.close();
  await innerDb.close();
});

async function advance(ms: number) {
  vi.setSystemTime(Date.now() + ms);
  await clock.advance(ms);
}

/** A deliverer whose store goes down right after the send (before the record), as the hook says. */
function deliverer(discord: FakeDiscord, log = capturedLog().log, failAfterSend = true) {
  return new Deliverer({
    discord: discord.discord,
    repos: openRepositories(db, store),
    translations,
    clock,
    log,
    holder: 'first-process',
    options: DEFAULT_DELIVERY_OPTIONS,
    hook: (step) => {
      if (step === 'sent' && failAfterSend) store.down = true;
    },
    kinds: new KindRegistry(ANNOUNCEMENT_KINDS),
  });
}

async function pendingEvent(): Promise<Pending> {
  const repos = openRepositories(db, store);
  await repos.inbox.accept(event);
  const pending = await repos.inbox.get(event.key);
  if (!pending) throw new Error('not stored');
  return pending;
}

describe('a store outage between a send and its record', () => {
  for (const outageMs of [6 * 60_000, 60 * 60_000]) {
    it(`posts once when it lasts ${outageMs / 60_000} minutes, past the nonce window`, async () => {
      const discord = fakeDiscord(clock);
      const { log, lines } = capturedLog();
      const pending = await pendingEvent();
      await expect(deliverer(discord).deliver(pending, [subscription])).rejects.toThrow('not answering');
      expect(discord.created).toHaveLength(1);

      await advance(outageMs);
      store.down = false;
      // Another pass, or another process, takes the delivery up again once the store answers.
      const again = deliverer(discord, log, false);
      expect(await again.deliver(pending, [subscription])).toBe('done');
      expect(discord.created).toHaveLength(1);
      const repos = openRepositories(db, store);
      expect(await repos.deliveries.get(DeliveryRepository.key(subscription.id, event.key))).toMatchObject({
        outcome: 'unconfirmed',
      });
      expect(await repos.inbox.pending()).toEqual([]);
      const warned = lines.filter((line) => String(line.msg).includes('nonce window'));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ event: event.key, subscription: subscription.id });
      // Later passes do nothing more.
      await again.deliver(pending, [subscription]);
      expect(discord.created).toHaveLength(1);
    });
  }

  it('resends with the same nonce inside the window, and records the message Discord returns', async () => {
    const discord = fakeDiscord(clock);
    const pending = await pendingEvent();
    await expect(deliverer(discord).deliver(pending, [subscription])).rejects.toThrow('not answering');
    await advance(2 * 60_000);
    store.down = false;
    expect(await deliverer(discord, undefined, false).deliver(pending, [subscription])).toBe('done');
    expect(discord.created).toHaveLength(1);
    const record = await openRepositories(db, store).deliveries.get(
      DeliveryRepository.key(subscription.id, event.key),
    );
    expect(record).toMatchObject({ outcome: 'sent', messageId: discord.created[0]?.id });
  });
});
