import { describe, expect, it } from 'vitest';
import { EventsFeed } from '../../src/announcements/sources.ts';
import { text } from '../../src/render/common.ts';
import type { Step } from '../../src/announcements/delivery.ts';
import type { CommunityMap } from '../../src/dev/sandbox/index.ts';
import { jumpWallClock } from '../support/clock.ts';
import {
  busiestWindow,
  drive,
  posted,
  subscribeDirectly,
  useWorldPerTest,
} from '../support/announcements.ts';

/**
 * The event poller against the sandbox's events feed (ids with gaps, `has_more`, a 6-a-minute window of
 * its own) and delivery through the stand-in, with restarts at every step.
 */
const fixture = useWorldPerTest();
const start = fixture.start;

function visibleMaps(): CommunityMap[] {
  return fixture.world.sandbox.world.maps.filter((map) => map.hidden === null);
}

/** Publishes events a second apart (the manual clock moves), as the game would. */
async function publish(...events: Array<['map.featured' | 'map.unfeatured', CommunityMap]>) {
  const published = [];
  for (const [type, map] of events) {
    await fixture.world.clock.advance(1_000);
    published.push(fixture.world.sandbox.events.publish(type, map.id));
  }
  return published;
}

/** What the featured announcements of these maps are titled (names escaped as in every message). */
function featuredTitles(maps: readonly CommunityMap[]) {
  return maps.map((map) => `⭐ Featured map: ${text(map.name, 100)}`);
}

function eventRequests() {
  return fixture.world.sandbox.requests.entries().filter((entry) => entry.path === '/api/events');
}

describe('first start', () => {
  it('pages through the history with no cursor, announces none of it, and leaves the cursor at the newest event', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start({ announcements: { pageSize: 10 } });
    const history = fixture.world.sandbox.events.all();
    expect(history.length).toBeGreaterThan(30);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world)).toEqual([]);
    const requests = eventRequests();
    expect(requests.length).toBeGreaterThan(3);
    expect(requests[0]?.query.after).toBe('0');
    expect(
      requests.every((r) => r.query.types === 'map.featured,map.unfeatured' && r.query.limit === '10'),
    ).toBe(true);
    const cursor = await fixture.world.repos.cursors.get(
      EventsFeed.filterKey(['map.featured', 'map.unfeatured']),
    );
    expect(cursor?.after).toBe(history.at(-1)?.id);
  });

  it('announces, once each and in order, the events that happen after the subscription (ids with gaps)', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const maps = visibleMaps().filter((map) => !map.featured);
    const events = await publish(
      ['map.featured', maps[0]!],
      ['map.featured', maps[1]!],
      ['map.featured', maps[2]!],
    );
    const ids = events.map((e) => e.id);
    expect(ids.some((id, i) => i > 0 && id - ids[i - 1]! > 1)).toBe(true);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const messages = posted(fixture.world);
    expect(messages.map((m) => m.embeds[0]?.title)).toEqual(featuredTitles(maps.slice(0, 3)));
    expect(messages.every((m) => m.allowedMentions?.parse?.length === 0)).toBe(true);
  });

  it('does not poll the feed at all while no subscription needs it', async () => {
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(eventRequests()).toEqual([]);
  });
});

describe('paging and cursor', () => {
  it('fetches the next page at once while has_more, chaining next into after', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start({ announcements: { pageSize: 4 } });
    await drive(fixture.world.clock, process.announcements.pollOnce());
    fixture.world.sandbox.requests.clear();
    const maps = visibleMaps();
    const published = await publish(
      ...maps.slice(0, 9).map((map) => ['map.featured', map] as ['map.featured', CommunityMap]),
    );
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const requests = eventRequests();
    expect(requests).toHaveLength(3);
    const afters = requests.map((r) => Number(r.query.after));
    expect(afters[1]).toBe(published[3]!.id);
    expect(afters[2]).toBe(published[7]!.id);
    expect(posted(fixture.world)).toHaveLength(9);
  });

  it('reads at most the page limit in one poll, and goes on from the cursor in the next', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start({ announcements: { pageSize: 4, maxPagesPerPoll: 2 } });
    // The history takes several polls of two pages to catch up with (none of it is announced).
    for (let poll = 0; poll < 30; poll += 1) {
      fixture.world.sandbox.requests.clear();
      await drive(fixture.world.clock, process.announcements.pollOnce());
      if (eventRequests().length < 2) break;
    }
    expect(eventRequests()).toHaveLength(1);
    fixture.world.sandbox.requests.clear();
    const maps = visibleMaps();
    const published = await publish(
      ...maps.slice(0, 9).map((map) => ['map.featured', map] as ['map.featured', CommunityMap]),
    );
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(eventRequests()).toHaveLength(2);
    expect(posted(fixture.world)).toHaveLength(8);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const afters = eventRequests().map((r) => Number(r.query.after));
    expect(afters[2]).toBe(published[7]!.id);
    expect(posted(fixture.world)).toHaveLength(9);
  });

  it('keeps one cursor per filter set', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const key = EventsFeed.filterKey(['map.unfeatured', 'map.featured']);
    expect(key).toBe('types=map.featured,map.unfeatured');
    expect(await fixture.world.repos.cursors.get(key)).toBeDefined();
    expect(await fixture.world.repos.cursors.get(EventsFeed.filterKey(['map.featured']))).toBeUndefined();
  });
});

describe('what is posted', () => {
  it('edits the earlier announcement when the map is unfeatured, rather than posting again', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const map = visibleMaps().find((m) => !m.featured)!;
    await publish(['map.featured', map]);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world)).toHaveLength(1);
    await publish(['map.unfeatured', map]);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const messages = posted(fixture.world);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.edits).toBe(1);
    expect(messages[0]?.embeds[0]?.title).toContain('No longer featured');
    expect(messages[0]?.embeds[0]?.title).toContain(text(map.name, 100));
  });

  it('does not announce an unfeature whose feature it never announced', async () => {
    const featured = visibleMaps().find((m) => m.featured)!;
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    await publish(['map.unfeatured', featured]);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world)).toEqual([]);
  });

  it('pings the subscription role, naming exactly it in allowed mentions; no ping without one', async () => {
    const role = fixture.world.discord.addRole(fixture.world.guildId, { name: 'map-fans' });
    const quiet = fixture.world.addChannel('quiet');
    await subscribeDirectly(fixture.world, { kind: 'maps', options: { roleId: role.id } });
    await subscribeDirectly(fixture.world, { kind: 'maps', channelId: quiet });
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    await publish(['map.featured', visibleMaps().find((m) => !m.featured)!]);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const [loud] = posted(fixture.world);
    expect(loud?.content).toBe(`<@&${role.id}>`);
    expect(loud?.allowedMentions).toEqual({ parse: [], roles: [role.id] });
    const [silent] = posted(fixture.world, quiet);
    expect(silent?.content).toBe('');
    expect(silent?.allowedMentions).toEqual({ parse: [], roles: [] });
  });

  it('writes announcements in the guild language', async () => {
    const guild = fixture.world.discord.addGuild({ name: 'Serveur', preferredLocale: 'fr' });
    const salon = fixture.world.discord.addChannel(guild.id, { name: 'annonces' }).id;
    await subscribeDirectly(fixture.world, {
      kind: 'maps',
      guildId: guild.id,
      channelId: salon,
      locale: 'fr',
    });
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    await publish(['map.featured', visibleMaps().find((m) => !m.featured)!]);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world, salon)[0]?.embeds[0]?.title).toContain('Carte en vedette');
  });
});

describe('restart at each step of delivery', () => {
  const steps: Step[] = ['stored', 'cursor', 'sent', 'recorded'];
  for (const step of steps) {
    it(`a crash after "${step}" loses nothing and repeats nothing`, async () => {
      const channels = [
        fixture.world.channelId,
        fixture.world.addChannel('two'),
        fixture.world.addChannel('three'),
      ];
      for (const channelId of channels) await subscribeDirectly(fixture.world, { kind: 'maps', channelId });
      const first = await start();
      await drive(fixture.world.clock, first.announcements.pollOnce());
      await first.stop();
      const maps = visibleMaps()
        .filter((m) => !m.featured)
        .slice(0, 2);
      await publish(['map.featured', maps[0]!], ['map.featured', maps[1]!]);

      // The first process dies at the step: from there on nothing of it runs.
      let crashed = false;
      const crashing = await start({
        announcements: {
          hook: (at) => {
            if (crashed || at === step) {
              crashed = true;
              throw new Error(`crash at ${at}`);
            }
          },
        },
      });
      await expect(drive(fixture.world.clock, crashing.announcements.pollOnce())).rejects.toThrow(/crash at/);
      expect(crashed).toBe(true);
      await crashing.stop();

      // Its claims expire (200 ms here, measured by Date.now(): the wall clock is moved past them); the
      // restarted process resumes from what is stored.
      const wall = jumpWallClock(250);
      try {
        const restarted = await start();
        await drive(fixture.world.clock, restarted.announcements.pollOnce());
        await drive(fixture.world.clock, restarted.announcements.pollOnce());
      } finally {
        wall.restore();
      }
      for (const channelId of channels) {
        const titles = posted(fixture.world, channelId).map((m) => m.embeds[0]?.title);
        expect(titles, channelId).toEqual(featuredTitles(maps));
      }
      expect(await fixture.world.repos.inbox.pending()).toEqual([]);
    });
  }
});

describe('the events budget', () => {
  it('never sends more than 6 requests a minute, through paging, errors, restarts and a second process', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const options = { announcements: { pageSize: 3 } };
    let process = await start(options);
    // Paging through the whole history: many pages back to back.
    await drive(fixture.world.clock, process.announcements.pollOnce());
    // Failures on the way: a 5xx (retried once by the tier client), a reset, a 429.
    fixture.world.sandbox.faults.inject({ match: '/api/events', kind: 'status', status: 503, times: 3 });
    await drive(
      fixture.world.clock,
      process.announcements.pollOnce().catch(() => undefined),
    );
    fixture.world.sandbox.faults.inject({ match: '/api/events', kind: 'reset', times: 1 });
    await drive(
      fixture.world.clock,
      process.announcements.pollOnce().catch(() => undefined),
    );
    fixture.world.sandbox.faults.inject({
      match: '/api/events',
      kind: 'rateLimit',
      retryAfterSec: 5,
      times: 1,
    });
    await drive(
      fixture.world.clock,
      process.announcements.pollOnce().catch(() => undefined),
    );
    // Events to page through again, then a restart in the middle of it all.
    const maps = visibleMaps();
    await publish(...maps.slice(0, 12).map((map) => ['map.featured', map] as ['map.featured', CommunityMap]));
    await process.stop();
    process = await start(options);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    // Two processes on the same store, polling in turn as the lease allows.
    const other = await start(options);
    await publish(
      ...maps.slice(12, 20).map((map) => ['map.featured', map] as ['map.featured', CommunityMap]),
    );
    await drive(
      fixture.world.clock,
      Promise.all([process.announcements.pollOnce(), other.announcements.pollOnce()]),
    );
    await process.stop();
    await publish(
      ...maps.slice(20, 26).map((map) => ['map.featured', map] as ['map.featured', CommunityMap]),
    );
    await drive(fixture.world.clock, other.announcements.pollOnce());

    const requests = eventRequests();
    expect(requests.length).toBeGreaterThan(20);
    expect(
      busiestWindow(
        requests.map((r) => r.at),
        60_000,
      ),
    ).toBeLessThanOrEqual(6);
    // The sandbox never had to refuse one for the window (the only 429 is the injected one).
    expect(requests.filter((r) => r.status === 429)).toHaveLength(1);
    expect(posted(fixture.world)).toHaveLength(26);
  });
});
