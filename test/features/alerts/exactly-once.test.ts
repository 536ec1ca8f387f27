import { describe, expect, it } from 'vitest';
import { AlertRepository } from '../../../src/features/alerts/store.ts';
import { renderAlertList } from '../../../src/features/alerts/render.ts';
import { translations, useWorldPerTest } from '../../support/announcements.ts';
import { FakePrices, SKIN, USER, addAlert, dms, pollTwice, run, watchFor } from '../../support/alerts.ts';

const fixture = useWorldPerTest();
const CLAIM_TTL = 30_000;

class Crash extends Error {}

/** Message POSTs the bot made in the user's DM channel. */
function dmPosts(userId = USER): number {
  const { world } = fixture;
  const path = `/channels/${world.discord.dmChannelId(userId)}/messages`;
  return world.discord.requests().filter((r) => r.method === 'POST' && r.path === path).length;
}

describe('exactly once', () => {
  it('two worker instances seeing the same crossing send one message', async () => {
    const { world } = fixture;
    dms(world);
    const prices = new FakePrices();
    prices.prices.set(SKIN, 40);
    await addAlert(world);
    const a = watchFor(world, prices, { holder: 'a' });
    const b = watchFor(world, prices, { holder: 'b' });
    // Both see the crossing at once: that is one check, not the two it takes.
    await Promise.all([a.poll(run()), b.poll(run())]);
    expect(await new AlertRepository(world.db).pending()).toEqual([]);
    await world.clock.advance(a.intervalMs(1));
    await Promise.all([a.poll(run()), b.poll(run()), a.poll(run()), b.poll(run())]);
    await Promise.all([a.deliverPending(), b.deliverPending()]);
    expect(dms(world)).toHaveLength(1);
  });

  it('a crash between the claim and the send: the next process sends it once, after the claim expired', async () => {
    const { world } = fixture;
    dms(world);
    const prices = new FakePrices();
    prices.prices.set(SKIN, 40);
    const alert = await addAlert(world);
    const crashing = watchFor(world, prices, {
      holder: 'a',
      claimTtlMs: CLAIM_TTL,
      hook: (step) => {
        if (step === 'claimed') throw new Crash('killed');
      },
    });
    await crashing.poll(run());
    await world.clock.advance(crashing.intervalMs(1));
    await expect(crashing.poll(run())).rejects.toBeInstanceOf(Crash);
    expect(dms(world)).toHaveLength(0);
    // The restarted process: the claim still holds it off, then it expires.
    const restarted = watchFor(world, prices, { holder: 'b', claimTtlMs: CLAIM_TTL });
    await restarted.deliverPending();
    expect(dms(world)).toHaveLength(0);
    await world.clock.advance(CLAIM_TTL + 1);
    await restarted.deliverPending();
    await restarted.deliverPending();
    expect(dms(world)).toHaveLength(1);
    const stored = await new AlertRepository(world.db).get(alert.id);
    expect(stored?.deliveredCount).toBe(1);
    // Seen again below the threshold after the restart: still fired, no second message.
    await world.clock.advance(restarted.intervalMs(1));
    await restarted.poll(run());
    expect(dms(world)).toHaveLength(1);
  });

  it('a crash between the send and its record: the resend carries the same nonce, one message', async () => {
    const { world } = fixture;
    dms(world);
    const prices = new FakePrices();
    prices.prices.set(SKIN, 40);
    await addAlert(world);
    const crashing = watchFor(world, prices, {
      holder: 'a',
      claimTtlMs: CLAIM_TTL,
      hook: (step) => {
        if (step === 'sent') throw new Crash('killed');
      },
    });
    await crashing.poll(run());
    await world.clock.advance(crashing.intervalMs(1));
    await expect(crashing.poll(run())).rejects.toBeInstanceOf(Crash);
    expect(dms(world)).toHaveLength(1);
    const restarted = watchFor(world, prices, { holder: 'b', claimTtlMs: CLAIM_TTL });
    await world.clock.advance(CLAIM_TTL + 1);
    await restarted.deliverPending();
    expect(dms(world)).toHaveLength(1);
    // It was sent again, and Discord answered with the first message (same nonce).
    expect(dmPosts()).toBe(2);
    expect(await new AlertRepository(world.db).pending()).toEqual([]);
  });

  it('past the nonce window a resend is not made (at most once)', async () => {
    const { world } = fixture;
    dms(world);
    const prices = new FakePrices();
    prices.prices.set(SKIN, 40);
    await addAlert(world);
    const crashing = watchFor(world, prices, {
      holder: 'a',
      hook: (step) => {
        if (step === 'sent') throw new Crash('killed');
      },
    });
    await crashing.poll(run());
    await world.clock.advance(crashing.intervalMs(1));
    await expect(crashing.poll(run())).rejects.toBeInstanceOf(Crash);
    await world.clock.advance(10 * 60_000);
    await watchFor(world, prices, { holder: 'b' }).deliverPending();
    expect(dms(world)).toHaveLength(1);
    expect(dmPosts()).toBe(1);
    expect(await new AlertRepository(world.db).pending()).toEqual([]);
  });
});

describe('a DM the user does not accept', () => {
  it('disables that alert only (50007), with a note in /alert list', async () => {
    const { world } = fixture;
    const other = '300000000000000777';
    world.discord.setDmsOpen(USER, false);
    dms(world, other);
    const prices = new FakePrices();
    prices.prices.set(SKIN, 40);
    const blocked = await addAlert(world);
    const fine = await addAlert(world, { userId: other });
    const watch = watchFor(world, prices);
    await pollTwice(world, watch);
    const repo = new AlertRepository(world.db);
    expect((await repo.get(blocked.id))?.status).toBe('disabled');
    expect((await repo.get(blocked.id))?.disabledReason).toBe('dmBlocked');
    expect((await repo.get(fine.id))?.status).toBe('fired');
    expect(dms(world, other)).toHaveLength(1);
    expect(dms(world)).toHaveLength(0);
    // Not tried again, and no longer polled for.
    await world.clock.advance(watch.intervalMs(1));
    await watch.poll(run());
    expect(dmPosts()).toBe(1);
    const list = renderAlertList(translations.for('en-US'), await repo.forUser(USER), {
      user: 10,
      used: 1,
      guild: 50,
      guildUsed: 0,
    });
    expect(list.embeds?.[0]?.description).toMatch(/disabled: your DMs do not accept messages from the bot/);
  });
});
