import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../src/core/clock.ts';
import { LimitGate, createSharedLimits, type LimitWindow, type SharedLimits } from '../src/traffic/index.ts';
import { MemoryWindows } from '../src/traffic/memory.ts';
import { startRedis, type PrivateRedis } from './chaos/redis.ts';
import { onPath } from './chaos/net.ts';
import type { Figures } from './client.ts';

/**
 * The shared request limits: what one take costs against a local Redis (and in memory), and the rate two
 * instances (two processes) achieve together under a 60-a-minute rule when both always want more, on a
 * virtual clock (an hour of traffic in seconds).
 */
const quiet = { warn: () => undefined, info: () => undefined };

/** Time that jumps to the next wake-up once everyone has done what they can at the current one. */
class VirtualClock implements Clock {
  #now = Date.UTC(2026, 10, 21, 12, 0, 0);
  #sleepers: Array<{ at: number; resolve: () => void }> = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const sleeper = { at: this.#now + Math.max(0, ms), resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        },
        { once: true },
      );
    });
  }

  /** Wakes the earliest sleepers; false when nobody sleeps. */
  wakeNext(): boolean {
    if (this.#sleepers.length === 0) return false;
    const at = Math.min(...this.#sleepers.map((s) => s.at));
    this.#now = Math.max(this.#now, at);
    const due = this.#sleepers.filter((s) => s.at <= at);
    this.#sleepers = this.#sleepers.filter((s) => s.at > at);
    for (const sleeper of due) sleeper.resolve();
    return true;
  }
}

async function settle(gates: readonly SharedLimits[]): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    await Promise.all(gates.map((gate) => gate.idle()));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function busiest(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** Sequential takes on a window that never refuses: the round trip and the script, nothing else. */
async function costOfTake(limits: SharedLimits, takes: number): Promise<number> {
  const window: LimitWindow = { scope: randomUUID(), name: 'requests', limit: 1_000_000, windowMs: 1_000 };
  for (let i = 0; i < 500; i += 1) await limits.take({ windows: [window], priority: 'interactive' });
  const started = process.hrtime.bigint();
  for (let i = 0; i < takes; i += 1) await limits.take({ windows: [window], priority: 'interactive' });
  return Number(process.hrtime.bigint() - started) / 1_000 / takes;
}

/**
 * Two instances, each with four callers that take again as soon as they get a slot (one instance all
 * background, the other half interactive), for `minutes` of virtual time under 60 a minute with 10 kept
 * for interactive calls.
 */
async function twoInstances(make: (clock: Clock) => Promise<SharedLimits[]>, minutes: number) {
  const clock = new VirtualClock();
  const [worker, shard] = await make(clock);
  if (!worker || !shard) throw new Error('two instances expected');
  const window: LimitWindow = { scope: 'key', name: 'requests', limit: 60, windowMs: 60_000, reserve: 10 };
  const start = clock.now();
  const end = start + minutes * 60_000;
  const grants: Array<{ at: number; interactive: boolean }> = [];
  const caller = async (limits: SharedLimits, interactive: boolean) => {
    try {
      while (clock.now() < end) {
        const slot = await limits.take({
          windows: [window],
          priority: interactive ? 'interactive' : 'background',
        });
        if (slot.at < end) grants.push({ at: slot.at, interactive });
      }
    } catch {
      // Closed at the end.
    }
  };
  const callers = [
    ...Array.from({ length: 4 }, () => caller(worker, false)),
    ...Array.from({ length: 4 }, (_, i) => caller(shard, i % 2 === 0)),
  ];
  while (clock.now() < end) {
    await settle([worker, shard]);
    if (!clock.wakeNext()) break;
  }
  await worker.close();
  await shard.close();
  await Promise.all(callers);
  const times = grants.map((grant) => grant.at);
  return {
    ratio: grants.length / (60 * minutes),
    busiest: busiest(times, 60_000),
    interactiveShare: grants.filter((grant) => grant.interactive).length / Math.max(1, grants.length),
  };
}

export async function benchSharedLimits(): Promise<Figures> {
  const figures: Figures = {};
  const memory = new LimitGate(new MemoryWindows(), systemClock, 'bench:');
  figures['take, in memory (µs per take)'] = Number((await costOfTake(memory, 50_000)).toFixed(2));
  await memory.close();
  const run = await twoInstances(async (clock) => {
    const store = new MemoryWindows();
    return [new LimitGate(store, clock, 'bench:'), new LimitGate(store, clock, 'bench:')];
  }, 60);
  figures['two instances on one memory store, 60 virtual minutes: requests / limit (goal <= 1, near 1)'] =
    Number(run.ratio.toFixed(4));
  figures['  busiest 60 s window (goal <= 60)'] = run.busiest;
  figures['  interactive share of the requests (2 of 8 callers; 10 of 60 kept for them)'] = Number(
    run.interactiveShare.toFixed(3),
  );

  const executable = onPath('redis-server', process.env.PATH) ?? '/usr/bin/redis-server';
  let redis: PrivateRedis;
  try {
    redis = await startRedis(executable);
  } catch {
    figures['redis'] = 'redis-server could not start: Redis figures skipped';
    return figures;
  }
  try {
    const prefix = `bench:${randomUUID()}:`;
    const open = (clock: Clock) => createSharedLimits({ redisUrl: redis.url, clock, log: quiet, prefix });
    const shared = await open(systemClock);
    figures['take, Redis on 127.0.0.1 (µs per take, one at a time)'] = Number(
      (await costOfTake(shared, 20_000)).toFixed(1),
    );
    const window: LimitWindow = { scope: randomUUID(), name: 'requests', limit: 1_000_000, windowMs: 1_000 };
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: 20_000 }, () => shared.take({ windows: [window], priority: 'interactive' })),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    figures['takes, Redis, 20,000 queued at once (takes per second)'] = Math.round(20_000 / seconds);
    await shared.close();
    const twoRedis = await twoInstances(async (clock) => [await open(clock), await open(clock)], 60);
    figures['two instances through Redis, 60 virtual minutes: requests / limit (goal <= 1, near 1)'] = Number(
      twoRedis.ratio.toFixed(4),
    );
    figures['  redis: busiest 60 s window (goal <= 60)'] = twoRedis.busiest;
    figures['  redis: interactive share of the requests'] = Number(twoRedis.interactiveShare.toFixed(3));
  } finally {
    await redis.stop();
  }
  return figures;
}
