import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { REST } from 'discord.js';
import type { TierClient } from '../../src/api/client.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { openRepositories, type Repositories } from '../../src/announcements/repositories.ts';
import type { Subscription } from '../../src/announcements/model.ts';
import type { SourceRun } from '../../src/announcements/sources.ts';
import { AlertRepository } from '../../src/features/alerts/store.ts';
import { AlertWatch } from '../../src/features/alerts/watch.ts';
import { Translations } from '../../src/i18n/index.ts';
import { BackgroundScheduler } from '../../src/traffic/scheduler.ts';
import { playersFeedFor } from '../support/players-feed.ts';
import { ManualClock } from '../support/clock.ts';
import { demandReader } from '../../src/demand.ts';

/**
 * The players feed and the price alerts against one database and a counting game API, on a manual clock:
 * what they really ask for, per server and together.
 */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const SETTINGS = { trackMinutes: 5, linkedHours: 24 };
const POLL_MS = 30_000;
let db: Database;
let store: Store;
let repos: Repositories;
let clock: ManualClock;

beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  repos = openRepositories(db, store);
  clock = new ManualClock(NOW);
});
afterEach(async () => {
  await store.close();
  await db.close();
});

/** A game API that knows every name (no ranked matches: one request a refresh), and when each was asked. */
function countingApi() {
  const asked: Array<{ name: string; at: number }> = [];
  const api = {
    call(route: string, params: { playerName?: string }) {
      if (route !== 'player') return Promise.reject(new Error(`unexpected ${route}`));
      const name = params.playerName ?? '';
      asked.push({ name, at: clock.now() });
      return Promise.resolve({ player_id: name.length, player_name: name, level: 3, clan: '', ranked: [] });
    },
  } as unknown as TierClient;
  return { api, asked };
}

/** `perServer` players tracked by each server: `g<server>` tracks `p<server>-<n>`. */
function subscriptions(perServer: readonly number[]): Subscription[] {
  return perServer.flatMap((count, server) =>
    Array.from({ length: count }, (_, n) => ({
      id: `t${server}x${n}`,
      guildId: `g${server}`,
      channelId: `c${server}`,
      kind: 'track',
      options: { playerId: server * 1_000 + n, playerName: `p${server}-${n}` },
      locale: 'en-US',
      createdBy: 'u1',
      createdAt: NOW - 1_000,
      since: NOW - 1_000,
      state: { status: 'active' as const },
    })),
  );
}

function feedFor(api: TierClient, capacityPerMinute: number) {
  return playersFeedFor({ api, db, repos, clock, capacityPerMinute, settings: SETTINGS });
}

function runOf(subs: readonly Subscription[]): SourceRun {
  return {
    subscriptions: subs,
    signal: new AbortController().signal,
    deliver: () => Promise.resolve(),
    spreadMs: POLL_MS / 2,
  };
}

describe('tracking shares the budget by server', () => {
  it('keeps the configured interval of a server tracking 2 while another tracking 50 stretches', async () => {
    const { api, asked } = countingApi();
    // 50 + 2 players every 5 minutes, 1.5 requests each: 15.6 a minute wanted, 10 there.
    const feed = feedFor(api, 10);
    const subs = subscriptions([50, 2]);
    await feed.poll(runOf(subs));
    expect(asked).toHaveLength(52);

    asked.length = 0;
    await clock.advance(SETTINGS.trackMinutes * 60_000);
    await feed.poll(runOf(subs));
    // B's two players are due again after its configured 5 minutes; A's fifty are not (A stretches alone).
    expect(asked.map((a) => a.name).sort()).toEqual(['p1-0', 'p1-1']);
    const plan = await feed.plan(subs);
    expect(plan.trackedMs.get('g1')).toBe(5 * 60_000);
    expect(plan.trackedMs.get('g0')).toBeGreaterThan(5 * 60_000);
    expect(plan.totalPerMinute).toBeLessThanOrEqual(10 + 1e-9);
  });
});

describe('the players feed and the price alerts plan from one budget', () => {
  it('together ask for no more than the background capacity', async () => {
    const capacity = 20;
    const { api, asked } = countingApi();
    const feed = feedFor(api, capacity);
    let reads = 0;
    const watch = new AlertWatch({
      db,
      demand: demandReader(db),
      read: () => {
        reads += 1;
        return Promise.resolve(undefined);
      },
      scheduler: new BackgroundScheduler(),
      clock,
      log: pino({ level: 'silent' }),
      rest: { post: () => Promise.reject(new Error('nothing fires')) } as unknown as REST,
      translations: new Translations(),
      capacityPerMinute: capacity,
      settings: SETTINGS,
    });
    const alerts = new AlertRepository(db);
    // 60 watched skins every 2 minutes: 30 a minute wanted.
    for (let skin = 0; skin < 60; skin += 1) {
      const added = await alerts.add(
        {
          guildId: 'g0',
          userId: `u${skin}`,
          channelId: undefined,
          skinIndex: skin,
          skinName: `skin ${skin}`,
          direction: 'below',
          threshold: 100,
          locale: 'en-US',
        },
        { user: 10, guild: 100 },
        clock.now(),
      );
      expect(added.status).toBe('created');
    }
    // 10 servers of 20 tracked players: 60 a minute wanted.
    const subs = subscriptions(Array<number>(10).fill(20));
    const run = runOf(subs);

    const readsAt: number[] = [];
    for (let at = 0; at < 2 * 3_600_000; at += POLL_MS) {
      await feed.poll(run);
      const before = reads;
      await watch.poll(run);
      for (let i = before; i < reads; i += 1) readsAt.push(clock.now());
      await clock.advance(POLL_MS);
    }
    // After the first hour (the first looks at every player are behind), requests a minute in all.
    const from = NOW + 3_600_000;
    const minutes = (clock.now() - from) / 60_000;
    const refreshes = asked.filter((a) => a.at >= from).length;
    const skinReads = readsAt.filter((at) => at >= from).length;
    expect(skinReads).toBeGreaterThan(0);
    expect(refreshes).toBeGreaterThan(0);
    // A refresh is planned at 1.5 requests (the matches page, sometimes): counted as planned.
    expect((refreshes * 1.5 + skinReads) / minutes).toBeLessThanOrEqual(capacity * 1.05);
    const plan = await feed.plan(subs);
    expect(await watch.plannedMs(run)).toBe(plan.alertMs);
    expect(plan.totalPerMinute).toBeLessThanOrEqual(capacity + 1e-9);
    // Two hours of polls on the manual clock: thousands of SQLite queries, CPU-bound on a loaded machine.
  }, 120_000);
});
