import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev/net.ts';
import { spawnRedisServer } from '../support/redis-server.ts';
import type { CommunityMap } from '../../src/dev/sandbox/index.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import {
  drive,
  posted,
  startProcess,
  startWorld,
  subscribeDirectly,
  type Process,
  type World,
} from '../support/announcements.ts';

/**
 * Two bot processes sharing one Redis store (Debian's redis-server, started here on 127.0.0.1): one
 * polls at a time under the lease, both deliver, and every event reaches every channel exactly once.
 */
const REDIS_SERVER = '/usr/bin/redis-server';
const available = existsSync(REDIS_SERVER);
const required = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

async function startRedis(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = await spawnRedisServer(port);
  return { child, url: `redis://127.0.0.1:${port}` };
}

describe('redis-server is available', () => {
  it.runIf(required)('is installed where the CI image puts it', () => {
    expect(available, `${REDIS_SERVER} is missing: install Debian's redis-server package`).toBe(true);
  });
});

describe.skipIf(!available)('two bot processes on one Redis store', () => {
  let redis: { child: ChildProcess; url: string };
  let world: World;
  let stores: Store[];
  let first: Process;
  let second: Process;

  beforeAll(async () => {
    redis = await startRedis();
    const prefix = `killfeed-test-${Date.now().toString(36)}-`;
    stores = [
      await createStore(redis.url, { prefix, purgeIntervalMs: 0 }),
      await createStore(redis.url, { prefix, purgeIntervalMs: 0 }),
      await createStore(redis.url, { prefix, purgeIntervalMs: 0 }),
    ];
    world = await startWorld({ store: stores[0]! });
    const options = { commands: false, announcements: { pageSize: 5, leaseTtlMs: 1_000 } };
    first = await startProcess(world, { ...options, store: stores[1]! });
    second = await startProcess(world, { ...options, store: stores[2]! });
  }, 30_000);

  afterAll(async () => {
    await first.stop();
    await second.stop();
    await world.close();
    for (const store of stores) await store.close();
    redis.child.kill('SIGTERM');
    await new Promise((resolve) => redis.child.once('exit', resolve));
  });

  it('announces every event once per subscribed channel, whichever process polls or delivers', async () => {
    const channels = [
      world.channelId,
      world.addChannel('second'),
      world.addChannel('third'),
      world.addChannel('fourth'),
    ];
    for (const channelId of channels) await subscribeDirectly(world, { kind: 'maps', channelId });
    const maps = world.sandbox.world.maps.filter((m) => m.hidden === null);
    const publish = async (batch: readonly CommunityMap[]) => {
      for (const map of batch) {
        await world.clock.advance(1_000);
        world.sandbox.events.publish('map.featured', map.id);
      }
    };
    // Both processes run their poll and their delivery passes at the same moments, several rounds.
    const round = () =>
      drive(
        world.clock,
        Promise.all([
          first.announcements.pollOnce(),
          second.announcements.pollOnce(),
          first.announcements.flush(),
          second.announcements.flush(),
        ]),
      );
    await publish(maps.slice(0, 7));
    await round();
    await publish(maps.slice(7, 12));
    await round();
    // The lease holder goes away; the other one takes over and goes on from the shared cursor.
    await first.stop();
    await publish(maps.slice(12, 16));
    await drive(world.clock, second.announcements.pollOnce());
    await drive(world.clock, second.announcements.pollOnce());

    const expected = maps.slice(0, 16).map((m) => m.id);
    for (const channelId of channels) {
      const announced = posted(world, channelId).map((m) => m.embeds[0]?.title ?? '');
      expect(announced, channelId).toHaveLength(expected.length);
      expect(new Set(announced).size, channelId).toBe(expected.length);
    }
    expect(await world.repos.inbox.pending()).toEqual([]);
    // One poller at a time: the feed was never asked twice for the same page.
    const afters = world.sandbox.requests
      .entries()
      .filter((entry) => entry.path === '/api/events' && entry.status === 200)
      .map((entry) => entry.query.after);
    expect(new Set(afters).size).toBe(afters.length);
  });
});
