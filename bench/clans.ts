import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import type { Figures } from './client.ts';
import { ANNOUNCEMENT_KINDS } from '../src/kinds.ts';
import { KindRegistry } from '../src/announcements/kinds/registry.ts';
import type { Subscription } from '../src/announcements/model.ts';
import { openRepositories } from '../src/announcements/repositories.ts';
import { Inbox } from '../src/announcements/inbox.ts';
import type { SourceRun } from '../src/announcements/sources.ts';
import type { Clock } from '../src/core/clock.ts';
import { openDatabase } from '../src/db/index.ts';
import { mulberry32 } from '../src/dev/sandbox/prng.ts';
import { followedClans } from '../src/features/clans/log/followed.ts';
import type { Roster } from '../src/features/clans/log/model.ts';
import { clanIntervals, planFor, type PlanConfig } from '../src/features/clans/log/plan.ts';
import { ClanLogSource } from '../src/features/clans/log/source.ts';
import { followCapacity } from '../src/traffic/capacity.ts';
import { BackgroundScheduler } from '../src/traffic/scheduler.ts';
import { createStore } from '../src/store/index.ts';
import { demandReader } from '../src/demand.ts';

/**
 * The clan log's cost: requests a minute and the interval kept between two reads of a clan's roster, for
 * 10, 100 and 500 clans followed, in simulated time (two hours; the worker polls every 30 s). Servers
 * follow five clans each and most clans are followed by several servers (a clan is still read once).
 * The game API is a counter that answers a roster of 20 members in which someone joins, leaves or changes
 * role now and then, so what is measured is the source's own demand and the plan's intervals. The last
 * rows put the clans beside 1,000 tracked players (one owner's 19 servers of 50, 25 servers of 2), which
 * share the servers' half of the background with them.
 *
 *   npx tsx bench/clans.ts
 */
const RUN_MS = 2 * 3_600_000;
/** The first 30 minutes fill the baseline (never-read clans go out a plan's worth per poll): not measured. */
const WARM_MS = 30 * 60_000;
const POLL_MS = 30_000;
const CONFIG: PlanConfig = {
  game: { apiKey: 'kr_bench' },
  events: { pollSeconds: 30 },
  follow: { trackMinutes: 5, linkedHours: 24 },
} as PlanConfig;
const SCENARIOS = [
  { clans: 10, tracked: false },
  { clans: 100, tracked: false },
  { clans: 500, tracked: false },
  { clans: 100, tracked: true },
  { clans: 500, tracked: true },
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

function subscription(id: string, guildId: string, fields: Partial<Subscription>): Subscription {
  return {
    id,
    guildId,
    channelId: `c-${guildId}`,
    kind: 'clan-log',
    options: {},
    locale: 'en-US',
    createdBy: 'u1',
    createdAt: 0,
    since: 0,
    state: { status: 'active' },
    ...fields,
  };
}

/** Servers of five clans each, 2.5 servers a clan on average: server s follows clans 2s .. 2s+4. */
function clanSubscriptions(clans: number): Subscription[] {
  const servers = Math.max(2, Math.ceil(clans / 2));
  return Array.from({ length: servers }, (_, server) =>
    Array.from({ length: 5 }, (_, k) => {
      const clanId = 1 + ((server * 2 + k) % clans);
      return subscription(`s${server}-${k}`, `g${server}`, {
        options: { clanId, clanName: `Clan${clanId}`, events: k === 0 ? 'all' : 'roster' },
      });
    }),
  )
    .flat()
    .filter(
      (s, index, all) =>
        all.findIndex((o) => o.guildId === s.guildId && o.options.clanId === s.options.clanId) === index,
    );
}

function trackedSubscriptions(): Subscription[] {
  const sizes = [...Array<number>(19).fill(50), ...Array<number>(25).fill(2)];
  let n = 0;
  return sizes.flatMap((size, server) =>
    Array.from({ length: size }, () => {
      n += 1;
      return subscription(`t${n}`, `t${server}`, { kind: 'track', options: { playerName: `Player${n}` } });
    }),
  );
}

async function scenario(clans: number, tracked: boolean) {
  const db = await openDatabase('sqlite://:memory:');
  const store = await createStore('memory://', { purgeIntervalMs: 0 });
  const clock = new SimClock();
  const random = mulberry32(clans * 31 + (tracked ? 1 : 0));
  const rosters = new Map<number, Roster>();
  const reads: Array<{ clanId: number; at: number }> = [];
  const read = (clanId: number): Promise<Roster> => {
    reads.push({ clanId, at: clock.now() });
    const members =
      rosters.get(clanId)?.members ??
      Array.from({ length: 20 }, (_, i) => ({ n: `P${clanId}-${i}`, r: i % 3, s: 1_000 * i }));
    // Now and then someone joins, or changes role.
    const next =
      random() < 0.15 ? [...members, { n: `P${clanId}-${Math.floor(random() * 1e6)}`, r: 0, s: 1 }] : members;
    const moved = next.map((m) => (random() < 0.01 ? { ...m, r: (m.r ?? 0) + 1 } : m));
    const roster: Roster = {
      clanId,
      name: `Clan${clanId}`,
      owner: moved[0]?.n ?? 'x',
      members: moved.slice(-40),
    };
    rosters.set(clanId, roster);
    return Promise.resolve(roster);
  };
  let boardReads = 0;
  const repos = openRepositories(db, store);
  const kinds = new KindRegistry(ANNOUNCEMENT_KINDS);
  const source = new ClanLogSource({
    inbox: new Inbox(repos.inbox, kinds),
    repos,
    clock,
    log: pino({ level: 'silent' }),
    kinds,
    scheduler: new BackgroundScheduler(),
    db,
    demand: demandReader(db),
    read,
    ranks: () => {
      boardReads += 1;
      return Promise.resolve(
        new Map(Array.from({ length: clans }, (_, i) => [i + 1, 1 + Math.floor(random() * 100)])),
      );
    },
    config: CONFIG,
  });
  const subscriptions = [...clanSubscriptions(clans), ...(tracked ? trackedSubscriptions() : [])];
  const run: SourceRun = {
    subscriptions,
    signal: new AbortController().signal,
    deliver: () => Promise.resolve(),
    spreadMs: POLL_MS / 2,
  };
  const started = performance.now();
  let polls = 0;
  for (let at = 0; at < RUN_MS; at += POLL_MS) {
    await source.poll(run);
    polls += 1;
    clock.advance(POLL_MS);
  }
  const wall = performance.now() - started;
  const plan = await planFor(demandReader(db), subscriptions, CONFIG);
  const planned = Math.max(...clanIntervals(plan, subscriptions).values());
  const events = await repos.inbox.depth();
  await db.close();
  await store.close();

  const measuredFrom = reads[0]!.at + WARM_MS;
  const counted = reads.filter((r) => r.at >= measuredFrom);
  const gaps: number[] = [];
  const last = new Map<number, number>();
  for (const { clanId, at } of reads) {
    const before = last.get(clanId);
    if (before !== undefined && at >= measuredFrom) gaps.push(at - before);
    last.set(clanId, at);
  }
  const mean = gaps.reduce((sum, gap) => sum + gap, 0) / Math.max(1, gaps.length);
  return {
    clans,
    servers: new Set(subscriptions.filter((s) => s.kind === 'clan-log').map((s) => s.guildId)).size,
    followed: followedClans(subscriptions).size,
    tracked: tracked ? 1_000 : 0,
    perMinute: (counted.length * 60_000) / (RUN_MS - WARM_MS),
    boardPerHour: (boardReads * 3_600_000) / RUN_MS,
    plannedMin: planned / 60_000,
    keptMeanMin: mean / 60_000,
    keptMaxMin: Math.max(0, ...gaps) / 60_000,
    plannedPerMinute: plan.perMinute.clans,
    capacity: followCapacity(CONFIG),
    messages: events,
    pollMs: wall / polls,
  };
}

/** `npm run bench`'s section: one line per scenario, the figures beside the goal. */
export async function benchClans(): Promise<Figures> {
  const figures: Figures = {};
  for (const { clans, tracked } of SCENARIOS) {
    const row = await scenario(clans, tracked);
    figures[`${clans} clans over ${row.servers} servers${tracked ? ', beside 1,000 tracked players' : ''}`] =
      `${row.perMinute.toFixed(1)} requests/min (goal: <= planned ${row.plannedPerMinute.toFixed(1)}, ` +
      `of ${row.capacity.toFixed(0)} for the whole background; clan board ${row.boardPerHour.toFixed(0)}/h); ` +
      `interval kept ${row.keptMeanMin.toFixed(1)} min on average, ${row.keptMaxMin.toFixed(1)} at most ` +
      `(goal: the plan's ${row.plannedMin.toFixed(1)} min, 5 min when the budget allows); ` +
      `${row.messages} posts stored; poll ${row.pollMs.toFixed(1)} ms`;
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = [];
  for (const { clans, tracked } of SCENARIOS) rows.push(await scenario(clans, tracked));
  console.table(rows);
}
