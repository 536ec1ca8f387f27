import { getEventListeners } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Leadership } from '../../src/announcements/leadership.ts';
import { Lease } from '../../src/announcements/lease.ts';
import { createStore } from '../../src/store/index.ts';
import { ManualClock } from '../support/clock.ts';

describe('leadership', () => {
  it('leaves no listener on the stopping signal from waits that ended', async () => {
    let free = false;
    const lease = {
      name: 'worker',
      ttlMs: 90_000,
      acquire: () => Promise.resolve(free),
      renew: () => Promise.resolve(free),
      release: () => Promise.resolve(),
    } as unknown as Lease;
    const stopping = new AbortController();
    const leadership = new Leadership(lease, new ManualClock(), pino({ level: 'silent' }), stopping.signal);
    await leadership.check();
    expect(leadership.state).toBe('standby');
    // A standby's loops wait many times over a long outage.
    const waits = Array.from({ length: 50 }, () => leadership.whenActive());
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(50);
    free = true;
    await leadership.check();
    await Promise.all(waits);
    expect(leadership.state).toBe('active');
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });

  it('stays the worker when it checks twice at once (a poll and a flush): the checks do not race each other', async () => {
    const store = await createStore('memory://', { purgeIntervalMs: 0 });
    try {
      const lease = new Lease(store, 'worker', 'holder-1', 90_000);
      const leadership = new Leadership(
        lease,
        new ManualClock(),
        pino({ level: 'silent' }),
        new AbortController().signal,
      );
      expect(await leadership.check()).toBe(true);
      const term = leadership.term;
      // Two renewals at once would each compare-and-set the same entry: one would lose, and depose its own
      // process while the other had just renewed the lease.
      expect(await Promise.all([leadership.check(), leadership.check(), leadership.check()])).toEqual([
        true,
        true,
        true,
      ]);
      expect(leadership.state).toBe('active');
      expect(leadership.term).toBe(term);
      expect(term?.aborted).toBe(false);
    } finally {
      await store.close();
    }
  });
});
