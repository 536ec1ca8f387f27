import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { capturedLog, flakyStore, posted, subscribeDirectly, until, useWorldPerTest } from './support.ts';

/** The poll loop while the store stops answering: it backs off, keeps quiet, resumes, loses nothing. */
const fixture = useWorldPerTest();
const INTERVAL_MS = 20_000;

describe('a store outage under the poll loop', () => {
  it('backs off without spinning or spamming, then resumes and posts what happened meanwhile once', async () => {
    const { world } = fixture;
    const { log, lines } = capturedLog();
    const store = flakyStore(world.store);
    await subscribeDirectly(world, { kind: 'maps' });
    const process = await fixture.start({ store, log, announcements: { autoStart: true } });
    // The first poll pages through the history and leaves the cursor; then the loop sleeps.
    await until(
      async () => (await world.repos.cursors.get('types=map.featured,map.unfeatured')) !== undefined,
    );
    await until(() => world.clock.sleepers > 0);

    store.down = true;
    const map = world.sandbox.world.maps.find((m) => m.hidden === null && !m.featured)!;
    await world.clock.advance(1_000);
    world.sandbox.events.publish('map.featured', map.id);
    const failuresBefore = store.failures;
    // Ten minutes of outage, woken every interval.
    for (let step = 0; step < 30; step += 1) {
      await world.clock.advance(INTERVAL_MS);
      await until(() => world.clock.sleepers > 0);
    }
    const attempts = store.failures - failuresBefore;
    // Without backoff this is 30 polls (one per interval); with it, a handful.
    expect(attempts).toBeGreaterThan(0);
    expect(attempts).toBeLessThanOrEqual(8);
    const warnings = lines.filter((line) => (line.level as number) >= 40);
    expect(warnings).toHaveLength(1);
    expect(posted(world)).toHaveLength(0);

    store.down = false;
    for (let step = 0; step < 2_000 && posted(world).length === 0; step += 1) {
      await sleep(2);
      await world.clock.advance(1_000);
    }
    expect(posted(world)).toHaveLength(1);
    expect(posted(world)[0]?.embeds[0]?.title).toContain(map.name);
    // Polls go on as usual afterwards, and nothing is posted again.
    for (let step = 0; step < 10; step += 1) {
      await world.clock.advance(INTERVAL_MS);
      await until(() => world.clock.sleepers > 0);
    }
    await process.announcements.flush();
    expect(posted(world)).toHaveLength(1);
    expect(lines.filter((line) => line.msg === 'polling works again')).toHaveLength(1);
  });
});
