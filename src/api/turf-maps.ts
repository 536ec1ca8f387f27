/** Turf map ids as the spec names them; turf replies carry ids only. */
export const TURF_MAP_NAMES: Readonly<Record<number, string>> = { 0: 'Burg', 2: 'Sandstorm', 3: 'Subzero' };

/** The map's name, or undefined for an id the spec does not name (shown as "Map <id>"). */
export function turfMapName(mapId: number): string | undefined {
  return TURF_MAP_NAMES[mapId];
}
