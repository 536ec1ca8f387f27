import type { AutocompleteChoice, CompletionContext } from '../discord/command.ts';
import type { Completers } from '../discord/completion.ts';
import type { Translator } from '../i18n/index.ts';
import type { NameIndex, NameKind } from '../names/index.ts';
import { unknownName } from '../render/names.ts';
import { truncate } from '../render/text.ts';
import { rankNames } from './fuzzy.ts';
import { nameSearchOf, type SearchAsker, type SearchKind } from './index.ts';

const CHOICES = 25;

/**
 * The completer of each kind of name an option may declare (`autocomplete: 'player'`), handed to the
 * interaction router by the composition root. Players and clans go through the name search (names seen,
 * then the search endpoint: debounced, within its budget and each user's and server's share); maps and
 * mods are the names seen and the game's lists; skins are the skin list, valued by index.
 */
export const NAME_COMPLETERS: Completers = {
  player: (ctx) => searched('player', ctx),
  clan: (ctx) => searched('clan', ctx),
  map: (ctx) => Promise.resolve(listedChoices(ctx.services.names, 'map', ctx.typed)),
  mod: (ctx) => Promise.resolve(listedChoices(ctx.services.names, 'mod', ctx.typed)),
  skin: (ctx) => Promise.resolve(skinChoices(ctx.t, ctx.services.names, ctx.typed)),
};

/**
 * Maps and mods: the names seen and the game's published lists (`catalog.ts`), ranked forgiving typos
 * ("Parkour Paradis" finds "Parkour Paradise"); no request.
 */
export function listedChoices(
  names: Pick<NameIndex, 'list'>,
  kind: NameKind,
  typed: string | number,
): AutocompleteChoice[] {
  return rankNames(String(typed).slice(0, 100), names.list(kind), CHOICES).map((ranked) => ({
    name: truncate(ranked.name, 100),
    value: ranked.name,
  }));
}

/** Whose share of the search budget a keystroke spends: its user's, and its server's when in one. */
function askerOf(ctx: CompletionContext): SearchAsker {
  return { user: ctx.interaction.user.id, guild: ctx.interaction.guildId };
}

function searched(kind: SearchKind, ctx: CompletionContext): Promise<AutocompleteChoice[]> {
  return nameSearchOf(ctx.services).suggest(kind, ctx.typed, askerOf(ctx));
}

/**
 * Skin names whose value is the index. A typed index that no known skin matches is still offered, so a
 * skin option works before the skin list has loaded.
 */
export function skinChoices(
  t: Translator,
  names: Pick<NameIndex, 'suggestSkins'>,
  // Discord sends what was typed so far; typed as a string, but an integer option may come as a number.
  query: string | number,
): AutocompleteChoice[] {
  const trimmed = String(query).trim();
  const choices: AutocompleteChoice[] = names.suggestSkins(trimmed, CHOICES);
  if (/^\d{1,15}$/.test(trimmed)) {
    const index = Number(trimmed);
    if (!choices.some((choice) => choice.value === index)) {
      choices.unshift({ name: unknownName(t, 'skin', index), value: index });
    }
  }
  return choices
    .slice(0, CHOICES)
    .map((choice) => ({ name: truncate(choice.name, 100), value: choice.value }));
}
