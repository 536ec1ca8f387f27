import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TierClient } from '../src/api/client.ts';
import type { Clock } from '../src/core/clock.ts';
import { startSandbox } from '../src/dev/sandbox/index.ts';
import { mulberry32 } from '../src/dev/sandbox/prng.ts';
import { createStore } from '../src/store/index.ts';

export type Figures = Record<string, number | string>;

/** Time that moves only when someone sleeps: a sequential workload runs an hour of traffic in seconds. */
class SteppingClock implements Clock {
  #now = Date.UTC(2026, 10, 21, 12, 0, 0);
  now(): number {
    return this.#now;
  }
  sleep(ms: number): Promise<void> {
    this.#now += Math.max(0, ms);
    return Promise.resolve();
  }
  advanceTo(at: number): void {
    this.#now = Math.max(this.#now, at);
  }
}

/** Ranks 0..n-1 drawn with probability proportional to 1/(rank+1)^s. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cdf: number[] = [];
  let sum = 0;
  for (let i = 1; i <= n; i += 1) {
    sum += 1 / i ** s;
    cdf.push(sum);
  }
  return () => {
    const target = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** 100 concurrent identical lookups: how many reach the service. */
export async function benchSingleFlight(): Promise<Figures> {
  const sandbox = await startSandbox();
  const client = new TierClient({ urls: sandbox.urls, apiKey: sandbox.keys.default });
  try {
    const name = sandbox.world.samples.player;
    await Promise.all(Array.from({ length: 100 }, () => client.api.player({ playerName: name })));
    return {
      'single flight: upstream requests for 100 concurrent identical lookups (goal 1)':
        sandbox.requests.count(),
    };
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/**
 * 10,000 profile lookups, Zipf-distributed over 2,000 names, arriving at 80 a minute against the
 * service's 60 a minute: upstream calls against the distinct names of each TTL window, and 429s.
 */
export async function benchZipf(): Promise<Figures> {
  const clock = new SteppingClock();
  const sandbox = await startSandbox({ players: 2_000, now: () => clock.now() });
  const client = new TierClient({ urls: sandbox.urls, apiKey: sandbox.keys.default, clock });
  const names = sandbox.world.players.slice(0, 2_000).map((p) => p.name);
  const draw = zipf(names.length, 1, mulberry32(42));
  const lookups = 10_000;
  const perMinute = 80;
  const ttlMs = 60_000;
  const start = clock.now();
  const windows = new Map<number, Set<string>>();
  let failed = 0;
  try {
    for (let i = 0; i < lookups; i += 1) {
      clock.advanceTo(start + (i * 60_000) / perMinute);
      const name = names[draw()] ?? '';
      const window = Math.floor((clock.now() - start) / ttlMs);
      let seen = windows.get(window);
      if (!seen) windows.set(window, (seen = new Set()));
      seen.add(name);
      try {
        await client.api.player({ playerName: name }, { priority: 'background', deadlineMs: 10 * 60_000 });
      } catch {
        failed += 1;
      }
    }
    const upstream = sandbox.requests.count();
    const tooMany = sandbox.requests.entries().filter((e) => e.status === 429).length;
    const distinct = [...windows.values()].reduce((sum, set) => sum + set.size, 0);
    return {
      'zipf: lookups': lookups,
      'zipf: virtual minutes': Math.round((clock.now() - start) / 60_000),
      'zipf: upstream calls': upstream,
      'zipf: distinct names per TTL window, summed': distinct,
      'zipf: ratio upstream / distinct (goal <= 1.05)': Number((upstream / distinct).toFixed(3)),
      'zipf: 429s received (goal 0)': tooMany,
      'zipf: failed lookups': failed,
    };
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/** The client's own cost of a call answered from the cache, memory and SQLite stores. */
export async function benchCachedOverhead(): Promise<Figures> {
  // A generous limit: this measures the cache, not the pacing.
  const sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  const dir = await mkdtemp(join(tmpdir(), 'killfeed-bench-'));
  const store = await createStore(`sqlite://${join(dir, 'bench.sqlite')}`);
  const figures: Figures = {};
  try {
    for (const [label, client] of [
      ['memory', new TierClient({ urls: sandbox.urls, apiKey: sandbox.keys.default })],
      [
        'sqlite, in-process entries',
        new TierClient({ urls: sandbox.urls, apiKey: sandbox.keys.default, cache: store.namespace('cache') }),
      ],
    ] as const) {
      const name = sandbox.world.samples.player;
      await client.api.player({ playerName: name });
      const rounds = 50_000;
      for (let i = 0; i < 5_000; i += 1) await client.api.player({ playerName: name });
      const started = process.hrtime.bigint();
      for (let i = 0; i < rounds; i += 1) await client.api.player({ playerName: name });
      const micros = Number(process.hrtime.bigint() - started) / 1_000 / rounds;
      figures[`cached call overhead, ${label} (µs per call)`] = Number(micros.toFixed(2));
      await client.close();
    }
    // Entries another process wrote: read from SQLite itself (no in-process copy yet), 200 of them.
    const names = sandbox.world.players.slice(0, 200).map((p) => p.name);
    const writer = new TierClient({
      urls: sandbox.urls,
      apiKey: sandbox.keys.default,
      cache: store.namespace('shared'),
      generalLimit: { limit: 100_000, windowMs: 60_000 },
    });
    for (const playerName of names) await writer.api.player({ playerName });
    await writer.close();
    const reader = new TierClient({
      urls: sandbox.urls,
      apiKey: sandbox.keys.default,
      cache: store.namespace('shared'),
    });
    const before = sandbox.requests.count();
    const started = process.hrtime.bigint();
    for (const playerName of names) await reader.api.player({ playerName });
    figures['cached call read from SQLite, no in-process copy (µs per call)'] = Number(
      (Number(process.hrtime.bigint() - started) / 1_000 / names.length).toFixed(1),
    );
    figures['upstream requests for those 200 reads (goal 0)'] = sandbox.requests.count() - before;
    await reader.close();
    return figures;
  } finally {
    await store.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}
