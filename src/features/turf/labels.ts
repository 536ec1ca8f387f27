import type { Translator } from '../../i18n/index.ts';
import { dayDate, mapLabel } from './render.ts';
import { isTurfDay } from '../../api/turf-days.ts';

/** Names of the turf replies' days and maps, shared by the boards, payouts and contributions. */

/** "Day 255 (Nov 27)". */
export function dayLabel(t: Translator, day: number): string {
  return t.t('turf:day', { day: t.n(day), date: dayDate(t, day) });
}

/** The day an upstream reply says it is about, when it is a day the bot can show; else `fallback`. */
export function replyDay(day: number | null | undefined, fallback: number): number {
  return isTurfDay(day) ? day : fallback;
}

/** A map by name, or "every map" when none was picked. */
export function mapScope(t: Translator, mapId: number | undefined): string {
  return mapId === undefined ? t.t('turf:boards.everyMap') : mapLabel(t, mapId);
}
