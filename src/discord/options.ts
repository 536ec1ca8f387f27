import { ApplicationCommandOptionType } from 'discord.js';

/** Option shapes several commands share; Discord enforces the bounds before the bot sees the input. */
export const MAX_PAGE = 1000;

export const pageOption = {
  type: ApplicationCommandOptionType.Integer,
  name: 'page',
  min_value: 1,
  max_value: MAX_PAGE,
} as const;

/** A name of the game (player, clan, map, mod) with autocomplete; `required` unless it has a default. */
export function nameOption(required: boolean, maxLength = 100) {
  return {
    type: ApplicationCommandOptionType.String,
    name: 'name',
    required,
    min_length: 1,
    max_length: maxLength,
    autocomplete: true,
  } as const;
}
