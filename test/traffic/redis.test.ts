import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../src/traffic/budget.ts';
import { createSharedLimits, type LimitWindow, type SharedLimits } from '../../src/traffic/index.ts';
import { openRedisConnection, type RedisConnection } from '../../src/store/backends.ts';
import { ManualClock } from '../support/clock.ts';
import { redisAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { busiestWindow, Driver, GENERAL, recordingLog, type LogLine } from '../support/traffic.ts';

/**
 * The shared limits over a real Redis (a private redis-server on 127.0.0.1): instances stand for processes,
 * all on one manual clock whose time the Lua script receives. Redis's own timeouts wait on a second manual
 * clock, so an outage is driven by hand too.
 */
const required = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

if (!redisAvailable) {
  if (required) {
    it('shared limits in Redis: /usr/bin/redis-server is required in CI', () => {
      throw new Error('/usr/bin/redis-server is missing, and CI requires the Redis tests');
    });
  } else {
    console.warn('limits tests: no /usr/bin/redis-server, skipping the Redis tests');
  }
}

const TIMEOUT_MS = 1_000;
const PROBE_MS = 5_000;
const events: LimitWindow = { scope: GENERAL.scope, name: 'events', limit: 6, windowMs: 60_000 };

describe.skipIf(!redisAvailable)('shared limits in Redis', () => {
  let redis: RedisServer;
  let clock: ManualClock;
  let timeouts: ManualClock;
  let prefix: string;
  let opened: SharedLimits[];
  let logs: LogLine[][];
  let recorders: Map<SharedLimits, ReturnType<typeof recordingLog>>;
  let raw: RedisConnection | undefined;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis.stop();
  });

  beforeEach(() => {
    clock = new ManualClock();
    timeouts = new ManualClock();
    prefix = `test:${randomUUID()}:`;
    opened = [];
    logs = [];
    recorders = new Map();
    raw = undefined;
  });

  afterEach(async () => {
    redis.resume();
    for (const limits of opened) await limits.close();
    raw?.close();
  });

  async function instance(): Promise<SharedLimits> {
    const recorder = recordingLog();
    const { lines, log } = recorder;
    const limits = await createSharedLimits({
      redisUrl: redis.url,
      clock,
      log,
      prefix,
      timeoutMs: TIMEOUT_MS,
      probeMs: PROBE_MS,
      timeoutSleep: timeouts.sleep.bind(timeouts),
    });
    opened.push(limits);
    logs.push(lines);
    recorders.set(limits, recorder);
    return limits;
  }

  async function connect(): Promise<RedisConnection> {
    const connection = openRedisConnection(redis.url, 2_000);
    raw = connection;
    if (!connection.ready) await new Promise<void>((resolve) => connection.onReady(resolve));
    return connection;
  }

  /**
   * Waits until the instance counts in Redis (`true`) or alone (`false`): the switch is logged in the same
   * turn as it is made (a warning going alone, a note coming back), so the wait is for that line.
   */
  async function until(limits: SharedLimits, shared: boolean): Promise<void> {
    if (limits.shared !== shared) await recorders.get(limits)!.next(shared ? 'info' : 'warn');
    expect(limits.shared).toBe(shared);
  }

  it('lets two instances on one manual clock take together at most 60 in any 60 s window', async () => {
    const a = await instance();
    const b = await instance();
    expect([a.kind, a.shared, b.shared]).toEqual(['redis', true, true]);
    const driver = new Driver(clock, [a, b]);
    for (let i = 0; i < 100; i += 1) {
      void driver.take(a, 'a', [GENERAL], 'interactive');
      void driver.take(b, 'b', [GENERAL], 'interactive');
    }
    await driver.settle();
    expect(driver.grants).toHaveLength(60);
    await driver.runUntil(() => driver.grants.length === 200, 10 * 60_000);
    expect(driver.grants).toHaveLength(200);
    expect(busiestWindow(driver.times(), 60_000)).toBe(60);
    expect(driver.times('a').length).toBe(100);
    expect(driver.times('b').length).toBe(100);
  });

  it('keeps the reserve for interactive requests of another instance', async () => {
    const worker = await instance();
    const shard = await instance();
    const driver = new Driver(clock, [worker, shard]);
    const window = { ...GENERAL, reserve: 10 };
    for (let i = 0; i < 70; i += 1) void driver.take(worker, 'worker', [window], 'background');
    await driver.settle();
    expect(driver.grants).toHaveLength(50);
    for (let i = 0; i < 11; i += 1) void driver.take(shard, 'shard', [window], 'interactive');
    await driver.settle();
    expect(driver.times('shard')).toHaveLength(10);
    expect(driver.times('shard').every((at) => at === clock.now())).toBe(true);
    await driver.runUntil(() => driver.grants.length === 81, 5 * 60_000);
    expect(busiestWindow(driver.times(), 60_000)).toBeLessThanOrEqual(60);
  });

  it('holds the events endpoint to 6 a minute across instances, besides the general window', async () => {
    const a = await instance();
    const b = await instance();
    const driver = new Driver(clock, [a, b]);
    for (let i = 0; i < 8; i += 1) {
      void driver.take(a, 'events', [GENERAL, events], 'background');
      void driver.take(b, 'events', [GENERAL, events], 'background');
    }
    for (let i = 0; i < 10; i += 1) void driver.take(b, 'other', [GENERAL], 'background');
    await driver.settle();
    expect(driver.times('events')).toHaveLength(6);
    expect(driver.times('other')).toHaveLength(10);
    await driver.runUntil(() => driver.grants.length === 26, 5 * 60_000);
    expect(driver.grants).toHaveLength(26);
    expect(busiestWindow(driver.times('events'), 60_000)).toBe(6);
  });

  it('keys Redis by a hash of the scope, never the API key, and lets the windows expire', async () => {
    const limits = await instance();
    const secret = 'kr_live_0123456789abcdef';
    await limits.take({ windows: [{ ...GENERAL, scope: secret }], priority: 'interactive' });
    const connection = await connect();
    const keys = (await connection.send(['KEYS', `${prefix}*`])) as string[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain('kr_live');
    expect(keys[0]).toMatch(/^test:[0-9a-f-]+:\{[0-9a-f]{24}\}:[0-9a-f]{24}$/);
    expect(Number(await connection.send(['PTTL', keys[0]!]))).toBeGreaterThan(60_000);
  });

  it('survives a restart of the process: a new instance sees what the old one took', async () => {
    const first = await instance();
    for (let i = 0; i < 60; i += 1) await first.take({ windows: [GENERAL], priority: 'interactive' });
    await first.close();
    const second = await instance();
    expect(await second.recent(GENERAL)).toHaveLength(60);
    const driver = new Driver(clock, [second]);
    const start = clock.now();
    await clock.advance(15_000);
    void driver.take(second, 'second', [GENERAL], 'interactive');
    await driver.runUntil(() => driver.grants.length === 1, 2 * 60_000);
    expect(driver.times()).toEqual([start + 60_000]);
  });

  it('shares the events budget of the pollers between processes', async () => {
    const a = await instance();
    const b = await instance();
    const rule = { limit: 6, windowMs: 60_000 };
    const first = new RequestBudget(a, 'events:key', rule, clock);
    const second = new RequestBudget(b, 'events:key', rule, clock);
    for (let i = 0; i < 3; i += 1) await first.take();
    for (let i = 0; i < 2; i += 1) await second.take();
    expect(await second.recent()).toHaveLength(5);
    const driver = new Driver(clock, [a, b]);
    let through = false;
    const waiting = second.take().then(() => (through = true));
    await driver.advance(59_999);
    expect(through).toBe(false);
    await driver.advance(1);
    await waiting;
    expect(await first.recent()).toHaveLength(1);
  });

  it('falls back to counting alone when Redis stops, within the limit per instance, and shares again after', async () => {
    const a = await instance();
    const b = await instance();
    const driver = new Driver(clock, [a, b]);
    const start = clock.now();
    for (let i = 0; i < 40; i += 1) void driver.take(a, 'a', [GENERAL], 'interactive');
    for (let i = 0; i < 20; i += 1) void driver.take(b, 'b', [GENERAL], 'interactive');
    await driver.settle();
    expect(driver.grants).toHaveLength(60);

    await redis.stop();
    await until(a, false);
    await until(b, false);
    await driver.advance(1_000);
    for (let i = 0; i < 30; i += 1) void driver.take(a, 'a', [GENERAL], 'interactive');
    for (let i = 0; i < 50; i += 1) void driver.take(b, 'b', [GENERAL], 'interactive');
    await driver.settle();
    // Each instance remembers what it took through Redis: it stays within the limit on its own.
    expect(driver.times('a')).toHaveLength(60);
    expect(driver.times('b')).toHaveLength(60);
    expect(busiestWindow(driver.times('a'), 60_000)).toBe(60);
    expect(busiestWindow(driver.times('b'), 60_000)).toBe(60);
    for (const lines of logs) expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);

    // Redis comes back empty (nothing was saved): each instance writes back what it counted.
    await redis.start();
    await until(a, true);
    await until(b, true);
    expect(await a.recent(GENERAL)).toHaveLength(120);
    for (const lines of logs) expect(lines.filter((line) => line.level === 'info')).toHaveLength(1);
    await driver.runUntil(() => driver.grants.length === 140, 5 * 60_000);
    // The first grant after the outage waits until the 61st newest request has left: 120 - 60 + 1.
    expect(driver.grants[120]?.at).toBe(start + 61_000);
    expect(busiestWindow(driver.times('a'), 60_000)).toBeLessThanOrEqual(60);
    expect(busiestWindow(driver.times('b'), 60_000)).toBeLessThanOrEqual(60);
  });

  it('never lets a take hang on a Redis that does not answer: the timeout, then this process alone', async () => {
    const limits = await instance();
    await limits.take({ windows: [GENERAL], priority: 'interactive' });
    redis.pause();
    let granted = false;
    const taking = limits.take({ windows: [GENERAL], priority: 'interactive' }).then(() => (granted = true));
    await timeouts.whenSleeping(1);
    await timeouts.advance(TIMEOUT_MS - 1);
    expect(granted).toBe(false);
    await timeouts.advance(1);
    await taking;
    expect(limits.shared).toBe(false);
    // Down: the next ones do not wait for a timeout again.
    for (let i = 0; i < 5; i += 1) await limits.take({ windows: [GENERAL], priority: 'interactive' });
    expect(await limits.recent(GENERAL)).toHaveLength(7);
    expect(logs[0]?.filter((line) => line.level === 'warn')).toHaveLength(1);

    redis.resume();
    await timeouts.whenSleeping(1);
    await timeouts.advance(PROBE_MS);
    await until(limits, true);
    expect(await limits.recent(GENERAL)).toHaveLength(7);
  });

  it('starts without Redis when it cannot be reached, counting alone, after the connect timeout', async () => {
    const { lines, log } = recordingLog();
    const starting = createSharedLimits({
      redisUrl: 'redis://127.0.0.1:1',
      clock,
      log,
      prefix,
      connectTimeoutMs: 2_000,
      timeoutSleep: timeouts.sleep.bind(timeouts),
    });
    await timeouts.whenSleeping(1);
    await timeouts.advance(2_000);
    const limits = await starting;
    opened.push(limits);
    expect(limits.shared).toBe(false);
    await limits.take({ windows: [GENERAL], priority: 'interactive' });
    expect(await limits.recent(GENERAL)).toHaveLength(1);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('127.0.0.1');
  });
});
