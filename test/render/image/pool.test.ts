import { afterEach, describe, expect, it } from 'vitest';
import {
  RenderBusyError,
  RenderFailedError,
  RenderTimeoutError,
  type RenderPool,
} from '../../../src/render/image/pool.ts';
import { ManualClock } from '../../support/clock.ts';
import { CRASH, HANG, markerWorker, testPool, tinySvg } from '../../support/render-pool.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('RenderPool', () => {
  it('draws in a worker thread and answers with the PNG', async () => {
    pool = testPool(markerWorker);
    const drawn = await pool.run({ svg: tinySvg(1) });
    expect(drawn.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect([drawn.width, drawn.height]).toEqual([4, 4]);
    expect(pool.stats).toEqual({ threads: 1, waiting: 0, busy: 0 });
  });

  it('answers a draw that throws in the worker as failed, and the same thread draws the next', async () => {
    pool = testPool(markerWorker);
    await expect(pool.run({ svg: '<svg' })).rejects.toBeInstanceOf(RenderFailedError);
    expect((await pool.run({ svg: tinySvg(2) })).width).toBe(4);
    expect(pool.stats.threads).toBe(1);
  });

  it('gives up a draw that hangs past the timeout, replaces the thread, and draws the next', async () => {
    const clock = new ManualClock();
    pool = testPool(markerWorker, { timeoutMs: 2_000, sleep: (ms, signal) => clock.sleep(ms, signal) });
    await pool.run({ svg: tinySvg(3) });
    const stuck = pool.run({ svg: tinySvg(4, HANG) });
    const refused = expect(stuck).rejects.toBeInstanceOf(RenderTimeoutError);
    await clock.whenSleeping(1);
    await clock.advance(1_999);
    expect(pool.stats.busy).toBe(1);
    await clock.advance(1);
    await refused;
    const next = pool.run({ svg: tinySvg(5) });
    await clock.whenSleeping(1);
    expect((await next).width).toBe(4);
  });

  it('replaces a thread that dies in the middle of a draw', async () => {
    pool = testPool(markerWorker);
    await expect(pool.run({ svg: tinySvg(6, CRASH) })).rejects.toThrow(/exited \(3\)/);
    expect((await pool.run({ svg: tinySvg(7) })).width).toBe(4);
  });

  it('refuses a draw beyond its queue at once, and draws the ones it took', async () => {
    const clock = new ManualClock();
    pool = testPool(markerWorker, { queueLimit: 2, sleep: (ms, signal) => clock.sleep(ms, signal) });
    const taken = [pool.run({ svg: tinySvg(8) }), pool.run({ svg: tinySvg(9) })];
    await expect(pool.run({ svg: tinySvg(10) })).rejects.toBeInstanceOf(RenderBusyError);
    for (const drawn of await Promise.all(taken)) expect(drawn.width).toBe(4);
  });

  it('refuses a size, queue or timeout it could not work with', () => {
    expect(() => testPool(markerWorker, { size: 0 })).toThrow(RangeError);
    expect(() => testPool(markerWorker, { queueLimit: -1 })).toThrow(RangeError);
    expect(() => testPool(markerWorker, { timeoutMs: Number.NaN })).toThrow(RangeError);
  });

  it('uses no more threads than its size', async () => {
    pool = testPool(markerWorker, { size: 2, queueLimit: 10 });
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => pool!.run({ svg: tinySvg(20 + i) })));
    expect(all).toHaveLength(6);
    expect(pool.stats.threads).toBeLessThanOrEqual(2);
  });
});
