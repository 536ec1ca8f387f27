import type { Translator } from '../i18n/index.ts';
import { safeText } from './text.ts';

/**
 * The one place where ids the game sends without a name get their names. Where the API itself pairs an id
 * with a name (official maps from `/maps`, skins, turf maps, KPD labels), that name is used and these
 * tables are not. Where the spec gives no name, the table is here, and `docs/api-shapes.md` ("Names of
 * ids") says where each came from. An id no table knows reads naturally in the reader's language
 * ("Unknown role 7"), never as a bare number.
 */
export type NamedKind = 'role' | 'category' | 'mode' | 'map' | 'region' | 'class' | 'skin' | 'rarity';

/**
 * Clan member roles (`members[].role`, `members[].r`). The spec: "Meaning of the role values: not shown".
 * Members are listed by role descending and the clan's owner holds the highest, 3 (as the sandbox
 * seeds it); the lower ranks are this project's names. Localized in `common:names.role.<id>`.
 */
export const CLAN_ROLES = [0, 1, 2, 3] as const;

/**
 * Map categories (`MapInfo.category`, the map browser's `index` tab). The spec says only "category id";
 * these names are this project's choice for ids 0-7, localized in `common:names.category.<id>`.
 */
export const MAP_CATEGORIES = [0, 1, 2, 3, 4, 5, 6, 7] as const;

/**
 * Mode indices of a lobby's `g` option. The spec names none of them; these are the game's own mode
 * names (proper names, shown as the game shows them, in every language).
 */
export const MODE_NAMES: Readonly<Record<number, string>> = {
  0: 'Free for All',
  1: 'Team Deathmatch',
  2: 'Hardpoint',
  3: 'Capture the Flag',
  4: 'Parkour',
  5: 'Hide & Seek',
  6: 'Infected',
  7: 'Race',
  8: 'Last Man Standing',
  9: 'Simon Says',
  10: 'Gun Game',
  11: 'Prop Hunt',
  12: 'Boss Hunt',
  13: 'Classic FFA',
  14: 'Deposit',
  15: 'Stalker',
  16: 'King of the Hill',
  17: 'One in the Chamber',
  18: 'Trade',
  19: 'Kill Confirmed',
  20: 'Defuse',
  21: 'Sharp Shooter',
  22: 'Traitor',
  23: 'Raid',
  24: 'Blitz',
  25: 'Domination',
  26: 'Squad Deathmatch',
  27: 'Kranked FFA',
};

/**
 * Class ids of a profile's `class_stats`. The spec documents none; these are the game's own class names
 * (proper names, shown as the game shows them, in every language), in the order of its class menu.
 */
export const CLASS_NAMES: Readonly<Record<string, string>> = {
  '0': 'Triggerman',
  '1': 'Hunter',
  '2': 'Run N Gun',
  '3': 'Spray N Pray',
  '4': 'Vince',
  '5': 'Detective',
  '6': 'Marksman',
  '7': 'Rocketeer',
  '8': 'Agent',
  '9': 'Runner',
  '10': 'Bowman',
  '11': 'Commando',
  '12': 'Trooper',
  '13': 'Infiltrator',
};

/** A class of `class_stats` by its id ("Hunter"), or "Unknown class 21". */
export function className(t: Translator, id: string): string {
  return Object.hasOwn(CLASS_NAMES, id) ? (CLASS_NAMES[id] ?? id) : unknownName(t, 'class', id);
}

/**
 * Skin rarities (`rarity` of the skin list). The spec gives the number only; these are the game client's
 * names for 0-6 (Uncommon to Unobtainable), localized in `common:names.rarity.<id>`.
 */
export const RARITIES = [0, 1, 2, 3, 4, 5, 6] as const;

/** A skin's rarity by name ("Legendary"), or "Unknown rarity 9"; undefined when the skin list has none. */
export function rarityName(t: Translator, rarity: number | undefined): string | undefined {
  if (rarity === undefined) return undefined;
  return known(RARITIES, rarity) ? t.t(`common:names.rarity.${rarity}`) : unknownName(t, 'rarity', rarity);
}

function known(list: readonly number[], id: number): boolean {
  return list.includes(id);
}

/** "Unknown role 7", "Unknown map 40": an id that no table (or API reply) names, in the reader's language. */
export function unknownName(t: Translator, kind: NamedKind, id: number | string): string {
  const shown = typeof id === 'number' ? String(id) : id.replace(/[^\w.-]/g, '').slice(0, 24) || '?';
  return t.t(`common:names.unknown.${kind}`, { id: shown });
}

/** A clan member's role; undefined (absent in the reply) reads as "Role unknown". */
export function clanRoleName(t: Translator, role: number | undefined): string {
  if (role === undefined) return t.t('common:names.roleAbsent');
  return known(CLAN_ROLES, role) ? t.t(`common:names.role.${role}`) : unknownName(t, 'role', role);
}

export function mapCategoryName(t: Translator, category: number | undefined): string {
  if (category === undefined) return '—';
  return known(MAP_CATEGORIES, category)
    ? t.t(`common:names.category.${category}`)
    : unknownName(t, 'category', category);
}

export function modeName(t: Translator, mode: number | undefined): string {
  if (mode === undefined) return t.t('common:unknown');
  return MODE_NAMES[mode] ?? unknownName(t, 'mode', mode);
}

/**
 * An official map's name from the game's own `/maps` list (`names`, keyed by id), escaped and cut to
 * `max`, or "Unknown map 40". The caller passes the list it loaded (cached six hours), so that a page of
 * rows costs one lookup.
 */
export function officialMapName(
  t: Translator,
  names: ReadonlyMap<number, string> | undefined,
  id: number | undefined,
  max = 60,
): string | undefined {
  if (id === undefined) return undefined;
  const name = names?.get(id)?.trim();
  return name ? safeText(name, max) : unknownName(t, 'map', id);
}
