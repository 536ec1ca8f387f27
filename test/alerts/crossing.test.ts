import { describe, expect, it } from 'vitest';
import { transition } from '../../src/alerts/crossing.ts';
import { AlertRepository } from '../../src/alerts/store.ts';
import { useWorldPerTest } from '../announcements/support.ts';
import { FakePrices, SKIN, addAlert, dms, run, watchFor } from './support.ts';

describe('crossing rule', () => {
  it('fires when armed and the price reaches the threshold, re-arms only on crossing back', () => {
    const below = { direction: 'below', threshold: 100 } as const;
    expect(transition({ ...below, status: 'armed' }, 120)).toBe('none');
    expect(transition({ ...below, status: 'armed' }, 100)).toBe('fire');
    expect(transition({ ...below, status: 'fired' }, 90)).toBe('none');
    expect(transition({ ...below, status: 'fired' }, 101)).toBe('rearm');
    const above = { direction: 'above', threshold: 100 } as const;
    expect(transition({ ...above, status: 'armed' }, 99)).toBe('none');
    expect(transition({ ...above, status: 'armed' }, 150)).toBe('fire');
    expect(transition({ ...above, status: 'fired' }, 99)).toBe('rearm');
    expect(transition({ ...above, status: 'armed' }, undefined)).toBe('none');
    expect(transition({ ...above, status: 'disabled' }, 500)).toBe('none');
  });
});

describe('alert watch (manual clock)', () => {
  const fixture = useWorldPerTest();

  it('fires once per crossing, and again only after the price crossed back', async () => {
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
    expect(dms(world)).toHaveLength(0);
    await step(95);
    expect(dms(world)).toHaveLength(1);
    expect(dms(world)[0]?.embeds[0]?.description).toContain('95 KR');
    // Still below, then nothing listed: no second message.
    await step(80);
    await step(undefined);
    await step(99);
    expect(dms(world)).toHaveLength(1);
    expect((await repo.get(alert.id))?.status).toBe('fired');
    // Back above: re-armed, silently.
    await step(130);
    expect((await repo.get(alert.id))?.status).toBe('armed');
    expect(dms(world)).toHaveLength(1);
    // Crosses again: fires again.
    await step(60);
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
