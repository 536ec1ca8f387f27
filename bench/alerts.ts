import type { REST } from 'discord.js';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import type { Figures } from './client.ts';
import { AlertWatch } from '../src/alerts/watch.ts';
import { AlertRepository } from '../src/alerts/store.ts';
import type { SourceRun } from '../src/announcements/sources.ts';
import type { Clock } from '../src/core/clock.ts';
import { openDatabase } from '../src/db/index.ts';
import { mulberry32 } from '../src/dev/sandbox/prng.ts';
import { followCapacity } from '../src/follow/capacity.ts';
import { Translations } from '../src/i18n/index.ts';
import { BackgroundScheduler } from '../src/schedule/scheduler.ts';
import { ALERTS_CAPACITY_SHARE } from '../src/alerts/watch.ts';

/**
 * Price alerts: requests a minute the alerts' poller uses for N watched skins and M alerts, in simulated
 * time (an hour; the worker's source loop polls every 30 s). Each skin's price takes a seeded random walk
 * around its alerts' thresholds; the game API is a counter and Discord a sink that counts messages, so
 * what is measured is the poller's own demand: one read per watched skin per interval, whatever M is.
 *
 *   npx tsx bench/alerts.ts
 */
const RUN_MS = 3_600_000;
const POLL_MS = 30_000;
const SCENARIOS = [
  { skins: 10, alerts: 100 },
  { skins: 10, alerts: 1_000 },
  { skins: 40, alerts: 1_000 },
  { skins: 200, alerts: 5_000 },
] as const;

class SimClock implements Clock {
  #now = Date.UTC(2026, 10, 24, 12);
  now(): number {
    return this.#now;
  }
  sleep(): Promise<void> {
    return Promise.resolve();
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

async function scenario(skins: number, alerts: number) {
  const db = await openDatabase('sqlite://:memory:');
  const clock = new SimClock();
  const random = mulberry32(skins * 7919 + alerts);
  const repo = new AlertRepository(db);
  for (let i = 0; i < alerts; i += 1) {
    const added = await repo.add(
      {
        guildId: `g${Math.floor(i / 50)}`,
        userId: `u${Math.floor(i / 10)}`,
        channelId: undefined,
        skinIndex: i % skins,
        skinName: `Skin ${i % skins}`,
        direction: random() < 0.5 ? 'below' : 'above',
        threshold: 900 + Math.floor(random() * 200),
        locale: 'en-US',
      },
      { user: 10, guild: 50 },
      clock.now(),
    );
    if (added.status !== 'created') throw new Error(added.status);
  }
  const prices = new Map<number, number>();
  let reads = 0;
  let messages = 0;
  const rest = {
    post: (path: string) => {
      if (path.endsWith('/messages')) messages += 1;
      return Promise.resolve({ id: `c${path.length}` });
    },
  } as unknown as REST;
  const capacityPerMinute =
    followCapacity({ game: { apiKey: 'kr_bench' }, events: { pollSeconds: 30 } } as never) *
    ALERTS_CAPACITY_SHARE;
  const watch = new AlertWatch({
    db,
    read: (skin) => {
      reads += 1;
      const next = Math.max(1, Math.round((prices.get(skin) ?? 1_000) + (random() - 0.5) * 80));
      prices.set(skin, next);
      return Promise.resolve(next);
    },
    scheduler: new BackgroundScheduler(),
    clock,
    log: pino({ level: 'silent' }),
    rest,
    translations: new Translations(),
    capacityPerMinute,
  });
  const run: SourceRun = {
    subscriptions: [],
    signal: new AbortController().signal,
    deliver: () => Promise.resolve(),
    spreadMs: POLL_MS / 2,
  };
  const started = performance.now();
  let polls = 0;
  for (let at = 0; at < RUN_MS; at += POLL_MS) {
    await watch.poll(run);
    polls += 1;
    clock.advance(POLL_MS);
  }
  const wall = performance.now() - started;
  await db.close();
  return {
    skins,
    alerts,
    'interval per skin (s)': Math.round(watch.intervalMs(skins) / 1000),
    'requests / min': Number(((reads * 60_000) / RUN_MS).toFixed(1)),
    'budget share / min': Number(capacityPerMinute.toFixed(1)),
    'messages / h': messages,
    'poll wall time, mean (ms)': Number((wall / polls).toFixed(2)),
  };
}

/** `npm run bench`'s section: one line per scenario. */
export async function benchAlerts(): Promise<Figures> {
  const figures: Figures = {};
  for (const { skins, alerts } of SCENARIOS) {
    const row = await scenario(skins, alerts);
    figures[`${skins} skins, ${alerts} alerts`] =
      `${row['requests / min']} requests/min (share ${row['budget share / min']}), ` +
      `every ${row['interval per skin (s)']} s per skin, ${row['messages / h']} messages/h, ` +
      `poll ${row['poll wall time, mean (ms)']} ms`;
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = [];
  for (const { skins, alerts } of SCENARIOS) rows.push(await scenario(skins, alerts));
  console.table(rows);
}
