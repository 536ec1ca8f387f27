import { MAP_WORDS, MOD_NAMES } from '../names.ts';
import { DAY_MS } from '../time.ts';
import type { WorldContext } from './common.ts';
import type { Mod, Player } from './types.ts';

export function makeMods(
  { rng, anchorMs, daysAgo }: WorldContext,
  creators: readonly Player[],
  hacker: Player,
): Mod[] {
  return MOD_NAMES.map((name, index) => {
    const creator = name === 'Hacker Pack' ? hacker : rng.pick(creators);
    const createdAtMs = daysAgo(rng.int(10, 1_200));
    return {
      id: 5_000 + index * 11 + rng.int(0, 9),
      name,
      description: `${name}: a ${rng.pick(MAP_WORDS)} resource pack.`,
      creatorName: creator.name,
      creatorBanned: creator.banned,
      votes: rng.int(0, 40_000),
      featured: rng.chance(0.2),
      version: rng.int(1, 30),
      createdAtMs,
      updatedAtMs: Math.min(anchorMs, createdAtMs + rng.int(0, 400) * DAY_MS),
      deleted: name === 'Deleted Mod' || name === 'Old Junk',
    };
  });
}
