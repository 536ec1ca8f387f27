import type {
  APIApplicationCommandOption,
  AutocompleteInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Translator } from '../i18n/index.ts';
import type { Services } from '../services.ts';

/** A command's definition as a command module writes it; `args.ts` derives its handler's arguments from it. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The kinds of name the router completes for every command, one completer each (handed to the router by
 * the composition root: `src/search/completers.ts`). An option names its kind, `autocomplete: 'player'`,
 * instead of its command switching on the focused option.
 */
export const COMPLETION_KINDS = ['player', 'clan', 'map', 'mod', 'skin'] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];

export interface AutocompleteChoice {
  readonly name: string;
  readonly value: string | number;
}

/** What a completer is given: the interaction, and what was typed so far in the focused option. */
export interface CompletionContext {
  readonly interaction: AutocompleteInteraction;
  readonly services: Services;
  /** The reader's language: the user's locale, then the guild's, then en-US. */
  readonly t: Translator;
  readonly now: number;
  readonly typed: string;
}

/** Choices for the focused option; the router bounds the wait and cuts them to Discord's limits. */
export type Completer = (context: CompletionContext) => Promise<readonly AutocompleteChoice[]>;

/**
 * How an option is completed: a kind the router knows (a name of the game), or the option's own completer
 * (the records of a server: a subscription, a tracked player, a role rule). Sent to Discord as `true`.
 */
export type Completion = CompletionKind | Completer;

/** An option type that Discord lets autocomplete (string, integer, number) gets a {@link Completion}. */
type Completable<T> = T extends unknown
  ? 'autocomplete' extends keyof T
    ? Omit<T, 'autocomplete'> & { readonly autocomplete?: Completion }
    : T
  : never;

/**
 * An option as written in a command module: its canonical name, type and bounds. Descriptions and the
 * names of choices come from the locale files (see `localize.ts`), so they are not written here.
 */
export type OptionSpec = Completable<
  DistributiveOmit<APIApplicationCommandOption, 'description' | 'options' | 'choices'>
> & {
  readonly options?: readonly OptionSpec[];
  readonly choices?: ReadonlyArray<{ readonly value: string | number }>;
};

export interface CommandSpec extends Omit<
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  'description' | 'options' | 'name'
> {
  readonly name: string;
  readonly options?: readonly OptionSpec[];
}
