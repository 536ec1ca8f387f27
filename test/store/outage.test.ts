import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureLog } from '../../src/log/index.ts';
import { createStore, StoreError, type Store } from '../../src/store/index.ts';
import { ManualClock } from '../support/clock.ts';
import { redisAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';

/**
 * A store whose server stops answering: every operation gives up after its timeout (a manual clock here,
 * so nothing waits on the wall clock), an offline Redis refuses at once, and `health` follows it down
 * and back up.
 */
const TIMEOUT = 2_000;
const PROBE = 5_000;

function nextChange(store: Store): Promise<boolean> {
  return new Promise((resolve) => {
    const off = store.health.onChange((healthy) => {
      off();
      resolve(healthy);
    });
  });
}

/** Pending after the event loop has turned: the promise has not settled by itself. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

describe('a healthy store', () => {
  it('is healthy, and a refused key or value does not make it unhealthy', async () => {
    const store = await createStore('memory://', { purgeIntervalMs: 0 });
    try {
      expect(store.health.healthy).toBe(true);
      await expect(store.namespace('x').get('')).rejects.toThrow(TypeError);
      await expect(store.namespace('x').set('k', 1, -1)).rejects.toThrow(RangeError);
      expect(store.health.healthy).toBe(true);
      expect(store.health.reason).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!redisAvailable)('a Redis store whose server stops answering', () => {
  let redis: RedisServer;
  let clock: ManualClock;
  let store: Store;

  beforeAll(async () => {
    // The connection errors are logged as warnings, expected here.
    configureLog('error');
    redis = await startRedisServer();
  });

  afterEach(async () => {
    redis.resume();
    await store.close();
  });

  afterAll(async () => {
    await redis.stop();
    configureLog('info');
  });

  async function open(): Promise<Store> {
    clock = new ManualClock(Date.now());
    store = await createStore(redis.url, {
      purgeIntervalMs: 0,
      operationTimeoutMs: TIMEOUT,
      healthProbeMs: PROBE,
      clock,
    });
    return store;
  }

  it('paused: every operation fails with a StoreError after its timeout, and health follows', async () => {
    await open();
    const values = store.namespace<number>('paused');
    await values.set('k', 1);
    const changes: boolean[] = [];
    store.health.onChange((healthy) => changes.push(healthy));
    redis.pause();

    const calls = [
      values.get('k'),
      values.set('k', 2),
      values.has('k'),
      values.delete('k'),
      values.add('other', 3),
      (async () => {
        for await (const [key] of values.entries()) expect(key).toBeTypeOf('string');
      })(),
    ];
    for (const call of calls) expect(await pending(call)).toBe(true);
    await clock.advance(TIMEOUT);
    for (const call of calls) await expect(call).rejects.toThrow(StoreError);
    await expect(calls[0]).rejects.toThrow(/did not answer/);
    expect(store.health.healthy).toBe(false);
    expect(store.health.reason).toMatch(/timeout/);
    expect(changes).toEqual([false]);

    redis.resume();
    const recovered = nextChange(store);
    await clock.advance(PROBE);
    expect(await recovered).toBe(true);
    expect(store.health.healthy).toBe(true);
    expect(changes).toEqual([false, true]);
    expect(await values.get('k')).toBeTypeOf('number');
  });

  it('refusing connections: operations fail at once instead of queueing, and health recovers', async () => {
    await open();
    const values = store.namespace<number>('refused');
    await values.set('k', 1);
    const down = nextChange(store);
    await redis.stop();
    expect(await down).toBe(false);

    // No clock advance: an offline client refuses instead of queueing the command until it reconnects.
    await expect(values.get('k')).rejects.toThrow(StoreError);
    await expect(values.set('k', 2)).rejects.toThrow(StoreError);
    await expect(values.add('other', 2)).rejects.toThrow(StoreError);
    expect(store.health.healthy).toBe(false);

    // Health comes back when the client has reconnected (it probes then): no clock advance, no waiting.
    const back = nextChange(store);
    await redis.start();
    expect(await back).toBe(true);
    // A fresh server: what was written before is gone, but the store works again.
    await values.set('k', 5);
    expect(await values.get('k')).toBe(5);
  });
});
