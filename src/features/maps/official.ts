import { ApiError } from '../../api/errors.ts';
import type { ResultOf, Routes } from '../../api/client.ts';
import type { ParamsOf } from '../../api/route.ts';

/** What reads the official maps for a reply: a command's or a button's context (deferring first if it must). */
export interface OfficialMapsReader {
  load(
    name: 'officialMaps',
    params: ParamsOf<Routes['officialMaps']>,
  ): Promise<ResultOf<Routes['officialMaps']>>;
  readonly services: { readonly log: { debug(object: object, message: string): void } };
}

/**
 * The official maps' names by id, from the game's `/maps` list: cached for six hours, so a reply naming
 * any number of maps costs one request now and then (`/match`, `/player matches`, `/leaderboard`, `/me`).
 * A failure only costs the names (the maps then read "Unknown map 7"): an empty map. Not `needed`, nothing
 * is read.
 */
export async function officialMapNames(
  ctx: OfficialMapsReader,
  needed = true,
): Promise<ReadonlyMap<number, string>> {
  if (!needed) return new Map();
  try {
    const maps = await ctx.load('officialMaps', {});
    return new Map(maps.map((map) => [map.id, map.name]));
  } catch (error) {
    if (error instanceof ApiError) {
      ctx.services.log.debug({ err: error }, 'official maps unavailable; showing maps by number');
      return new Map();
    }
    throw error;
  }
}
