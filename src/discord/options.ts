import { ApplicationCommandOptionType } from 'discord.js';
import type { Completer, CompletionKind } from './spec.ts';

/** Option shapes several commands share; Discord enforces the bounds before the bot sees the input. */
export const MAX_PAGE = 1000;

/**
 * A whole number from `min` to `max`, else undefined: for options (which Discord bounds, unless the
 * deployed definition is stale) and for component arguments (strings read back from a custom id).
 */
export function wholeNumber(
  value: string | number | null | undefined,
  min: number,
  max: number,
): number | undefined {
  const parsed = typeof value === 'number' ? value : value?.trim() ? Number(value) : Number.NaN;
  return Number.isInteger(parsed) && parsed >= min && parsed <= max ? parsed : undefined;
}

/** The one page parser: a page number from 1 to `max`, else undefined (absent, garbage, out of range). */
export function parsePage(value: string | number | null | undefined, max = MAX_PAGE): number | undefined {
  return wholeNumber(value, 1, max);
}

export const pageOption = {
  type: ApplicationCommandOptionType.Integer,
  name: 'page',
  min_value: 1,
  max_value: MAX_PAGE,
} as const;

/** A name of the game (player, clan, map, mod) completed as `kind`; `required` unless it has a default. */
export function nameOption<const K extends CompletionKind, const R extends boolean>(
  kind: K,
  required: R,
  maxLength = 100,
) {
  return {
    type: ApplicationCommandOptionType.String,
    name: 'name',
    required,
    min_length: 1,
    max_length: maxLength,
    autocomplete: kind,
  } as const;
}

/** A required player name with autocomplete, as the game's 64-character limit allows (`/link`, `/map rank`). */
export const playerOption = {
  type: ApplicationCommandOptionType.String,
  name: 'player',
  required: true,
  min_length: 1,
  max_length: 64,
  autocomplete: 'player',
} as const;

/**
 * The id of one of a server's records (a subscription, a tracked player, a role rule), completed by
 * `complete` from the records the command keeps.
 */
export function idOption(complete: Completer) {
  return {
    type: ApplicationCommandOptionType.String,
    name: 'id',
    required: true,
    min_length: 1,
    max_length: 32,
    autocomplete: complete,
  } as const;
}

/** A skin by its index, with autocomplete by name (the choice's value is the index). */
export const skinOption = {
  type: ApplicationCommandOptionType.Integer,
  name: 'skin',
  required: true,
  min_value: 0,
  autocomplete: 'skin',
} as const;
