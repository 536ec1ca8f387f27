import { describe, expect, it } from 'vitest';
import type { StepHook } from '../../src/announcements/delivery.ts';
import {
  capturedLog,
  flakyDatabase,
  flakyStore,
  posted,
  subscribeDirectly,
  useWorldPerTest,
} from '../support/announcements.ts';

/** The poll loop while the store stops answering: it backs off, keeps quiet, resumes, loses nothing. */
const fixture = useWorldPerTest();
const INTERVAL_MS = 20_000;

describe('a store outage under the poll loop', () => {
  it('backs off without spinning or spamming, then resumes and posts what happened meanwhile once', async () => {
    const { world } = fixture;
    const { log, lines } = capturedLog();
    const store = flakyStore(world.store);
    // The database fails on the same switch, and counts its own failures: the polls', which read it first.
    const polls = { down: false, failures: 0 };
    const db = flakyDatabase(world.db, polls);
    await subscribeDirectly(world, { kind: 'maps' });
    // The first poll pages through the history and leaves the cursor (the 'cursor' step says when); then
    // the loop sleeps.
    let cursorMoved!: () => void;
    const cursor = new Promise<void>((resolve) => (cursorMoved = resolve));
    // The announcement of an event (not a page of the history) is recorded: said by the 'recorded' step.
    let announced!: () => void;
    const recorded = new Promise<void>((resolve) => (announced = resolve));
    const hook: StepHook = (step, info) => {
      if (step === 'cursor' && info.eventKey.startsWith('page:')) cursorMoved();
      if (step === 'recorded' && !info.eventKey.startsWith('page:')) announced();
    };
    const process = await fixture.start({ store, db, log, announcements: { autoStart: true, hook } });
    await cursor;
    expect(await world.repos.cursors.get('types=map.featured,map.unfeatured')).toBeDefined();
    // The rest of that first poll (and the other loops' first steps) finish before time moves.
    await world.clock.runFor(0);

    store.down = true;
    polls.down = true;
    const map = world.sandbox.world.maps.find((m) => m.hidden === null && !m.featured)!;
    await world.clock.runFor(1_000);
    world.sandbox.events.publish('map.featured', map.id);
    const failuresBefore = polls.failures;
    // Ten minutes of outage, woken every interval (each wake-up's work done before time moves on).
    await world.clock.runFor(30 * INTERVAL_MS);
    const attempts = polls.failures - failuresBefore;
    // Without backoff this is 30 polls of each source (one per interval); with it, a handful.
    expect(attempts).toBeGreaterThan(0);
    expect(attempts).toBeLessThanOrEqual(16);
    // One warning per part that met the outage (each source's poll loop, the worker lease), not per try.
    const warnings = lines.filter((line) => (line.level as number) >= 40);
    const pollWarnings = warnings.filter((line) => String(line.msg).startsWith('poll failed'));
    const sources = pollWarnings.map((line) => String(line.source));
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources).size).toBe(sources.length);
    // The lease could not be renewed: this process worked on until it would have expired, then stood by.
    expect(warnings.filter((line) => !pollWarnings.includes(line)).map((line) => line.msg)).toEqual([
      'could not check the worker lease',
      'lost the worker lease; standing by',
    ]);
    expect(posted(world)).toHaveLength(0);

    store.down = false;
    polls.down = false;
    // The loops back off, take the lease again and poll: time moves from one wake-up to the next, each
    // once nothing is under way, until the announcement is recorded.
    await world.clock.settle(recorded);
    expect(posted(world)).toHaveLength(1);
    expect(posted(world)[0]?.embeds[0]?.title).toContain(map.name);
    // Polls go on as usual afterwards, and nothing is posted again.
    await world.clock.runFor(10 * INTERVAL_MS);
    await process.announcements.flush();
    expect(posted(world)).toHaveLength(1);
    // Each source that said it failed says once that it works again.
    const recovered = lines
      .filter((line) => line.msg === 'polling works again')
      .map((line) => String(line.source));
    expect(recovered.sort()).toEqual([...sources].sort());
  });
});
