import type {
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  ButtonInteraction,
  ChatInputCommandInteraction,
  ModalSubmitInteraction,
  StringSelectMenuInteraction,
} from 'discord.js';
import type { CallOptions, ResultOf, RouteName, Routes } from '../api/client.ts';
import type { CommandSpec } from './spec.ts';
import type { ParamsOf } from '../api/route.ts';
import type { Translator } from '../i18n/index.ts';
import type { ReplyPayload } from '../render/payload.ts';
import type { Services } from '../services.ts';
import type { ArgsOf } from './args.ts';
import type { ComponentId } from './component-id.ts';
import type { Responder } from './responder.ts';

interface BaseContext {
  readonly services: Services;
  /** The reader's language: the user's locale, then the guild's, then en-US. */
  readonly t: Translator;
  readonly now: number;
}

export interface Loader {
  /**
   * Calls a route of the tier client for this interaction. When the answer is not already cached, the
   * interaction is deferred first (Discord gives 3 s for the first response); `slow` routes always defer.
   */
  load<N extends RouteName>(
    name: N,
    params: ParamsOf<Routes[N]>,
    options?: { readonly slow?: boolean } & Pick<CallOptions, 'apiKey' | 'token'>,
  ): Promise<ResultOf<Routes[N]>>;
  /** Defers now (e.g. before work that is not a tier call). */
  defer(options?: { readonly ephemeral?: boolean }): Promise<void>;
  /** The answer: a reply, the edit of the deferred reply, or the update of the clicked message. */
  send(payload: ReplyPayload): Promise<void>;
  readonly responder: Responder;
}

/** `Args`: the command's arguments, `ArgsOf<typeof data>` (see `args.ts`); unknown for a loose command. */
export interface CommandContext<Args = unknown> extends BaseContext, Loader {
  readonly interaction: ChatInputCommandInteraction;
  /** The options of the invoked subcommand, read by the router as the definition types them. */
  readonly args: Args;
}

export interface ComponentContext extends BaseContext, Loader {
  readonly interaction: ButtonInteraction | StringSelectMenuInteraction;
  readonly id: ComponentId;
}

export interface ModalContext extends BaseContext, Loader {
  readonly interaction: ModalSubmitInteraction;
  readonly id: ComponentId;
}

/**
 * One top-level slash command: its definition and its handlers (a module in `commands/`). Written
 * `Command<typeof data>` with `data` declared `as const satisfies CommandSpec`, `execute` gets its
 * options typed from the definition. Autocomplete is no handler: each option declares its completion
 * (`spec.ts`, `completion.ts`) and the router dispatches it.
 */
export interface Command<D extends CommandSpec = CommandSpec> {
  /** Canonical (en-US) names and the shape; words come from `locales/<locale>/<namespace>.json`. */
  readonly data: D;
  /** The i18n namespace (the file name in `locales/<locale>/`); defaults to the command name. */
  readonly namespace?: string;
  execute(context: CommandContext<ArgsOf<D>>): Promise<void>;
  /** Buttons and select menus whose custom id starts with this command's name. */
  component?(context: ComponentContext): Promise<void>;
  modal?(context: ModalContext): Promise<void>;
}

/** A command as loaded: its definition completed and localized, ready for Discord. */
export interface LoadedCommand extends Command {
  readonly json: RESTPostAPIChatInputApplicationCommandsJSONBody;
}

export type {
  AutocompleteChoice,
  CommandSpec,
  Completer,
  CompletionContext,
  CompletionKind,
  OptionSpec,
} from './spec.ts';
