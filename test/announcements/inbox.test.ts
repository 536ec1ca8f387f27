import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Inbox } from '../../src/announcements/inbox.ts';
import type { AnnouncementKind } from '../../src/announcements/kinds/kind.ts';
import { KindRegistry } from '../../src/announcements/kinds/registry.ts';
import type { AnnouncementEvent, Subscription } from '../../src/announcements/model.ts';
import { InboxRepository } from '../../src/announcements/repositories.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A kind of its own: it wants the events of type `wanted` only. */
const kind: AnnouncementKind = {
  name: 'probe',
  source: 'probe',
  needsApiKey: false,
  accepts: (event) => event.type === 'wanted',
  plan: () => undefined,
};

const subscription: Subscription = {
  id: 'sub001',
  guildId: '1',
  channelId: '2',
  kind: 'probe',
  options: {},
  locale: 'en-US',
  createdBy: '3',
  createdAt: NOW - 60_000,
  since: NOW - 60_000,
  state: { status: 'active' },
};

const event = (key: string, type: string, at = NOW): AnnouncementEvent => ({
  key,
  source: 'probe',
  type,
  at,
  data: {},
});

let db: Database;
let records: InboxRepository;
let inbox: Inbox;

beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  records = new InboxRepository(db);
  inbox = new Inbox(records, new KindRegistry([kind]));
});
afterEach(async () => {
  await db.close();
});

describe('the inbox', () => {
  it('stores an event some subscription wants, once however often it is offered', async () => {
    expect(await inbox.offer(event('p:1', 'wanted'), [subscription])).toBe(true);
    expect(await inbox.offer(event('p:1', 'wanted'), [subscription])).toBe(false);
    expect((await records.pending()).map((pending) => pending.event.key)).toEqual(['p:1']);
  });

  it('stores nothing nobody wants: another type, an event older than the subscription, no subscription', async () => {
    expect(await inbox.offer(event('p:2', 'other'), [subscription])).toBe(false);
    expect(await inbox.offer(event('p:3', 'wanted', NOW - 120_000), [subscription])).toBe(false);
    expect(await inbox.offer(event('p:4', 'wanted'), [])).toBe(false);
    expect(inbox.wants(event('p:5', 'wanted'), [subscription])).toBe(true);
    expect(await records.depth()).toBe(0);
  });

  it('does not take back an event already delivered (a poll repeated after a crash)', async () => {
    await inbox.offer(event('p:6', 'wanted'), [subscription]);
    await records.finish('p:6', NOW);
    expect(await inbox.offer(event('p:6', 'wanted'), [subscription])).toBe(false);
    expect(await records.depth()).toBe(0);
  });
});
