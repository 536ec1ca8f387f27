import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/announcements/outbox.ts';

const silent = pino({ level: 'silent' });

describe('the outbox', () => {
  it('starts again after a kick whose signal was already aborted, and idles at once', async () => {
    const passes: AbortSignal[] = [];
    const outbox = new Outbox(
      {
        async deliverPending(signal) {
          passes.push(signal);
          await Promise.resolve();
        },
      },
      silent,
    );
    const lost = new AbortController();
    lost.abort(new Error('lost the worker lease'));
    // The pass ends before its first step: the outbox must not keep it as running.
    outbox.kick(lost.signal);
    await expect(outbox.drain(lost.signal)).rejects.toThrow('lost the worker lease');
    await new Promise((resolve) => setImmediate(resolve));
    // Checked before `idle()`: with a settled pass kept as running, `idle()` would never return.
    expect(outbox.busy).toBe(false);

    const term = new AbortController();
    await outbox.drain(term.signal);
    expect(passes).toEqual([term.signal]);
    await outbox.idle();
    expect(outbox.busy).toBe(false);
  });

  it('folds kicks during a pass into one more pass', async () => {
    let release: () => void = () => undefined;
    let count = 0;
    const outbox = new Outbox(
      {
        async deliverPending() {
          count += 1;
          if (count === 1) await new Promise<void>((resolve) => (release = resolve));
        },
      },
      silent,
    );
    const term = new AbortController();
    outbox.kick(term.signal);
    outbox.kick(term.signal);
    outbox.kick(term.signal);
    release();
    await outbox.idle();
    expect(count).toBe(2);
  });
});
