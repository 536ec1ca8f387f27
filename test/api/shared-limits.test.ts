import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TierClient } from '../../src/api/client.ts';
import { RateLimitedError } from '../../src/api/errors.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createMemoryLimits, createSharedLimits, type SharedLimits } from '../../src/traffic/index.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { openRedisConnection } from '../../src/store/backends.ts';
import { redisAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { recordingLog } from '../support/traffic.ts';

/**
 * Two tier clients standing for two processes on one API key, against the sandbox (which enforces the
 * real windows: 6 events a minute). Sharing their limits keeps the sum within them; waits that would pass
 * a call's deadline are refused at once, so nothing here waits on the wall clock.
 */
let sandbox: Sandbox;
const clients: TierClient[] = [];
const limits: SharedLimits[] = [];

function client(sharedLimits?: SharedLimits): TierClient {
  const made = new TierClient({
    urls: sandbox.urls,
    apiKey: sandbox.keys.default,
    ...(sharedLimits ? { sharedLimits } : {}),
  });
  clients.push(made);
  return made;
}

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const made of limits.splice(0)) await made.close();
  await sandbox.close();
});

type Outcome = 'ok' | 'refused' | 'error';

/** `count` calls of the events route on each client at once, background, with a 20 s deadline. */
async function events(pair: readonly TierClient[], count: number): Promise<Outcome[]> {
  const calls = pair.flatMap((c, who) =>
    Array.from({ length: count }, (_, i) =>
      c.api.events({ after: who * 100 + i }, { priority: 'background', deadlineMs: 20_000 }).then(
        (): Outcome => 'ok',
        (error: unknown): Outcome => (error instanceof RateLimitedError ? 'refused' : 'error'),
      ),
    ),
  );
  return Promise.all(calls);
}

function tally(outcomes: readonly Outcome[]): Record<Outcome, number> {
  return {
    ok: outcomes.filter((o) => o === 'ok').length,
    refused: outcomes.filter((o) => o === 'refused').length,
    error: outcomes.filter((o) => o === 'error').length,
  };
}

describe('tier clients sharing their limits', () => {
  it('without sharing, two processes on one key send 8 events requests and draw refusals', async () => {
    const outcomes = await events([client(), client()], 4);
    expect(sandbox.requests.count('/api/events')).toBe(8);
    expect(sandbox.requests.entries().some((e) => e.status === 429)).toBe(true);
    expect(tally(outcomes).ok).toBe(6);
  });

  it('sharing limits in memory, they send 6 events requests between them and draw no 429', async () => {
    const shared = createMemoryLimits(systemClock);
    limits.push(shared);
    const outcomes = await events([client(shared), client(shared)], 4);
    expect(tally(outcomes)).toEqual({ ok: 6, refused: 2, error: 0 });
    expect(sandbox.requests.count('/api/events')).toBe(6);
    expect(sandbox.requests.entries().every((e) => e.status === 200)).toBe(true);
  });

  it('background calls leave 10 of the 60 a minute to the interactive calls of another process', async () => {
    const shared = createMemoryLimits(systemClock);
    limits.push(shared);
    const worker = client(shared);
    const shard = client(shared);
    const names = sandbox.world.players.map((player) => player.name);
    const call = (c: TierClient, playerName: string, priority: 'interactive' | 'background') =>
      c.api.player({ playerName }, { priority, deadlineMs: 20_000 }).then(
        (): Outcome => 'ok',
        (error: unknown): Outcome => (error instanceof RateLimitedError ? 'refused' : 'error'),
      );
    const background = await Promise.all(names.slice(0, 55).map((name) => call(worker, name, 'background')));
    expect(tally(background)).toEqual({ ok: 50, refused: 5, error: 0 });
    const interactive = await Promise.all(
      names.slice(55, 66).map((name) => call(shard, name, 'interactive')),
    );
    expect(tally(interactive)).toEqual({ ok: 10, refused: 1, error: 0 });
    expect(sandbox.requests.count(/^\/api\/player\//)).toBe(60);
  });
});

describe.skipIf(!redisAvailable)('tier clients of two processes sharing their limits through Redis', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis.stop();
  });

  it('send 6 events requests between them and draw no 429', async () => {
    const prefix = `test:${randomUUID()}:`;
    const open = () =>
      createSharedLimits({ redisUrl: redis.url, clock: systemClock, log: recordingLog().log, prefix });
    const first = await open();
    const second = await open();
    limits.push(first, second);
    expect([first.shared, second.shared]).toEqual([true, true]);
    const outcomes = await events([client(first), client(second)], 4);
    expect(tally(outcomes)).toEqual({ ok: 6, refused: 2, error: 0 });
    expect(sandbox.requests.count('/api/events')).toBe(6);
    expect(sandbox.requests.entries().every((e) => e.status === 200)).toBe(true);
    // Two windows (the key's and its events route's), named by hashes only, kept in one Redis slot.
    const connection = openRedisConnection(redis.url, 2_000);
    try {
      if (!connection.ready) await new Promise<void>((resolve) => connection.onReady(resolve));
      const keys = ((await connection.send(['KEYS', `${prefix}*`])) as string[]).sort();
      expect(keys).toHaveLength(2);
      const slots = keys.map((key) => /\{([0-9a-f]{24})\}/.exec(key)?.[1]);
      expect(slots[0]).toBeDefined();
      expect(slots[0]).toBe(slots[1]);
      for (const key of keys) expect(key).not.toContain(sandbox.keys.default);
    } finally {
      connection.close();
    }
  });
});
