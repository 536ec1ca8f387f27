import type { TurfMap, TurfStatus, TurfTopPerformingClans } from '../../../api/schemas/index.ts';
import { amount } from '../digest/collect.ts';
import { MAX_MAPS, type MapStanding } from './model.ts';

/**
 * A clan's standing now on each turf map, from the turf status (owners and each map's top clans) and, for
 * a map whose top list does not hold the clan, that map's board of the day (100 rows): read once per poll
 * for every clan together. Numbers out of range read as unknown; lists are cut before they are sorted.
 */
const NAME_MAX = 64;
/** Top clans of a map looked at, at most (the game sends five). */
const MAX_TOP = 25;
/** Board rows looked at, at most (the game sends 100). */
const MAX_ROWS = 200;

interface Row {
  readonly clanId: number;
  readonly name: string;
  readonly points: number | undefined;
  readonly position: number | undefined;
}

function validPlace(value: number | undefined): number | undefined {
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= 1e6 ? value : undefined;
}

function cut(name: string): string {
  return name.trim().slice(0, NAME_MAX);
}

/** A map's top clans, best first (points, then the place the game gave). */
function topOf(map: TurfMap): Row[] {
  return (map.top_clans ?? [])
    .slice(0, MAX_TOP)
    .map((c) => ({
      clanId: c.clan_id,
      name: cut(c.clan_name),
      points: amount(c.points),
      position: validPlace(c.position),
    }))
    .sort(
      (a, b) =>
        (b.points ?? -1) - (a.points ?? -1) ||
        (a.position ?? 1e9) - (b.position ?? 1e9) ||
        a.clanId - b.clanId,
    );
}

/** The maps whose top list lacks one of the clans: their boards are read. */
export function mapsToRead(status: TurfStatus, clanIds: readonly number[]): number[] {
  return validMaps(status)
    .filter((map) => clanIds.some((id) => !topOf(map).some((row) => row.clanId === id)))
    .map((map) => map.map_id);
}

/** The status's maps with a usable id, once each, at most {@link MAX_MAPS}. */
export function validMaps(status: TurfStatus): TurfMap[] {
  const seen = new Set<number>();
  const maps: TurfMap[] = [];
  for (const map of status.maps) {
    if (maps.length >= MAX_MAPS) break;
    if (!Number.isInteger(map.map_id) || map.map_id < 0 || seen.has(map.map_id)) continue;
    seen.add(map.map_id);
    maps.push(map);
  }
  return maps;
}

/** The clan's row of a board, or null when the board was read without it; undefined: not read. */
export function boardRow(
  board: TurfTopPerformingClans | undefined,
  clanId: number,
): { position?: number; points?: number; rows: number } | null | undefined {
  if (board === undefined) return undefined;
  const rows = board.rows.slice(0, MAX_ROWS);
  const row = rows.find((r) => r.clan_id === clanId);
  if (!row) return null;
  const position = validPlace(row.position);
  const points = amount(row.points);
  return {
    ...(position === undefined ? {} : { position }),
    ...(points === undefined ? {} : { points }),
    rows: rows.length,
  };
}

/** One map, as the reminder shows it for the clan. */
export function mapStandingOf(
  map: TurfMap,
  clanId: number,
  board: TurfTopPerformingClans | undefined,
): MapStanding {
  const top = topOf(map);
  const leader = top[0];
  const index = top.findIndex((row) => row.clanId === clanId);
  const own = index >= 0 ? top[index] : undefined;
  const base: MapStanding = {
    mapId: map.map_id,
    ...(map.owner === undefined ? {} : { owner: map.owner === null ? null : cut(map.owner.clan_name) }),
    owned: map.owner?.clan_id === clanId,
    ...(leader
      ? {
          leader: {
            name: leader.name,
            own: leader.clanId === clanId,
            ...(leader.points === undefined ? {} : { points: leader.points }),
          },
        }
      : {}),
  };
  if (own) {
    return {
      ...base,
      position: own.position ?? index + 1,
      ...(own.points === undefined ? {} : { points: own.points }),
    };
  }
  const row = boardRow(board, clanId);
  if (row === undefined) return base;
  if (row === null) return { ...base, position: null, rows: board?.rows.slice(0, MAX_ROWS).length ?? 0 };
  return {
    ...base,
    ...(row.position === undefined ? {} : { position: row.position }),
    ...(row.points === undefined ? {} : { points: row.points }),
  };
}
