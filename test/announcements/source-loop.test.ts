import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Leadership } from '../../src/announcements/leadership.ts';
import type { Lease } from '../../src/announcements/lease.ts';
import { Outbox } from '../../src/announcements/outbox.ts';
import { SourceLoop } from '../../src/announcements/source-loop.ts';
import type { Source } from '../../src/announcements/sources.ts';
import { ManualClock } from '../support/clock.ts';

const INTERVAL = 1_000;

function heldLease(): Lease {
  return {
    name: 'worker',
    ttlMs: 90_000,
    acquire: () => Promise.resolve(true),
    renew: () => Promise.resolve(true),
    release: () => Promise.resolve(),
  } as unknown as Lease;
}

/** A log that keeps its lines. */
function captured() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

/** A loop over a source whose first `failing` polls fail, under a lease this process holds. */
async function loopOver(failing: number) {
  const clock = new ManualClock();
  const start = clock.now();
  const { log, lines } = captured();
  const stopping = new AbortController();
  const leadership = new Leadership(heldLease(), clock, log, stopping.signal);
  await leadership.check();
  const polls: number[] = [];
  let delivered = 0;
  let left = failing;
  const source: Source = {
    name: 'probe',
    wanted: () => true,
    poll(run) {
      polls.push(clock.now() - start);
      if (left > 0) {
        left -= 1;
        return Promise.reject(new Error('the game API is down'));
      }
      return run.deliver();
    },
  };
  const outbox = new Outbox(
    {
      deliverPending() {
        delivered += 1;
        return Promise.resolve();
      },
    },
    log,
  );
  const loop = new SourceLoop({
    source,
    leadership,
    outbox,
    subscriptions: () => Promise.resolve([]),
    clock,
    log,
    intervalMs: INTERVAL,
    standbyCheckMs: 30_000,
    stopping: stopping.signal,
  });
  const running = loop.run();
  return {
    clock,
    polls,
    lines,
    delivered: () => delivered,
    async stop() {
      stopping.abort(new Error('stopped'));
      await running;
      await outbox.idle();
    },
  };
}

describe('a source loop', () => {
  it('backs off, doubling up to eight intervals, while polls fail; warns once; its interval again after', async () => {
    const loop = await loopOver(5);
    await loop.clock.advance(40_000);
    await loop.stop();
    // Fails at 0, 1 s, 3 s, 7 s, 15 s (waits 1, 2, 4, 8, 8 intervals), works at 23 s, then every interval.
    expect(loop.polls.slice(0, 8)).toEqual([0, 1_000, 3_000, 7_000, 15_000, 23_000, 24_000, 25_000]);
    const warnings = loop.lines.filter(
      (line) => line['msg'] === 'poll failed; backing off until it works again',
    );
    expect(warnings).toHaveLength(1);
    expect(loop.lines.filter((line) => line['msg'] === 'polling works again')).toHaveLength(1);
    // A poll that worked kicked the outbox (without waiting for it).
    expect(loop.delivered()).toBeGreaterThan(0);
  });

  it('polls every interval while polls work, whatever a poll costs', async () => {
    const loop = await loopOver(0);
    await loop.clock.advance(3_500);
    await loop.stop();
    expect(loop.polls).toEqual([0, 1_000, 2_000, 3_000]);
    expect(loop.lines.some((line) => line['level'] === 40)).toBe(false);
  });
});
