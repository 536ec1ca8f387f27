import type { Rng } from '../prng.ts';
import type { Player } from './types.ts';

/** Players every seed has, with the traits tests rely on. */
export const NOTABLE = {
  player: 'KillfeedTester',
  verified: 'VerifiedPro',
  hacker: 'Haxx0r',
  zeroGames: 'FreshSpawn',
  kpd: 'KpdOfficer',
  markdown: 'MarkdownFan',
  mapMaker: 'MapMaker',
  unicode: ['Ünïcødé_Kéké', '忍者スナイパー', 'Влад_Снайпер'],
} as const;

/** What every part of the world draws from: one random stream, in a fixed order, and the day it is anchored to. */
export interface WorldContext {
  readonly rng: Rng;
  /** The sandbox's now when the world was made: nothing in it happened later. */
  readonly nowMs: number;
  readonly anchorMs: number;
  readonly daysAgo: (days: number, jitterHours?: number) => number;
}

/** Code-unit order: fast and the same everywhere (`localeCompare` is neither). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}

export function playerLookup(players: readonly Player[]): (name: string) => Player {
  const playerByName = new Map(players.map((p) => [p.name, p]));
  return (name) => {
    const found = playerByName.get(name);
    if (!found) throw new Error(`no player ${name}`);
    return found;
  };
}
