import type { SandboxContext } from '../context.ts';
import type { Route } from '../http.ts';
import { gameList } from '../matchmaker.ts';
import { DAY_MS, iso } from '../time.ts';
import { route } from './common.ts';

/** What is on now: the game list, the cup and creator events. */
export function liveRoutes(ctx: SandboxContext): Route[] {
  const { world } = ctx;
  return [
    route('/game-list', ({ nowMs }) => gameList(world, nowMs)),
    route('/krunkcup/wristband', () => ({
      season: world.currentSeason,
      tiers: [
        { tier: 1, points: 0, reward: 'Bronze band' },
        { tier: 2, points: 1_000, reward: 'Silver band' },
        { tier: 3, points: 5_000, reward: 'Gold band' },
      ],
    })),
    route('/creators/events', () => [
      {
        id: 1,
        name: 'Map Jam',
        starts_at: iso(world.anchorMs - 3 * DAY_MS),
        ends_at: iso(world.anchorMs + 11 * DAY_MS),
      },
      {
        id: 2,
        name: 'Skin Contest',
        starts_at: iso(world.anchorMs + 14 * DAY_MS),
        ends_at: iso(world.anchorMs + 28 * DAY_MS),
      },
    ]),
  ];
}
