import { intParam, notFound, type Route } from '../http.ts';
import type { WorldIndex } from '../lookup.ts';
import { round2 } from '../records.ts';
import type { Clan, Player } from '../world/types.ts';

export const BOARD_ROWS = 100;

export function kd(kills: number, deaths: number): number {
  return deaths === 0 ? kills : round2(kills / deaths);
}

export function route(pattern: string, handler: Route['handler']): Route {
  return { pattern, tier: 'open', handler };
}

export function clanById(index: WorldIndex, raw: string | undefined): Clan {
  const clan = index.clanById(intParam(raw ?? '', 'id'));
  if (!clan) throw notFound('Clan');
  return clan;
}

export function playerById(index: WorldIndex, raw: string | undefined): Player {
  const player = index.playerById(intParam(raw ?? '', 'id'));
  if (!player) throw notFound('Player');
  return player;
}

/** `sort=asc` or `desc`; anything else is the board's default. */
export function ascending(query: URLSearchParams, byDefault: boolean): boolean {
  const sort = query.get('sort');
  return sort === 'asc' ? true : sort === 'desc' ? false : byDefault;
}

export function sortedRows<T extends { value: number }>(
  rows: T[],
  asc: boolean,
): (T & { position: number })[] {
  return rows
    .sort((a, b) => (asc ? a.value - b.value : b.value - a.value))
    .slice(0, BOARD_ROWS)
    .map((row, index) => ({ position: index + 1, ...row }));
}
