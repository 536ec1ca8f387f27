import { OFFICIAL_MAP_NAMES, REGION_KEYS } from '../names.ts';
import { at, type WorldContext } from './common.ts';
import type { CommunityMap, Lobby } from './types.ts';

export function makeLobbies({ rng }: WorldContext, visibleMaps: readonly CommunityMap[]): Lobby[] {
  return Array.from({ length: 48 }, (_, index) => {
    const region = at(REGION_KEYS, index % REGION_KEYS.length);
    const custom: 0 | 1 = rng.chance(0.25) ? 1 : 0;
    const maxPlayers = custom === 1 ? rng.pick([2, 4, 8, 10, 16]) : rng.pick([6, 8, 10]);
    return {
      gameId: `${(region.split('-').at(-1) ?? region).toUpperCase()}:${rng.token(5)}`,
      region,
      players: rng.int(0, maxPlayers),
      maxPlayers,
      mapName: custom === 1 && rng.chance(0.5) ? rng.pick(visibleMaps).name : rng.pick(OFFICIAL_MAP_NAMES),
      mode: rng.pick([0, 0, 0, 1, 2, 3, 5, 8, 11]),
      custom,
      phase: rng.int(0, 239),
    };
  });
}
