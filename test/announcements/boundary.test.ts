import { describe, expect, it } from 'vitest';
import type { TierClient } from '../../src/api/client.ts';
import type { KpdCall } from '../../src/api/schemas/index.ts';
import { ANNOUNCEMENT_KINDS, KindRegistry } from '../../src/kinds.ts';
import { openRepositories } from '../../src/announcements/repositories.ts';
import { Inbox } from '../../src/announcements/inbox.ts';
import { openDatabase } from '../../src/db/index.ts';
import { TurfFeed, fromApiEvent } from '../../src/announcements/sources.ts';
import type { Subscription } from '../../src/announcements/model.ts';
import { diffCalls } from '../../src/features/kpd/events.ts';
import { createStore } from '../../src/store/index.ts';
import { isTurfDay } from '../../src/api/turf-days.ts';
import { ManualClock } from '../support/clock.ts';
import { capturedLog } from '../support/announcements.ts';
import { BackgroundScheduler } from '../../src/traffic/scheduler.ts';

/** Dates, numbers and ids from upstream are range-checked where they enter. */
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('upstream values at the boundary', () => {
  it('replaces an event time more than a century away with the time it was received', () => {
    const base = { id: 5, type: 'map.featured' } as const;
    expect(fromApiEvent({ ...base, created_at: '9999-12-31T00:00:00Z' }, NOW).at).toBe(NOW);
    expect(fromApiEvent({ ...base, created_at: '1800-01-01T00:00:00Z' }, NOW).at).toBe(NOW);
    expect(fromApiEvent({ ...base, created_at: '2026-11-21T11:00:00Z' }, NOW).at).toBe(NOW - 3_600_000);
  });

  it('skips KPD calls with impossible ids and replaces far dates', () => {
    const calls = [
      { id: -3, date: '2026-11-21 10:00:00' },
      { id: 8, date: '3026-01-01 00:00:00' },
    ] as unknown as KpdCall[];
    const events = diffCalls('1', {}, calls, NOW);
    expect(events.map((e) => [e.key, e.at])).toEqual([['kpd:1:8:new', NOW]]);
  });

  it('knows a turf day from an impossible one', () => {
    expect([0, 249, 36_525].map(isTurfDay)).toEqual([true, true, true]);
    expect([-1, 1.5, 36_526, 1e13, Number.NaN, '3'].map(isTurfDay)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('ignores a turf status whose day is 1e13: no event, state unchanged, one warning', async () => {
    const store = await createStore('memory://', { purgeIntervalMs: 0 });
    const db = await openDatabase('sqlite://:memory:');
    const repos = openRepositories(db, store);
    const { log, lines } = capturedLog();
    const owner = (clanId: number) => ({ clan_id: clanId, clan_name: `clan ${clanId}` });
    const replies: Record<string, unknown> = {
      turfStatus: { day: 1e13, maps: [{ map_id: 0, owner: owner(2) }] },
      turfClanEarnings: { days: [{ day: 1e13 - 1, kr: 5 }] },
    };
    const api = { call: (name: string) => Promise.resolve(replies[name]) } as unknown as TierClient;
    const kinds = new KindRegistry(ANNOUNCEMENT_KINDS);
    const scheduler = new BackgroundScheduler();
    const inbox = new Inbox(repos.inbox, kinds);
    const feed = new TurfFeed({ api, inbox, repos, clock: new ManualClock(NOW), log, kinds, scheduler, db });
    const state = { version: 3, day: 249, owners: { '0': { clanId: 1, clanName: 'clan 1' } } };
    await repos.turf.set(state);
    const subscription: Subscription = {
      id: 'abcdef',
      guildId: '1',
      channelId: '2',
      kind: 'turf',
      options: { clanId: 2, clanName: 'clan 2' },
      locale: 'en-US',
      createdBy: '1',
      createdAt: NOW - 1_000,
      since: NOW - 1_000,
      state: { status: 'active' },
    };
    await repos.subscriptions.save(subscription);
    await feed.poll({
      subscriptions: [subscription],
      signal: new AbortController().signal,
      deliver: () => Promise.resolve(),
      spreadMs: 0,
    });
    expect(await repos.inbox.pending()).toEqual([]);
    expect(await repos.turf.get()).toEqual(state);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
    await store.close();
    await db.close();
  });
});
