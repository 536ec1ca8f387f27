import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.ts';
import { DiscordGlobalLimit, type DiscordGlobalOptions } from '../../src/traffic/discord-global.ts';
import { LimitGate, type SharedLimits } from '../../src/traffic/index.ts';
import { MemoryWindows } from '../../src/traffic/memory.ts';
import { ManualClock } from '../support/clock.ts';
import { busiestWindow } from '../support/traffic.ts';

/**
 * Discord's global limit as one limiter shared by commands (interactive) and the announcement fan-out
 * (background), on a manual clock: the fan-out alone uses the whole 50 a second, and a command waiting
 * beside it takes the next slot before any fan-out request.
 */
let clock: ManualClock;
let gates: SharedLimits[];

beforeEach(() => {
  clock = new ManualClock();
  gates = [];
});

afterEach(async () => {
  for (const gate of gates) await gate.close();
});

function limitOver(
  store: MemoryWindows,
  commandsInProcess = true,
  options: DiscordGlobalOptions & { readonly clock?: Clock } = {},
): DiscordGlobalLimit {
  const gate = new LimitGate(store, clock, 'test:');
  gates.push(gate);
  return new DiscordGlobalLimit(gate, 'bot-token', options.clock ?? clock, {
    perSecond: 50,
    marginMs: 5,
    commandsInProcess,
    ...options,
  });
}

/** The test's clock, whose every `lateEvery`-th sleep wakes `lateMs` late (a busy event loop's timers). */
function lateTimers(lateEvery: number, lateMs: number): Clock {
  let sleeps = 0;
  return {
    now: () => clock.now(),
    sleep: (ms, signal) => {
      sleeps += 1;
      return clock.sleep(ms + (sleeps % lateEvery === 0 ? lateMs : 0), signal);
    },
  };
}

/** `workers` loops each taking background slots until `count` are taken; the clock time of each grant. */
function fanOut(limit: DiscordGlobalLimit, count: number, workers = 16) {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await limit.take('background');
      times.push(clock.now());
    }
  };
  const done = Promise.all(Array.from({ length: workers }, worker));
  return { times, done };
}

describe('the global limit, commands and fan-out together', () => {
  it('lets the fan-out use the whole 50 a second when no command asks, never more', async () => {
    const limit = limitOver(new MemoryWindows());
    const start = clock.now();
    const { times, done } = fanOut(limit, 1_000);
    await clock.settle(done);
    const seconds = (Math.max(...times) - start) / 1000;
    // 1,000 at 50 a second: the last one 20 s in, give or take the 5 ms margin a second (1.005 ×).
    expect(seconds).toBeGreaterThanOrEqual(19.98 * 1.0);
    expect(seconds).toBeLessThanOrEqual((1_000 / 50) * 1.006);
    expect(busiestWindow(times, 1_000)).toBeLessThanOrEqual(50);
    // Spaced, not in bursts: no two background requests closer than 20 ms.
    const sorted = [...times].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i += 1)
      expect((sorted[i] ?? 0) - (sorted[i - 1] ?? 0)).toBeGreaterThanOrEqual(20);
  });

  it('makes up for timers that fire late: the takes after a late one go sooner, the window still held', async () => {
    // Every fourth wake-up of the fan-out 15 ms late: more than half an interval, which used to be lost.
    const limit = limitOver(new MemoryWindows(), true, { clock: lateTimers(4, 15) });
    const start = clock.now();
    const { times, done } = fanOut(limit, 1_000);
    await clock.settle(done);
    const seconds = (Math.max(...times) - start) / 1000;
    expect(seconds).toBeLessThanOrEqual((1_000 / 50) * 1.006);
    expect(busiestWindow(times, 1_005)).toBeLessThanOrEqual(50);
  });

  it('counts a request from when its answer says it can have reached Discord, not from its slot', async () => {
    const limit = limitOver(new MemoryWindows(), true, { perSecond: 2, marginMs: 0 });
    const start = clock.now();
    const first = await limit.take('interactive');
    await limit.take('interactive');
    const granted: number[] = [];
    const next = [limit.take('interactive'), limit.take('interactive')].map((take) =>
      take.then(() => granted.push(clock.now())),
    );
    // The first request's answer comes 300 ms after its slot: no round trip seen yet is quicker than
    // nothing, so it counts from its answer, and the fourth request waits for it to leave the window.
    await clock.advance(300);
    first.answered();
    await clock.settle(Promise.all(next));
    expect(granted).toEqual([start + 1_000, start + 1_300]);
  });

  it('counts only the part of a round trip beyond the quickest of late', async () => {
    const limit = limitOver(new MemoryWindows(), true, { perSecond: 1, marginMs: 0 });
    // 64 requests answered 40 ms after their slots: the quickest round trip is 40 ms.
    for (let i = 0; i < 64; i += 1) {
      const slot = await clock.settle(limit.take('interactive'));
      await clock.advance(40);
      slot.answered();
    }
    const slot = await clock.settle(limit.take('interactive'));
    const taken = clock.now();
    await clock.advance(100);
    slot.answered();
    // Answered after 100 ms: it reached Discord 60 ms after its slot at the latest.
    await clock.settle(limit.take('interactive'));
    expect(clock.now()).toBe(taken + 60 + 1_000);
  });

  it('serves a command before every fan-out request waiting with it, and keeps the total at 50', async () => {
    const limit = limitOver(new MemoryWindows());
    const { times, done } = fanOut(limit, 300);
    await clock.advance(2_500);
    // The fan-out keeps the window full: sixteen of its requests wait now.
    const before = times.length;
    const commands: number[] = [];
    const asked = clock.now();
    const command = Promise.all(
      Array.from({ length: 3 }, () => limit.take('interactive').then(() => commands.push(clock.now()))),
    );
    await clock.settle(command);
    // The three commands took the next three slots of the global window: no fan-out request in between.
    const fanOutMeanwhile = times.filter((at) => at > asked && at <= Math.max(...commands)).length;
    expect(fanOutMeanwhile).toBe(0);
    expect(Math.max(...commands) - asked).toBeLessThanOrEqual(3 * 21);
    expect(times.length).toBe(before);
    await clock.settle(done);
    expect(busiestWindow([...times, ...commands], 1_000)).toBeLessThanOrEqual(50);
  });

  it('across processes (a shared store), the fan-out leaves one slot a second to commands', async () => {
    const store = new MemoryWindows();
    Object.defineProperty(store, 'shared', { value: true });
    const worker = limitOver(store);
    const shard = limitOver(store);
    const { times, done } = fanOut(worker, 200);
    await clock.advance(1_500);
    // Every second of the fan-out holds at most 49 of its requests: a shard's command finds one free.
    expect(busiestWindow(times, 1_005)).toBeLessThanOrEqual(49);
    const asked = clock.now();
    await clock.settle(shard.take('interactive'));
    expect(clock.now() - asked).toBeLessThanOrEqual(21);
    await clock.settle(done);
  });

  it('in the worker alone (no Redis), the fan-out still leaves one slot a second', async () => {
    const worker = limitOver(new MemoryWindows(), false);
    const { times, done } = fanOut(worker, 200);
    await clock.settle(done);
    expect(busiestWindow(times, 1_005)).toBeLessThanOrEqual(49);
  });
});
