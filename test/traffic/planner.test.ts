import { describe, expect, it } from 'vitest';
import {
  CLAN_TARGET_MS,
  GROUP_SHARES,
  clanIntervalOf,
  planBackground,
  waterFill,
} from '../../src/traffic/planner.ts';

const TARGETS = { trackedMs: 300_000, linkedMs: 86_400_000, alertMs: 120_000, requestsPerTrack: 1.5 };

describe('waterFill', () => {
  it('gives each claim at most its demand, shares the rest by weight, and never more than the capacity', () => {
    expect(
      waterFill(10, [
        { demand: 1, weight: 1 },
        { demand: 100, weight: 1 },
        { demand: 100, weight: 2 },
      ]),
    ).toEqual([1, 3, 6]);
    expect(waterFill(10, [{ demand: 4, weight: 1 }])).toEqual([4]);
    expect(waterFill(0, [{ demand: 4, weight: 1 }])).toEqual([0]);
    expect(waterFill(10, [{ demand: Number.POSITIVE_INFINITY, weight: 1 }])).toEqual([0]);
  });
});

describe('planBackground', () => {
  it('1,000 tracked by one heavy owner’s servers and many light ones: the light keep 5 minutes, the sum fits', () => {
    // One person's 19 servers of 50 players, 25 servers of 2, 2,000 linked players, 20 watched skins.
    const trackedByServer = new Map<string, number>();
    for (let i = 0; i < 19; i += 1) trackedByServer.set(`heavy${i}`, 50);
    for (let i = 0; i < 25; i += 1) trackedByServer.set(`light${i}`, 2);
    const plan = planBackground({ trackedByServer, linked: 2_000, skins: 20 }, TARGETS, 42);
    expect(plan.trackedMs.get('light0')).toBe(300_000);
    expect(plan.trackedMs.get('heavy0')).toBeGreaterThan(300_000);
    expect(plan.perMinute.tracked + plan.perMinute.linked + plan.perMinute.alerts).toBeCloseTo(
      plan.totalPerMinute,
      9,
    );
    expect(plan.totalPerMinute).toBeLessThanOrEqual(42 + 1e-9);
    // Linked players want 1.4 a minute, within their guaranteed sixth: they keep their day.
    expect(plan.linkedMs).toBe(86_400_000);
    // Alerts want 10 a minute, within their guaranteed third (14): they keep 2 minutes.
    expect(plan.alertMs).toBe(120_000);
    expect(plan.perMinute.alerts).toBeLessThan(42 * GROUP_SHARES.alerts);
  });

  it('guarantees linked players a sixth of the budget however much is tracked', () => {
    const trackedByServer = new Map<string, number>();
    for (let i = 0; i < 1_000; i += 1) trackedByServer.set(`g${i}`, 50);
    const plan = planBackground({ trackedByServer, linked: 20_000, skins: 500 }, TARGETS, 42);
    // 20,000 profiles at 7 a minute: 47.6 h rather than weeks.
    expect(plan.perMinute.linked).toBeCloseTo(7, 9);
    expect(plan.linkedMs).toBe(Math.ceil((20_000 / 7) * 60_000));
    expect(plan.totalPerMinute).toBeLessThanOrEqual(42 + 1e-9);
  });

  it('gives a part left unused to the others: alone, the alerts may use the whole capacity', () => {
    const plan = planBackground({ trackedByServer: new Map(), linked: 0, skins: 100 }, TARGETS, 10);
    expect(plan.alertMs).toBe(600_000);
    expect(plan.perMinute.alerts).toBeCloseTo(10, 9);
  });

  it('plans clan logs per server: a server following few clans keeps 5 minutes, one following many stretches', () => {
    // Counts per server: a clan k servers follow counts 1/k in each (src/features/clans/log/followed.ts).
    const trackedByServer = new Map<string, number>();
    for (let i = 0; i < 1_000; i += 1) trackedByServer.set(`g${i}`, 50);
    const clansByServer = new Map([
      ['big', 400],
      ['small', 3],
    ]);
    const plan = planBackground({ trackedByServer, linked: 2_000, skins: 20, clansByServer }, TARGETS, 42);
    expect(plan.clanMs.get('small')).toBe(CLAN_TARGET_MS);
    // Everyone short: each group gets exactly its part (clans 7, tracking 14, alerts 14, linked 7 of 42).
    const short = planBackground({ trackedByServer, linked: 20_000, skins: 500, clansByServer }, TARGETS, 42);
    expect(short.perMinute.clans).toBeCloseTo(7, 9);
    expect(short.perMinute.tracked).toBeCloseTo(14, 9);
    expect(short.perMinute.linked).toBeCloseTo(7, 9);
    expect(plan.clanMs.get('big')).toBeGreaterThan(CLAN_TARGET_MS);
    // However much is tracked, clan logs keep at least their sixth (7 a minute of 42).
    expect(plan.perMinute.clans).toBeGreaterThanOrEqual(42 * GROUP_SHARES.clans - 1e-9);
    expect(plan.perMinute.tracked).toBeGreaterThanOrEqual(42 * GROUP_SHARES.tracking - 1e-9);
    expect(plan.totalPerMinute).toBeLessThanOrEqual(42 + 1e-9);
    // A clan both follow is read once, at the rate their two parts pay for: the harmonic mean of their
    // intervals, between the light server's and the heavy one's.
    const big = plan.clanMs.get('big') ?? 0;
    const shared = clanIntervalOf(plan, ['big', 'small'], CLAN_TARGET_MS);
    expect(shared).toBe(Math.ceil(2 / (1 / big + 1 / CLAN_TARGET_MS)));
    expect(shared).toBeGreaterThan(CLAN_TARGET_MS);
    expect(shared).toBeLessThan(big);
    expect(clanIntervalOf(plan, ['big'], CLAN_TARGET_MS)).toBe(big);
    expect(clanIntervalOf(plan, [], CLAN_TARGET_MS)).toBe(CLAN_TARGET_MS);
  });

  it('gives clan logs what the others leave: 500 clans alone are read every 12 minutes at 42 a minute', () => {
    const clansByServer = new Map(Array.from({ length: 50 }, (_, i) => [`g${i}`, 10] as const));
    const plan = planBackground(
      { trackedByServer: new Map(), linked: 0, skins: 0, clansByServer },
      TARGETS,
      42,
    );
    expect(plan.perMinute.clans).toBeCloseTo(42, 9);
    expect(plan.clanMs.get('g0')).toBe(Math.ceil(CLAN_TARGET_MS * (100 / 42)));
  });
});
