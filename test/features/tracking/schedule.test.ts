import { describe, expect, it } from 'vitest';
import { BackgroundScheduler, backgroundCapacity } from '../../../src/traffic/scheduler.ts';
import { fairOrder } from '../../../src/features/tracking/feed.ts';
import type { FollowedPlayer } from '../../../src/players/followed.ts';

function player(key: string, refreshedAt?: number): FollowedPlayer {
  return {
    key,
    playerName: key,
    playerId: undefined,
    refreshedAt,
    gapMs: undefined,
    seen: undefined,
    lastMatchId: undefined,
  };
}

/** A gate the test opens by hand: works wait on it, so the order they start in is what is checked. */
function gated() {
  const started: string[] = [];
  const releases: Array<() => void> = [];
  const work = (label: string) => () =>
    new Promise<void>((resolve) => {
      started.push(label);
      releases.push(resolve);
    });
  const releaseOne = async () => {
    releases.shift()?.();
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { started, work, releaseOne };
}

describe('the background scheduler', () => {
  it('gives turns round the owners: one server with 50 waiting does not starve another with 2', async () => {
    const scheduler = new BackgroundScheduler({ concurrency: 1 });
    const { started, work, releaseOne } = gated();
    const all: Promise<void>[] = [];
    for (let i = 0; i < 50; i += 1) all.push(scheduler.run('big', work(`big${i}`)));
    for (let i = 0; i < 2; i += 1) all.push(scheduler.run('small', work(`small${i}`)));
    all.push(scheduler.run('events', work('events')));
    for (let i = 0; i < 6; i += 1) await releaseOne();
    expect(started.slice(0, 6)).toEqual(['big0', 'big1', 'small0', 'events', 'big2', 'small1']);
    while (scheduler.waiting > 0 || started.length < 53) await releaseOne();
    await releaseOne();
    await Promise.all(all);
    expect(started).toHaveLength(53);
    expect(scheduler.served).toBe(53);
  });

  it('runs at most `concurrency` works at once, and drops a turn whose signal aborts while waiting', async () => {
    const scheduler = new BackgroundScheduler({ concurrency: 2 });
    const { started, work, releaseOne } = gated();
    const first = scheduler.run('a', work('a1'));
    const second = scheduler.run('b', work('b1'));
    const abort = new AbortController();
    const third = scheduler.run('c', work('c1'), abort.signal);
    const fourth = scheduler.run('d', work('d1'));
    await Promise.resolve();
    expect(started).toEqual(['a1', 'b1']);
    abort.abort(new Error('stopped'));
    await expect(third).rejects.toThrow('stopped');
    await releaseOne();
    expect(started).toEqual(['a1', 'b1', 'd1']);
    await releaseOne();
    await releaseOne();
    await Promise.all([first, second, fourth]);
    expect(scheduler.waiting).toBe(0);
  });
});

describe('fair order of refreshes', () => {
  it('alternates owners, longest waiting first within each, and does a shared player once', () => {
    const tasks = [
      { player: player('a1', 10), owners: ['A'], tracked: true },
      { player: player('a2', 5), owners: ['A'], tracked: true },
      { player: player('a3'), owners: ['A'], tracked: true },
      { player: player('b1', 50), owners: ['B'], tracked: true },
      { player: player('shared', 1), owners: ['A', 'B'], tracked: true },
    ];
    const order = fairOrder(tasks).map((task) => task.player.key);
    expect(order).toEqual(['a3', 'shared', 'a2', 'b1', 'a1']);
    expect(new Set(order).size).toBe(tasks.length);
  });
});

describe('background capacity', () => {
  it("is the key's window less the commands' reserve and the fixed-rate feeds", () => {
    expect(backgroundCapacity({ limit: 60, reserve: 10, windowMs: 60_000, feedsPerMinute: 8 })).toBe(42);
    expect(backgroundCapacity({ limit: 60, reserve: 10, windowMs: 60_000, feedsPerMinute: 80 })).toBe(1);
  });
});
