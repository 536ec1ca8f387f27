import { describe, expect, it } from 'vitest';
import { followCapacity } from '../../../../src/traffic/capacity.ts';
import { DIGEST_DELAY_MS } from '../../../../src/features/turf/digest/model.ts';
import { TURF_CLAN_READS } from '../../../../src/features/turf/digest/reads.ts';
import { turfDigestSource } from '../../../../src/features/turf/digest/source.ts';
import { remindersSource } from '../../../../src/features/turf/reminders/source.ts';
import { BackgroundScheduler } from '../../../../src/traffic/scheduler.ts';
import { turfDayDate } from '../../../../src/api/turf-days.ts';
import { busiestWindow, drive, subscribeDirectly, useWorldPerTest } from '../../../support/announcements.ts';
import { clanNamed, titles, toTime } from '../../support.ts';

/**
 * The digest's and the reminders' reads come out of the background's share: a budget of their own in the
 * shared limits (which the players feed's plan leaves to them) and turns in the one background scheduler.
 */
const fixture = useWorldPerTest();
const TURF = /^\/(territorial-wars|clans)\//;

describe('the turf clan reads’ budget', () => {
  it('is left out of what the players feed and the price alerts may plan', () => {
    const config = { game: { apiKey: 'kr_x' }, events: { pollSeconds: 30 } } as Parameters<
      typeof followCapacity
    >[0];
    // 60 a minute, 10 kept for commands, 6 for the events feed, 2 for the turf poll, 6 for these reads,
    // 2 for the published names (src/search/catalog.ts).
    expect(TURF_CLAN_READS).toEqual({ limit: 6, windowMs: 60_000 });
    expect(followCapacity(config)).toBe(34);
  });

  it('paces the digests of many clans in the scheduler, never more than its limit a minute', async () => {
    const { world } = fixture;
    for (const name of ['Vortex', 'Frostbite', 'Empire', 'NoScope']) {
      const clan = clanNamed(world, name);
      await subscribeDirectly(world, {
        kind: 'turf',
        channelId: world.addChannel(name.toLowerCase()),
        options: { clanId: clan.id, clanName: clan.name, digest: 1 },
      });
    }
    const scheduler = new BackgroundScheduler();
    const process = await fixture.start({
      sources: () => [turfDigestSource(), remindersSource()],
      announcements: { scheduler },
    });
    // The turf poll's own rollover reads (earnings for its daily line) come first, before the digest is due.
    await toTime(world.clock, turfDayDate(250) + 60_000);
    await process.announcements.pollOnce();
    await toTime(world.clock, turfDayDate(250) + DIGEST_DELAY_MS);
    world.sandbox.requests.clear();
    const served = scheduler.served;
    // 3 reads a clan and the day's board (once) at 5 a minute (one kept for retries): each poll
    // waits its turns for half its interval, and the next goes on, until every clan has its digest.
    const keys = ['Vortex', 'Frostbite', 'Empire', 'NoScope'].map(
      (n) => `turf-digest:249:${clanNamed(world, n).id}`,
    );
    const allDone = async () =>
      (await Promise.all(keys.map((k) => world.repos.inbox.isDone(k)))).every(Boolean);
    let polls = 0;
    while (!(await allDone()) && polls < 20) {
      polls += 1;
      await drive(world.clock, process.announcements.pollOnce());
    }
    expect(await allDone()).toBe(true);
    const reads = world.sandbox.requests
      .entries()
      .filter((entry) => TURF.test(entry.path) && entry.path !== '/territorial-wars/status');
    const boards = reads.filter((entry) => entry.path.includes('/leaderboards/'));
    expect(reads.length - boards.length).toBe(12);
    expect(boards).toHaveLength(1);
    expect(polls).toBeGreaterThan(1);
    expect(
      busiestWindow(
        reads.map((entry) => entry.at),
        60_000,
      ),
    ).toBeLessThanOrEqual(TURF_CLAN_READS.limit - 1);
    // 13 reads or more at 5 a minute: the last went out over two minutes after the first.
    expect(Math.max(...reads.map((r) => r.at)) - Math.min(...reads.map((r) => r.at))).toBeGreaterThanOrEqual(
      2 * 60_000,
    );
    // Every read took its turn in the scheduler (the turf poll's status reads too).
    const statuses = world.sandbox.requests.count('/territorial-wars/status');
    expect(scheduler.served - served).toBe(reads.length + statuses);
    for (const subscription of await world.repos.subscriptions.active())
      expect(titles(world, subscription.channelId, /turf day 249/), subscription.channelId).toHaveLength(1);
  }, 60_000);
});
