import type { Sandbox } from '../../src/dev/sandbox/index.ts';
import type { CommandSpec } from './measure.ts';
import { TIMELINE } from './model.ts';

/** The same lookups in every scenario: each by a different user and for a different name, so none is cached. */
export function standardCommands(sandbox: Sandbox): CommandSpec[] {
  const world = sandbox.world;
  const players = world.players.filter((p) => !p.banned);
  const clans = world.clans.filter((c) => c.members.length > 3);
  const boards = world.maps.filter((m) => m.hidden === null && m.leaderboardType !== '');
  const pick = <T>(list: readonly T[], i: number): T => {
    const item = list[i % list.length];
    if (item === undefined) throw new Error('the sandbox world is empty');
    return item;
  };
  return Array.from({ length: TIMELINE.commands }, (_, i): CommandSpec => {
    const userId = `30000000000000${String(i).padStart(4, '0')}`;
    switch (i % 6) {
      case 0:
        return { command: 'player', sub: 'profile', values: { name: pick(players, i).name }, userId };
      case 1:
        return { command: 'clan', sub: 'members', values: { name: pick(clans, i).name }, userId };
      case 2:
        return { command: 'map', sub: 'info', values: { name: pick(boards, i).name }, userId };
      case 3:
        return { command: 'player', sub: 'matches', values: { name: pick(players, i + 40).name }, userId };
      case 4:
        return { command: 'map', sub: 'leaderboard', values: { name: pick(boards, i + 7).name }, userId };
      default:
        return { command: 'link', sub: 'name', values: { player: pick(players, i + 80).name }, userId };
    }
  });
}

/** The maps the run features: visible, not featured yet, spread over the world. */
export function mapsToFeature(sandbox: Sandbox) {
  return sandbox.world.maps
    .filter((m) => m.hidden === null && !m.featured)
    .filter((_, i) => i % 5 === 0)
    .slice(0, TIMELINE.publishAtMs.length);
}
