import { ApplicationCommandOptionType } from 'discord.js';
import { invokedOptions, type SubcommandReader } from './args.ts';
import {
  COMPLETION_KINDS,
  type Completer,
  type CommandSpec,
  type Completion,
  type CompletionKind,
  type OptionSpec,
} from './spec.ts';

/**
 * Autocomplete declared on the option: each option that Discord completes says how (`autocomplete: 'player'`,
 * or its own completer), and the router finds the focused option in the command's definition and asks that
 * completer. A command never switches on the focused option's name.
 */

/** One completer per kind, handed to the router by the composition root (`src/search/completers.ts`). */
export type Completers = Readonly<Record<CompletionKind, Completer>>;

/** What the router reads of an autocomplete interaction's options. */
export interface FocusReader extends SubcommandReader {
  // Typed a string by discord.js; what Discord sends for an integer option may be a number.
  getFocused(all: true): { readonly name: string; readonly value: string | number };
}

/**
 * The focused option's completion (as its definition declares it) and what was typed so far; undefined
 * when the definition has no such option or declares no completion (a stale deployed definition).
 */
export function focusedCompletion(
  data: CommandSpec,
  options: FocusReader,
): { readonly completion: Completion; readonly typed: string } | undefined {
  const focused = options.getFocused(true);
  const spec = invokedOptions(options, data).specs.find((option) => option.name === focused.name);
  const completion = spec && 'autocomplete' in spec ? spec.autocomplete : undefined;
  return completion === undefined ? undefined : { completion, typed: String(focused.value) };
}

/** The completer of a completion: the option's own, or the one the router holds for its kind. */
export function completerOf(completion: Completion, completers: Partial<Completers>): Completer | undefined {
  return typeof completion === 'function' ? completion : completers[completion];
}

const COMPLETABLE: readonly ApplicationCommandOptionType[] = [
  ApplicationCommandOptionType.String,
  ApplicationCommandOptionType.Integer,
  ApplicationCommandOptionType.Number,
];

/**
 * What is wrong with the completions a definition declares (empty when nothing is): a kind nobody
 * completes, a completion on an option type Discord does not complete, or beside fixed choices. The
 * loader refuses such a command, so a typo in a kind fails at start-up, not at the first keystroke.
 */
export function completionProblems(data: CommandSpec): string[] {
  const problems: string[] = [];
  const visit = (options: readonly OptionSpec[], path: string): void => {
    for (const option of options) {
      const at = `${path}${option.name}`;
      if (option.options) visit(option.options, `${at}.`);
      const completion = 'autocomplete' in option ? (option.autocomplete as unknown) : undefined;
      if (completion === undefined) continue;
      if (
        typeof completion !== 'function' &&
        !(COMPLETION_KINDS as readonly unknown[]).includes(completion)
      ) {
        problems.push(`option ${at} completes an unknown kind ${JSON.stringify(completion)}`);
      }
      if (!COMPLETABLE.includes(option.type))
        problems.push(`option ${at} of type ${option.type} cannot complete`);
      if (option.choices !== undefined) problems.push(`option ${at} has both choices and autocomplete`);
    }
  };
  visit(data.options ?? [], '');
  return problems;
}
