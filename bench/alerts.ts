import type { REST } from 'discord.js';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import type { Figures } from './client.ts';
import { AlertWatch } from '../src/features/alerts/watch.ts';
import { AlertRepository } from '../src/features/alerts/store.ts';
import type { SourceRun } from '../src/announcements/sources.ts';
import type { Clock } from '../src/core/clock.ts';
import { openDatabase } from '../src/db/index.ts';
import { mulberry32 } from '../src/dev/sandbox/prng.ts';
import { followCapacity } from '../src/traffic/capacity.ts';
import { backgroundPlan } from '../src/players/follow-plan.ts';
import type { Subscription } from '../src/announcements/model.ts';
import { Translations } from '../src/i18n/index.ts';
import { BackgroundScheduler } from '../src/traffic/scheduler.ts';
import { demandReader } from '../src/demand.ts';

/**
 * Price alerts: requests a minute the alerts' poller uses for N watched skins and M alerts, in simulated
 * time (an hour; the worker's source loop polls every 30 s). Each skin's price takes a seeded random walk
 * around its alerts' thresholds; the game API is a counter and Discord a sink that counts messages, so
 * what is measured is the poller's own demand: one read per watched skin per interval, whatever M is. The
 * interval comes from the background's one plan, which the last rows share with 1,000 tracked players.
 *
 *   npx tsx bench/alerts.ts
 */
const RUN_MS = 3_600_000;
const SETTINGS = { trackMinutes: 5, linkedHours: 24 };
const POLL_MS = 30_000;
const SCENARIOS = [
  { skins: 10, alerts: 100, tracked: false },
  { skins: 10, alerts: 1_000, tracked: false },
  { skins: 40, alerts: 1_000, tracked: false },
  { skins: 200, alerts: 5_000, tracked: false },
  // Beside 1,000 tracked players (one owner's 19 servers of 50, 25 servers of 2): one plan for both.
  { skins: 40, alerts: 1_000, tracked: true },
  { skins: 200, alerts: 5_000, tracked: true },
] as const;

/** 1,000 tracked players: 19 servers of 50 (one owner's), 25 servers of 2. */
function trackedSubscriptions(): Subscription[] {
  const sizes = [...Array<number>(19).fill(50), ...Array<number>(25).fill(2)];
  let n = 0;
  return sizes.flatMap((size, server) =>
    Array.from({ length: size }, () => {
      n += 1;
      return {
        id: `t${n}`,
        guildId: `g${server}`,
        channelId: `c${server}`,
        kind: 'track',
        options: { playerId: n, playerName: `Player${n}` },
        locale: 'en-US',
        createdBy: 'u1',
        createdAt: 0,
        since: 0,
        state: { status: 'active' as const },
      };
    }),
  );
}

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

async function scenario(skins: number, alerts: number, tracked: boolean) {
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
  const capacityPerMinute = followCapacity({
    game: { apiKey: 'kr_bench' },
    events: { pollSeconds: 30 },
  } as never);
  const watch = new AlertWatch({
    db,
    demand: demandReader(db),
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
    settings: SETTINGS,
  });
  const run: SourceRun = {
    subscriptions: tracked ? trackedSubscriptions() : [],
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
  const plan = backgroundPlan(await demandReader(db)(run.subscriptions), {
    settings: SETTINGS,
    capacityPerMinute,
  });
  await db.close();
  return {
    skins,
    alerts,
    'tracked players': tracked ? 1_000 : 0,
    'interval per skin (s)': Math.round(plan.alertMs / 1000),
    'requests / min': Number(((reads * 60_000) / RUN_MS).toFixed(1)),
    'planned alerts / tracking / total per min': `${plan.perMinute.alerts.toFixed(1)} / ${plan.perMinute.tracked.toFixed(1)} / ${plan.totalPerMinute.toFixed(1)}`,
    'background capacity / min': Number(capacityPerMinute.toFixed(1)),
    'messages / h': messages,
    'poll wall time, mean (ms)': Number((wall / polls).toFixed(2)),
  };
}

/** `npm run bench`'s section: one line per scenario. */
export async function benchAlerts(): Promise<Figures> {
  const figures: Figures = {};
  for (const { skins, alerts, tracked } of SCENARIOS) {
    const row = await scenario(skins, alerts, tracked);
    figures[`${skins} skins, ${alerts} alerts${tracked ? ', beside 1,000 tracked players' : ''}`] =
      `${row['requests / min']} requests/min, every ${row['interval per skin (s)']} s per skin; planned ` +
      `alerts / tracking / total ${row['planned alerts / tracking / total per min']} a minute ` +
      `(goal: total <= ${row['background capacity / min']}); ${row['messages / h']} messages/h, ` +
      `poll ${row['poll wall time, mean (ms)']} ms`;
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = [];
  for (const { skins, alerts, tracked } of SCENARIOS) rows.push(await scenario(skins, alerts, tracked));
  console.table(rows);
}
