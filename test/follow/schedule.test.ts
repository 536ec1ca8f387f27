import { describe, expect, it } from 'vitest';
import { BackgroundScheduler, backgroundCapacity, planIntervals } from '../../src/schedule/scheduler.ts';
import { fairOrder, planFollowIntervals } from '../../src/follow/feed.ts';
import type { FollowedPlayer } from '../../src/history/followed.ts';

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

describe('interval planning', () => {
  it('keeps the targets while the budget suffices, and stretches every interval evenly when it does not', () => {
    const capacity = backgroundCapacity({ limit: 60, reserve: 10, windowMs: 60_000, feedsPerMinute: 8 });
    expect(capacity).toBe(42);
    // 100 players every 5 minutes: 20 a minute, within 42.
    expect(planIntervals([{ count: 100, targetMs: 300_000 }], capacity)).toEqual([300_000]);
    // 1,000 every 5 minutes plus 2,000 daily: 200 + 1.39 a minute, 4.8 times what is left.
    const [tracked = 0, linked = 0] = planIntervals(
      [
        { count: 1_000, targetMs: 300_000 },
        { count: 2_000, targetMs: 86_400_000 },
      ],
      capacity,
    );
    expect(tracked / 300_000).toBeCloseTo(linked / 86_400_000, 3);
    expect(tracked).toBeGreaterThan(1_000 * (60_000 / capacity) - 1);
    // The feed counts 1.5 requests a refresh (the matches page when a player played): 1.5 times longer.
    const planned = planFollowIntervals({ trackMinutes: 5, linkedHours: 24 }, capacity, 1_000, 3_000);
    expect(planned.trackedMs / tracked).toBeCloseTo(1.5, 3);
  });
});
