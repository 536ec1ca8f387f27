import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { REST } from 'discord.js';
import { pino } from 'pino';
import { startPipeline } from '../src/worker.ts';
import { openRecords } from '../src/records.ts';
import { ANNOUNCEMENT_KINDS } from '../src/kinds.ts';
import type { TierClient } from '../src/api/client.ts';
import { keyIdOf } from '../src/config/secret-key.ts';
import { systemClock } from '../src/core/clock.ts';
import { openDatabase } from '../src/db/index.ts';
import { Translations } from '../src/i18n/index.ts';
import { kpdSource } from '../src/features/kpd/feed.ts';
import { kpdKeys } from '../src/features/kpd/keys.ts';
import { NameIndex } from '../src/names/index.ts';
import type { Services } from '../src/services.ts';
import { createStore } from '../src/store/index.ts';
import { createSharedLimits } from '../src/traffic/index.ts';
import type { Figures } from './client.ts';

/**
 * The worker's schedule with 10,000 map subscriptions and 500 servers following their KPD calls (each with
 * its own linked key), every source on a 3-second interval, the game API answering in 30 ms; and, in the
 * middle of it, one event fanned out to the 10,000 channels (Discord answering in 2 ms, sends paced at
 * 2,000 a second so that the fan-out fits the run). Printed per source: cycles run, median and longest
 * cycle against the interval; and how many polls of the events feed ended while the fan-out was running
 * (none could, if the fan-out ran inside the poll).
 */
const MAPS = 10_000;
const KPD_GUILDS = 500;
const INTERVAL_MS = 5_000;
const RUN_MS = 25_000;
const API_LATENCY_MS = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The game API as the sources use it: nothing new in the events feed, a quiet turf, a few KPD calls. */
async function fakeApi(): Promise<{ api: TierClient; calls: Map<string, number> }> {
  const limits = await createSharedLimits({ clock: systemClock, log: pino({ level: 'silent' }) });
  const calls = new Map<string, number>();
  const replies: Record<string, unknown> = {
    events: { events: [], next: 1, has_more: false },
    turfStatus: { day: 10, maps: [] },
    kpdLatestCalls: [{ id: 1, status: 1, rating: 0 }],
  };
  const api = {
    limits,
    async call(name: string) {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      await delay(API_LATENCY_MS);
      return replies[name];
    },
  } as unknown as TierClient;
  return { api, calls };
}

export async function benchCycle(): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'killfeed-cycle-'));
  const db = await openDatabase(`sqlite://${join(dir, 'killfeed.sqlite')}`);
  const store = await createStore('memory://', { purgeIntervalMs: 0 });
  const secretKey = randomBytes(32);
  const secret = { key: secretKey, keyId: keyIdOf(secretKey) };
  const { api, calls } = await fakeApi();
  const config = {
    game: {
      apiKey: 'kr_bench',
      baseUrl: '',
      legacyUrl: '',
      matchmakerUrl: '',
      apiKeyHeader: 'x',
      hostname: 'h',
    },
    secret,
    events: { pollSeconds: 20, leaseSeconds: 60 },
  };
  const services = {
    api,
    store,
    db,
    translations: new Translations(),
    names: new NameIndex(),
    config,
    clock: systemClock,
    log: pino({ level: 'silent' }),
    records: openRecords(db, store, config),
  } as unknown as Services;
  const repos = services.records.announcements;
  const since = Date.now() - 60_000;
  const base = {
    options: {},
    locale: 'en-US',
    createdBy: '1',
    createdAt: since,
    since,
    state: { status: 'active' as const },
  };
  for (let i = 0; i < MAPS; i += 1) {
    await repos.subscriptions.create({ ...base, guildId: `1${i}`, channelId: `2${i}`, kind: 'maps' });
  }
  const keys = kpdKeys(services);
  for (let i = 0; i < KPD_GUILDS; i += 1) {
    await repos.subscriptions.create({ ...base, guildId: `3${i}`, channelId: `4${i}`, kind: 'kpd' });
    await keys.save(`3${i}`, `kr_kpd${String(i).padStart(6, '0')}`, '1', since);
  }

  let posts = 0;
  const rest = {
    async post() {
      posts += 1;
      await delay(2);
      return { id: String(posts) };
    },
  } as unknown as REST;
  const cycles = new Map<string, Array<{ seconds: number; endedAt: number }>>();
  const announcements = await startPipeline({
    discord: { rest, guildLocale: () => undefined, ready: Promise.resolve() },
    services,
    config,
    kinds: ANNOUNCEMENT_KINDS,
    sources: [kpdSource(services)],
    options: {
      pollIntervalMs: INTERVAL_MS,
      leaseTtlMs: 30_000,
      budget: { limit: 1_000, windowMs: 60_000 },
      delivery: { concurrency: 32 },
      metrics: {
        pollCycle: (source, seconds) =>
          cycles.set(source, [...(cycles.get(source) ?? []), { seconds, endedAt: performance.now() }]),
        delivery: () => undefined,
        setOutboxDepth: () => undefined,
      },
    },
  });
  const started = performance.now();
  await delay(INTERVAL_MS * 2);
  // An event for every map subscription, stored as a poll would; the next poll hands it to the outbox.
  await repos.inbox.accept({
    key: 'e:bench',
    source: 'events',
    type: 'map.featured',
    at: Date.now(),
    data: { id: 1, type: 'map.featured', data: { map_id: 1, map_name: 'Bench', creator: 'bench' } },
  });
  const fanoutFrom = performance.now();
  while (!(await repos.inbox.isDone('e:bench')) && performance.now() - started < RUN_MS * 4) await delay(50);
  const fanoutTo = performance.now();
  const remaining = RUN_MS - (performance.now() - started);
  if (remaining > 0) await delay(remaining);
  await announcements.stop();
  const elapsed = performance.now() - started;

  const figures: Figures = {
    'subscriptions (maps + kpd)': `${MAPS} + ${KPD_GUILDS}`,
    'interval of every source, ms': INTERVAL_MS,
    'run, ms': elapsed.toFixed(0),
    'fan-out of one event to 10,000 channels, ms': (fanoutTo - fanoutFrom).toFixed(0),
    'posts sent': posts,
    'KPD requests (one per guild key and cycle)': calls.get('kpdLatestCalls') ?? 0,
  };
  for (const [source, list] of cycles) {
    const seconds = list.map((c) => c.seconds * 1000);
    figures[`${source}: cycles`] = list.length;
    figures[`${source}: median / longest cycle, ms`] =
      `${median(seconds).toFixed(0)} / ${Math.max(...seconds).toFixed(0)}`;
    figures[`${source}: longest cycle / interval`] = (Math.max(...seconds) / INTERVAL_MS).toFixed(2);
  }
  figures['events polls that ended during the fan-out'] = (cycles.get('events') ?? []).filter(
    (c) => c.endedAt > fanoutFrom && c.endedAt < fanoutTo,
  ).length;
  await db.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return figures;
}
