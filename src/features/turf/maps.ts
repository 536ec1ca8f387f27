import { TURF_MAP_NAMES } from '../../api/turf-maps.ts';

/**
 * The turf maps a user can pick by name (the spec's enumeration: 0 Burg, 2 Sandstorm, 3 Subzero). The
 * `map` option offers them as choices, so a user never types an id; ids read back from a button are
 * checked against the same list.
 */
export const TURF_MAP_IDS: readonly number[] = Object.keys(TURF_MAP_NAMES)
  .map(Number)
  .sort((a, b) => a - b);

export function isTurfMapId(value: number | undefined): value is number {
  return value !== undefined && TURF_MAP_IDS.includes(value);
}

/** A map id read back from a component id ('' is "every map"), or undefined when it is none of ours. */
export function storedTurfMap(value: string): number | 'all' | undefined {
  if (value === '') return 'all';
  if (!/^\d{1,3}$/.test(value)) return undefined;
  const id = Number(value);
  return isTurfMapId(id) ? id : undefined;
}
