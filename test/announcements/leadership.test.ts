import { getEventListeners } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Leadership } from '../../src/announcements/leadership.ts';
import type { Lease } from '../../src/announcements/lease.ts';
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
});
