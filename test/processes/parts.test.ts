import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ShardState } from '../../src/metrics/index.ts';
import { answerMetricsRequests, requestMetrics, type ChildChannel } from '../../src/processes/ipc.ts';
import { processHealth } from '../../src/processes/ops.ts';
import { RespawnBudget } from '../../src/processes/respawn.ts';
import type { ShardFleet } from '../../src/processes/shards.ts';

/** The small parts of the process roles: respawn limits, the metrics IPC, what `/healthz` says. */
describe('respawning a shard that died', () => {
  const limits = { maxDeaths: 3, windowMs: 60_000, firstDelayMs: 1_000, maxDelayMs: 3_000 };

  it('waits longer after each death, then gives up past the limit within the window', () => {
    const budget = new RespawnBudget(limits);
    expect(budget.died(0)).toEqual({ respawn: true, delayMs: 1_000, deaths: 1 });
    expect(budget.died(10)).toEqual({ respawn: true, delayMs: 2_000, deaths: 2 });
    expect(budget.died(20)).toEqual({ respawn: true, delayMs: 3_000, deaths: 3 });
    expect(budget.died(30)).toEqual({ respawn: false, deaths: 4 });
  });

  it('forgets deaths older than the window', () => {
    const budget = new RespawnBudget(limits);
    budget.died(0);
    budget.died(1);
    budget.died(2);
    expect(budget.died(60_002)).toEqual({ respawn: true, delayMs: 1_000, deaths: 1 });
  });
});

/** Both ends of a forked child's IPC channel, in one process. */
function channelPair() {
  const child = new EventEmitter();
  const parent = new EventEmitter();
  const childEnd: ChildChannel = {
    on: (event, listener) => child.on(event, listener),
    off: (event, listener) => child.off(event, listener),
    send: (message, callback) => {
      queueMicrotask(() => parent.emit('message', structuredClone(message)));
      callback?.(null);
      return true;
    },
    connected: true,
  };
  const parentEnd = {
    send: (message: unknown) => {
      queueMicrotask(() => child.emit('message', structuredClone(message)));
      return Promise.resolve();
    },
    on: (event: 'message', listener: (message: unknown) => void) => parent.on(event, listener),
    off: (event: 'message', listener: (message: unknown) => void) => parent.off(event, listener),
  };
  return { childEnd, parentEnd, parent, child };
}

describe('metrics over the IPC channel', () => {
  it("answers the manager's request with the child's snapshot, and each request with its own", async () => {
    const { childEnd, parentEnd } = channelPair();
    let asked = 0;
    const stop = answerMetricsRequests({ snapshot: () => Promise.resolve({ n: ++asked }) }, childEnd);
    const [first, second] = await Promise.all([
      requestMetrics(parentEnd, 10_000),
      requestMetrics(parentEnd, 10_000),
    ]);
    expect([first, second]).toEqual([{ n: 1 }, { n: 2 }]);
    stop();
  });

  it('leaves out a child that fails, does not answer, or cannot be written to', async () => {
    const failing = channelPair();
    answerMetricsRequests({ snapshot: () => Promise.reject(new Error('no registry')) }, failing.childEnd);
    expect(await requestMetrics(failing.parentEnd, 10_000)).toBeUndefined();

    const silent = channelPair();
    expect(await requestMetrics(silent.parentEnd, 1)).toBeUndefined();
    expect(silent.parent.listenerCount('message')).toBe(0);

    const dead = { ...silent.parentEnd, send: () => Promise.reject(new Error('channel closed')) };
    expect(await requestMetrics(dead, 10_000)).toBeUndefined();
  });

  it("answers only its own requests, not discord.js's messages; without a channel it does nothing", async () => {
    const { childEnd, parentEnd, parent, child } = channelPair();
    answerMetricsRequests({ snapshot: () => Promise.resolve('x') }, childEnd);
    const replies: unknown[] = [];
    parent.on('message', (message) => replies.push(message));
    for (const other of [
      { _fetchProp: 'guilds.cache.size' },
      { _eval: '1' },
      { killfeed: 'metrics?' },
      null,
    ]) {
      child.emit('message', other);
    }
    expect(await requestMetrics(parentEnd, 10_000)).toBe('x');
    expect(replies).toEqual([{ killfeed: 'metrics', id: expect.any(Number) as number, snapshot: 'x' }]);

    const listeners: unknown[] = [];
    const detached = { on: (_: string, l: unknown) => listeners.push(l), off: () => undefined };
    answerMetricsRequests({ snapshot: () => Promise.resolve('x') }, detached)();
    expect(listeners).toEqual([]);
  });
});

function fleet(states: Record<number, ShardState>): ShardFleet {
  const map = new Map(Object.entries(states).map(([id, state]) => [Number(id), state] as const));
  return {
    plan: { total: map.size, ids: [...map.keys()], maxConcurrency: 1 },
    states: () => map,
    ready: () => [...map.values()].every((state) => state === 'ready'),
    allReady: Promise.resolve(),
    pids: () => new Map(),
    metrics: () => Promise.resolve([]),
    stop: () => Promise.resolve(),
  };
}

describe('/healthz of a process', () => {
  const both = { shards: true, worker: true };

  it('is ready only when every shard is ready and the worker is up', () => {
    const active = { ready: true, state: 'active' } as const;
    expect(
      processHealth({ fleet: fleet({ 0: 'ready', 1: 'ready' }), worker: active, expects: both }),
    ).toEqual({
      ready: true,
      body: { status: 'ok', shards: { 0: 'ready', 1: 'ready' }, worker: active },
    });
    expect(
      processHealth({ fleet: fleet({ 0: 'ready', 1: 'dead' }), worker: active, expects: both }).ready,
    ).toBe(false);
    const down = { ready: false, state: 'down', detail: 'store-down' } as const;
    expect(processHealth({ fleet: fleet({ 0: 'ready' }), worker: down, expects: both })).toMatchObject({
      ready: false,
      body: { status: 'starting', worker: down },
    });
  });

  it('counts a standby worker as up, and what a role does not run as nothing to wait for', () => {
    const standby = {
      ready: true,
      state: 'standby',
      detail: 'another process holds the worker lease',
    } as const;
    const workerOnly = { shards: false, worker: true };
    expect(processHealth({ worker: standby, expects: workerOnly })).toEqual({
      ready: true,
      body: { status: 'ok', worker: standby },
    });
    const shardsOnly = { shards: true, worker: false };
    expect(processHealth({ fleet: fleet({ 3: 'ready' }), expects: shardsOnly }).body).toEqual({
      status: 'ok',
      shards: { 3: 'ready' },
    });
  });

  it('is not ready while a part is still starting, nor while stopping', () => {
    expect(processHealth({ expects: { shards: true, worker: true } })).toEqual({
      ready: false,
      body: { status: 'starting', shards: {}, worker: { ready: false, state: 'starting' } },
    });
    const ready = fleet({ 0: 'ready' });
    expect(
      processHealth({ fleet: ready, expects: { shards: true, worker: false }, stopping: true }),
    ).toMatchObject({ ready: false, body: { status: 'stopping' } });
  });
});
