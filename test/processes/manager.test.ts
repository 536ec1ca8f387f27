import { Writable } from 'node:stream';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.ts';
import type { ShardState } from '../../src/metrics/index.ts';
import { startShardFleet, type ShardFleet, type ShardFleetOptions } from '../../src/processes/shards.ts';
import { ManualClock } from '../support/clock.ts';
import { within } from '../support/processes.ts';

/**
 * The shard manager with tiny plain-JavaScript shard processes (test/processes/fixtures) instead of the
 * bot: what each child is told, respawn limits, and stopping, without a Discord session.
 */
const fixture = (name: string) => ({
  file: fileURLToPath(new URL(`fixtures/${name}`, import.meta.url)),
  execArgv: [],
});

let fleet: ShardFleet | undefined;

afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
});

function logLines() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ level: 'info', destination }) };
}

function start(options: Partial<ShardFleetOptions> & Pick<ShardFleetOptions, 'plan'>): ShardFleet {
  fleet = startShardFleet({
    token: 'fake-token-for-the-fixtures',
    env: { PATH: process.env.PATH ?? '' },
    log: createLogger({ level: 'silent' }),
    entry: fixture('shard-ready.js'),
    spawnDelayMs: 0,
    ...options,
  });
  return fleet;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the shard manager', () => {
  it('starts each shard of the plan in a process of its own, told its shard and no HTTP_PORT', async () => {
    const seen: Array<[number, ShardState]> = [];
    const shards = start({
      plan: { total: 3, ids: [0, 2], maxConcurrency: 2 },
      env: { PATH: process.env.PATH ?? '', HTTP_PORT: '8080', SHARD_IDS: '0,2' },
      onState: (id, state) => seen.push([id, state]),
    });
    await within(10_000, shards.allReady, 'shards ready');
    expect(shards.ready()).toBe(true);
    expect(Object.fromEntries(shards.states())).toEqual({ 0: 'ready', 2: 'ready' });
    const told = (await shards.metrics(10_000)) as Array<Record<string, string>>;
    expect(told.sort((a, b) => String(a.SHARDS).localeCompare(String(b.SHARDS)))).toEqual(
      [0, 2].map((id) => ({
        SHARDS: `[${id}]`,
        SHARD_IDS: String(id),
        SHARD_COUNT: '3',
        HTTP_PORT: '',
        SHARDING_MANAGER: 'true',
        DISCORD_TOKEN: 'fake-token-for-the-fixtures',
      })),
    );
    const pids = [...shards.pids().values()];
    expect(new Set(pids).size).toBe(2);

    await within(10_000, shards.stop(), 'shards stopped');
    expect(pids.filter(alive)).toEqual([]);
    expect(Object.fromEntries(shards.states())).toEqual({ 0: 'dead', 2: 'dead' });
    for (const id of [0, 2]) {
      expect(seen.filter(([shard]) => shard === id).map(([, state]) => state)).toEqual([
        'starting',
        'ready',
        'dead',
      ]);
    }
    expect(process.env.SHARDING_MANAGER).toBeUndefined();
  });

  it('starts a shard that died again, waiting longer each time, and gives up past the limit', async () => {
    const clock = new ManualClock();
    const { lines, log } = logLines();
    let gaveUp: (id: number) => void = () => undefined;
    const givenUp = new Promise<number>((resolve) => (gaveUp = resolve));
    const shards = start({
      plan: { total: 1, ids: [0], maxConcurrency: 1 },
      entry: fixture('shard-crash.js'),
      respawn: { maxDeaths: 2, windowMs: 60_000, firstDelayMs: 1_000, maxDelayMs: 30_000 },
      clock,
      log,
      onGiveUp: gaveUp,
    });
    for (const delay of [1_000, 2_000]) {
      await clock.whenSleeping(1);
      expect(clock.nextWake! - clock.now()).toBe(delay);
      await clock.advance(delay);
    }
    expect(await within(10_000, givenUp, 'given up')).toBe(0);
    expect(shards.ready()).toBe(false);
    expect(shards.states().get(0)).toBe('dead');
    const exits = lines.filter((line) => line.msg === 'shard process exited');
    expect(exits.map((line) => line.code)).toEqual([3, 3, 3]);
    expect(lines.filter((line) => line.msg === 'shard keeps dying: giving up on it')).toHaveLength(1);
  });

  it('kills a shard process that does not stop after SIGTERM, once stopTimeoutMs passed', async () => {
    const clock = new ManualClock();
    const { lines, log } = logLines();
    const shards = start({
      plan: { total: 1, ids: [0], maxConcurrency: 1 },
      env: { PATH: process.env.PATH ?? '', STUBBORN: '1' },
      stopTimeoutMs: 5_000,
      clock,
      log,
    });
    await within(10_000, shards.allReady, 'shard ready');
    const pid = shards.pids().get(0)!;
    const stopped = shards.stop();
    // SIGTERM is sent and the timeout runs on the clock: a moment before it, the shard still lives.
    await clock.whenSleeping(1);
    await clock.advance(4_999);
    expect(alive(pid)).toBe(true);
    await clock.advance(1);
    await within(10_000, stopped, 'shards stopped');
    expect(alive(pid)).toBe(false);
    expect(lines.map((line) => line.msg)).toContain('shard process did not stop in time: killing it');
  });

  it("relays a user's forget from the shard asked to every other shard process", async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const shards = start({
      plan: { total: 2, ids: [0, 1], maxConcurrency: 2 },
      env: { PATH: process.env.PATH ?? '', FORGET: '1' },
      entry: {
        file: fileURLToPath(new URL('fixtures/shard-forget.ts', import.meta.url)),
        execArgv: ['--import', tsx],
      },
    });
    await within(30_000, shards.allReady, 'shards ready');
    const kept = async () =>
      Object.fromEntries(
        ((await shards.metrics(10_000)) as Array<{ shard: string; kept: boolean }>).map((s) => [
          s.shard,
          s.kept,
        ]),
      );
    // Both keep a token for the user; shard 1 is then asked to forget it (as /me forget in a server
    // of shard 1), and shard 0, which handles the user's DMs, must drop its own. Messages between two
    // processes keep their order: shard 1's forget reaches the manager before its answer, the relay to
    // shard 0 leaves before the next question, and shard 0 reads them in that order.
    expect(await kept()).toEqual({ 0: true, 1: true });
    expect((await kept())[1]).toBe(false);
    expect(await kept()).toEqual({ 0: false, 1: false });
  }, 60_000);
});
