import { describe, expect, it } from 'vitest';
import { CONFIRM_GAP_MS, COOLDOWN_MS, transition } from '../../../src/features/alerts/crossing.ts';
import { AlertRepository } from '../../../src/features/alerts/store.ts';
import { useWorldPerTest } from '../../support/announcements.ts';
import { FakePrices, SKIN, addAlert, dms, run, watchFor } from '../../support/alerts.ts';

const NOW = Date.UTC(2026, 10, 27);
const HOUR = 3_600_000;

describe('crossing rule', () => {
  it('needs two checks to fire, re-arms only 2 % back past the threshold, and waits out the cooldown', () => {
    const below = { direction: 'below', threshold: 1000 } as const;
    expect(transition({ ...below, status: 'armed' }, 1200, NOW)).toBe('none');
    expect(transition({ ...below, status: 'armed' }, 1000, NOW)).toBe('pend');
    // The second check confirms it; one at the same moment (another process) does not.
    const pending = { ...below, status: 'pending', pendingAt: NOW - CONFIRM_GAP_MS } as const;
    expect(transition(pending, 990, NOW)).toBe('fire');
    expect(transition({ ...pending, pendingAt: NOW }, 990, NOW)).toBe('none');
    expect(transition(pending, 1001, NOW)).toBe('unpend');
    expect(transition(pending, undefined, NOW)).toBe('unpend');
    // Fired: back over the threshold is not enough, 2 % past it re-arms.
    expect(transition({ ...below, status: 'fired' }, 900, NOW)).toBe('none');
    expect(transition({ ...below, status: 'fired' }, 1020, NOW)).toBe('none');
    expect(transition({ ...below, status: 'fired' }, 1021, NOW)).toBe('rearm');
    // Confirmed again within 6 h of the last firing: it waits.
    expect(transition({ ...pending, firedAt: NOW - COOLDOWN_MS + 1 }, 990, NOW)).toBe('none');
    expect(transition({ ...pending, firedAt: NOW - COOLDOWN_MS }, 990, NOW)).toBe('fire');
    const above = { direction: 'above', threshold: 1000 } as const;
    expect(transition({ ...above, status: 'armed' }, 999, NOW)).toBe('none');
    expect(transition({ ...above, status: 'armed' }, 1500, NOW)).toBe('pend');
    expect(transition({ ...above, status: 'fired' }, 981, NOW)).toBe('none');
    expect(transition({ ...above, status: 'fired' }, 979, NOW)).toBe('rearm');
    expect(transition({ ...above, status: 'armed' }, undefined, NOW)).toBe('none');
    expect(transition({ ...above, status: 'disabled' }, 5000, NOW)).toBe('none');
  });
});

describe('alert watch (manual clock)', () => {
  const fixture = useWorldPerTest();

  it('fires once when the lowest ask toggles around the threshold for eight hours', async () => {
    const { world } = fixture;
    const prices = new FakePrices();
    const watch = watchFor(world, prices);
    const alert = await addAlert(world, { threshold: 1000 });
    // One side, then the other, check after check: every second check sees it under the threshold, and
    // now and then two in a row do; never 2 % back above it.
    const toggles = [1010, 995, 1005, 990, 999, 1015, 1000, 1001, 985, 1019];
    for (let check = 0; check < 240; check += 1) {
      prices.prices.set(SKIN, toggles[check % toggles.length]);
      await world.clock.advance(watch.intervalMs(1));
      await watch.poll(run());
    }
    expect(dms(world)).toHaveLength(1);
    expect((await new AlertRepository(world.db).get(alert.id))?.firedCount).toBe(1);
  });

  it('a toggling price that keeps moving 2 % back fires at most once every 6 hours', async () => {
    const { world } = fixture;
    const prices = new FakePrices();
    const watch = watchFor(world, prices);
    await addAlert(world, { threshold: 1000 });
    // Two checks under, one well above: the alert re-arms every third check.
    const pattern = [950, 950, 1100];
    const start = world.clock.now();
    for (let check = 0; check < 270; check += 1) {
      prices.prices.set(SKIN, pattern[check % pattern.length]);
      await world.clock.advance(watch.intervalMs(1));
      await watch.poll(run());
    }
    const hours = (world.clock.now() - start) / HOUR;
    expect(hours).toBeGreaterThanOrEqual(9);
    const sent = dms(world);
    expect(sent).toHaveLength(Math.ceil(hours / 6));
    const times = sent.map((message) => message.embeds[0]?.fields?.[0]?.value ?? '');
    expect(new Set(times).size).toBe(sent.length);
  });

  it('keeps a crossing seen once across a restart: the next process’s check confirms it', async () => {
    const { world } = fixture;
    const prices = new FakePrices();
    const alert = await addAlert(world, { threshold: 100 });
    prices.prices.set(SKIN, 90);
    const first = watchFor(world, prices, { holder: 'a' });
    await first.poll(run());
    const repo = new AlertRepository(world.db);
    expect((await repo.get(alert.id))?.status).toBe('pending');
    expect(dms(world)).toHaveLength(0);
    const restarted = watchFor(world, prices, { holder: 'b' });
    await world.clock.advance(restarted.intervalMs(1));
    await restarted.poll(run());
    expect(dms(world)).toHaveLength(1);
    expect((await repo.get(alert.id))?.status).toBe('fired');
  });

  it('fires once per crossing, and again only after the price moved back past the margin', async () => {
    const { world } = fixture;
    const prices = new FakePrices();
    const watch = watchFor(world, prices);
    const alert = await addAlert(world, { threshold: 100 });
    const repo = new AlertRepository(world.db);
    const step = async (price: number | undefined) => {
      prices.prices.set(SKIN, price);
      await world.clock.advance(watch.intervalMs(1));
      await watch.poll(run());
    };

    await step(150);
    await step(95);
    expect(dms(world)).toHaveLength(0);
    await step(94);
    expect(dms(world)).toHaveLength(1);
    expect(dms(world)[0]?.embeds[0]?.description).toContain('94 KR');
    // Still below, then nothing listed, then just above: no second message, still fired.
    await step(80);
    await step(undefined);
    await step(101);
    await step(99);
    await step(98);
    expect(dms(world)).toHaveLength(1);
    expect((await repo.get(alert.id))?.status).toBe('fired');
    // 2 % back: re-armed, silently.
    await step(130);
    expect((await repo.get(alert.id))?.status).toBe('armed');
    // Crosses again and holds: fires again once the 6 hours since the first are over.
    await step(60);
    await step(60);
    expect(dms(world)).toHaveLength(1);
    expect((await repo.get(alert.id))?.status).toBe('pending');
    await world.clock.advance(COOLDOWN_MS);
    await step(61);
    expect(dms(world)).toHaveLength(2);
    expect((await repo.get(alert.id))?.firedCount).toBe(2);
    // Skin names are data: escaped, never a ping.
    const body = dms(world)[1];
    expect(body?.embeds[0]?.title).not.toContain('<@&1>');
    expect(body?.allowedMentions).toEqual({ parse: [] });
  });

  it('polls each watched skin once per interval, for every alert on it', async () => {
    const { world } = fixture;
    const prices = new FakePrices();
    const watch = watchFor(world, prices);
    for (let i = 0; i < 5; i += 1) {
      world.discord.dmChannelId(`30000000000000010${i}`);
      await addAlert(world, { threshold: 100 + i, userId: `30000000000000010${i}` });
    }
    await addAlert(world, { skinIndex: SKIN + 1, threshold: 5 });
    prices.prices.set(SKIN, 50);
    prices.prices.set(SKIN + 1, 500);
    await watch.poll(run());
    expect(prices.reads).toBe(2);
    // Before the interval is up, nothing is read again.
    await world.clock.advance(watch.intervalMs(2) - 1_000);
    await watch.poll(run());
    expect(prices.reads).toBe(2);
    await world.clock.advance(1_000);
    await watch.poll(run());
    expect(prices.reads).toBe(4);
    // Five users on the first skin, each told once.
    for (let i = 0; i < 5; i += 1) expect(dms(world, `30000000000000010${i}`)).toHaveLength(1);
  });

  it('stretches the interval evenly when the skins want more than the alerts’ share of the budget', () => {
    const { world } = fixture;
    const watch = watchFor(world, new FakePrices(), { capacityPerMinute: 10 });
    expect(watch.intervalMs(10)).toBe(120_000);
    expect(watch.intervalMs(100)).toBe(600_000);
  });
});
