import { unrefSleep } from '../core/clock.ts';
import { randomUUID } from 'node:crypto';
import type { AutocompleteInteraction, Interaction } from 'discord.js';
import type { Clock } from '../core/clock.ts';
import { ApiError } from '../api/errors.ts';
import { pickLocale, type Translator } from '../i18n/index.ts';
import { renderError } from '../render/errors.ts';
import { callWithFallback, KeyRefusals, type AnswerSource } from '../api/fallback.ts';
import { withSourceNote } from '../render/source.ts';
import type { ReplyPayload } from '../render/payload.ts';
import type { Logger } from 'pino';
import { truncate } from '../render/text.ts';
import { isStoreError } from '../store/index.ts';
import type { CommandKind, CommandOutcome, CommandRecorder } from '../metrics/recorders.ts';
import type { AutocompleteChoice, Command, CommandContext, CompletionContext, Loader } from './command.ts';
import { completerOf, focusedCompletion, type Completers } from './completion.ts';
import type { Services } from '../services.ts';
import { readArgs } from './args.ts';
import { decodeComponentId, DID_YOU_MEAN_ACTION } from './component-id.ts';
import { Responder, type AnswerableInteraction } from './responder.ts';
import { NoticePacer, QueueNotice } from './queue-notice.ts';
import { UserError } from '../core/user-error.ts';

export interface RouterOptions {
  /** The completer of each kind of name an option may declare (`autocomplete: 'player'`). */
  readonly completers: Partial<Completers>;
  /**
   * An interaction still unanswered after this long is deferred, whatever its handler waits for (Discord
   * gives 3 s for the first response); autocomplete answers no choices then. Default 1500.
   */
  readonly deferAfterMs?: number;
  /** How long `load` looks for a cached answer before it defers and calls the API. Default 500. */
  readonly peekTimeoutMs?: number;
  /** Waits for those timers (a manual clock in tests); unref'd timers by default. */
  readonly sleep?: Clock['sleep'];
  /** Told the command, kind, outcome and duration of every interaction handled (`/metrics`). */
  readonly metrics?: CommandRecorder;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Routes every interaction to its command's handler and makes sure each one is answered: errors
 * become localized ephemeral replies, unexpected ones carry an incident id that is also logged.
 */
export class InteractionRouter {
  readonly #commands: ReadonlyMap<string, Command>;
  readonly #services: Services;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #deferAfterMs: number;
  readonly #peekTimeoutMs: number;
  readonly #sleep: Clock['sleep'];
  readonly #metrics: CommandRecorder | undefined;
  readonly #completers: Partial<Completers>;
  /** Bounds the queue notices' edits, all commands together. */
  readonly #pacer = new NoticePacer();
  /** A configured key the service refused lately: the routes the game tier can answer skip it a while. */
  readonly #keyRefusals: KeyRefusals;
  #closing = false;

  constructor(commands: readonly Command[], services: Services, options: RouterOptions) {
    this.#commands = new Map(commands.map((command) => [command.data.name, command]));
    this.#services = services;
    this.#deferAfterMs = options.deferAfterMs ?? 1_500;
    this.#peekTimeoutMs = options.peekTimeoutMs ?? 500;
    this.#sleep = options.sleep ?? unrefSleep;
    this.#metrics = options.metrics;
    this.#completers = options.completers;
    this.#keyRefusals = new KeyRefusals(services.clock);
  }

  /** `work`, or {@link TIMED_OUT} once `ms` have passed first (`work` then goes on unheard). */
  async #within<T>(ms: number, work: Promise<T>): Promise<T | typeof TIMED_OUT> {
    const timer = new AbortController();
    const timeout = this.#sleep(ms, timer.signal).then(
      (): typeof TIMED_OUT => TIMED_OUT,
      () => new Promise<never>(() => undefined),
    );
    try {
      return await Promise.race([work, timeout]);
    } finally {
      timer.abort();
    }
  }

  /** The `interactionCreate` listener. Never throws. */
  readonly handle = (interaction: Interaction): void => {
    const work = this.#dispatch(interaction).finally(() => this.#inFlight.delete(work));
    this.#inFlight.add(work);
  };

  /** Stops taking new interactions and waits (bounded) for those in flight to be answered. */
  async drain(timeoutMs: number): Promise<void> {
    this.#closing = true;
    const all = Promise.allSettled([...this.#inFlight]);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  async #dispatch(interaction: Interaction): Promise<void> {
    const services = this.#services;
    const t = services.translations.for(pickLocale(interaction.locale, interaction.guildLocale));
    const now = services.clock.now();
    const log = services.log.child({ interaction: interaction.id });
    if (interaction.isAutocomplete()) return this.#autocomplete(interaction, t, now, log);
    const answerable: AnswerableInteraction | undefined =
      interaction.isChatInputCommand() ||
      interaction.isButton() ||
      interaction.isStringSelectMenu() ||
      interaction.isModalSubmit()
        ? interaction
        : undefined;
    if (!answerable) return;
    const responder = new Responder(answerable, { replies: opensReply(answerable) });
    const watchdog = this.#watch(responder, log);
    // The command the interaction was for, once known: its name is the label, never what the user sent.
    const handled: { command?: Command | undefined } = {};
    let outcome: CommandOutcome = 'ok';
    try {
      if (this.#closing) throw new UserError('common:errors.restarting');
      const notice = () => this.#notice(answerable, responder, t, now, log);
      const context = { services, t, now, ...this.#loader(responder, log, t, notice) };
      await this.#run(answerable, context, handled, log);
      if (!responder.answered) throw new Error('handler finished without answering');
    } catch (error) {
      outcome = outcomeOf(error);
      await this.#fail(responder, this.#shown(error, t, log), log);
    } finally {
      watchdog.abort();
      this.#record(handled.command, kindOf(answerable), outcome, now);
    }
  }

  /** Autocomplete: the command's choices within the time Discord gives, none when too slow or failing. */
  async #autocomplete(
    interaction: AutocompleteInteraction,
    t: Translator,
    now: number,
    log: Logger,
  ): Promise<void> {
    const services = this.#services;
    const command = this.#commands.get(interaction.commandName);
    let outcome: CommandOutcome = 'ok';
    try {
      const found = command
        ? await this.#within(this.#deferAfterMs, this.#complete(command, { interaction, services, t, now }))
        : [];
      if (found === TIMED_OUT) {
        log.warn({ command: interaction.commandName }, 'autocomplete too slow');
        outcome = 'timeout';
      }
      const choices = found === TIMED_OUT ? [] : found;
      await interaction.respond(
        choices.slice(0, 25).map((c) => ({ name: truncate(c.name, 100), value: c.value })),
      );
    } catch (error) {
      log.warn({ err: error, command: interaction.commandName }, 'autocomplete failed');
      outcome = 'failed';
      await interaction.respond([]).catch(() => undefined);
    }
    this.#record(command, 'autocomplete', outcome, now);
  }

  /**
   * Whatever the handler waits for (a store that hangs, a slow lookup), Discord gets its first response
   * in time: an interaction still unanswered after `deferAfterMs` is deferred. Aborted once handled.
   */
  #watch(responder: Responder, log: Logger): AbortController {
    const watchdog = new AbortController();
    void this.#sleep(this.#deferAfterMs, watchdog.signal).then(
      () => {
        if (responder.answered || responder.deferred || responder.responding || responder.showingModal)
          return;
        log.debug('deferring a slow handler');
        responder.defer().catch((error: unknown) => log.warn({ err: error }, 'could not defer'));
      },
      () => undefined,
    );
    return watchdog;
  }

  /** Calls the handler the interaction is for: a slash command's `execute`, or a component's or modal's. */
  async #run(
    answerable: AnswerableInteraction,
    context: Omit<CommandContext, 'interaction' | 'args'>,
    handled: { command?: Command | undefined },
    log: Logger,
  ): Promise<void> {
    if (answerable.isChatInputCommand()) {
      const command = this.#commands.get(answerable.commandName);
      handled.command = command;
      if (!command) throw new UserError('common:errors.unknownCommand');
      log.debug({ command: answerable.commandName, sub: answerable.options.getSubcommand(false) }, 'command');
      const args = readArgs(answerable.options, command.data);
      await command.execute({ interaction: answerable, ...context, args });
      return;
    }
    const id = decodeComponentId(answerable.customId);
    const command = id && this.#commands.get(id.command);
    handled.command = command;
    if (!id || !command) throw new UserError('common:errors.unknownComponent');
    if (id.expiresAt <= context.now) throw new UserError('common:errors.expired');
    if (answerable.isModalSubmit()) {
      if (!command.modal) throw new UserError('common:errors.unknownComponent');
      await command.modal({ interaction: answerable, ...context, id });
    } else if (answerable.isButton() || answerable.isStringSelectMenu()) {
      if (!command.component) throw new UserError('common:errors.unknownComponent');
      await command.component({ interaction: answerable, ...context, id });
    }
  }

  /** The reply a failure gets; an unexpected one is logged with an incident id the reply shows too. */
  #shown(error: unknown, t: Translator, log: Logger): ReplyPayload {
    const incident = randomUUID().slice(0, 8);
    let shown = error;
    if (isStoreError(error)) {
      log.warn({ err: error }, 'interaction failed: the store is not answering');
      shown = new UserError('common:errors.storeDown');
    } else if (!(error instanceof UserError) && !(error instanceof ApiError)) {
      log.error({ err: error, incident }, 'interaction failed');
    } else {
      log.debug({ err: error }, 'interaction refused');
    }
    return renderError(shown, t, incident);
  }

  /**
   * The choices of the focused option, from the completer its definition declares: its kind's (one for
   * every command) or its own. An option that declares none (a stale deployed definition) gets none; a
   * kind this router holds no completer for is a bug, refused as a failure.
   */
  async #complete(
    command: Command,
    context: Omit<CompletionContext, 'typed'>,
  ): Promise<readonly AutocompleteChoice[]> {
    const focused = focusedCompletion(command.data, context.interaction.options);
    if (!focused) return [];
    const completer = completerOf(focused.completion, this.#completers);
    if (!completer) throw new Error(`no completer for the kind ${String(focused.completion)}`);
    return completer({ ...context, typed: focused.typed });
  }

  #record(command: Command | undefined, kind: CommandKind, outcome: CommandOutcome, started: number): void {
    const seconds = (this.#services.clock.now() - started) / 1000;
    this.#metrics?.command(command?.data.name ?? 'unknown', kind, outcome, seconds);
  }

  async #fail(responder: Responder, payload: ReplyPayload, log: Services['log']): Promise<void> {
    try {
      await responder.fail(payload);
    } catch (error) {
      log.warn({ err: error }, 'could not send the error reply');
    }
  }

  /** The interaction's place in the queue for the game API, shown in its deferred reply while it waits. */
  #notice(
    interaction: AnswerableInteraction,
    responder: Responder,
    t: Translator,
    receivedAt: number,
    log: Logger,
  ): QueueNotice {
    return new QueueNotice({
      clock: this.#services.clock,
      t,
      show: (payload) => responder.progress(payload),
      pacer: this.#pacer,
      receivedAt,
      owner: { guild: interaction.guildId, user: interaction.user.id },
      onError: (error) => log.debug({ err: error }, 'could not show the queue position'),
    });
  }

  #loader(responder: Responder, log: Services['log'], t: Translator, makeNotice: () => QueueNotice): Loader {
    const api = this.#services.api;
    // Which tier answered this interaction's calls: a reply the game tier stood in for says so.
    const sources = new Set<AnswerSource>();
    // A cached answer spares the defer, but only if the store gives it quickly; else it is a miss. What
    // the process memory holds is known at once: no timer for that (most peeks of a busy bot).
    const peek = async (...args: Parameters<typeof api.peek>): Promise<unknown> => {
      try {
        const known = api.peekMemory(...args);
        if (known) return known.value;
        const found = await this.#within(this.#peekTimeoutMs, api.peek(...args));
        return found === TIMED_OUT ? undefined : found;
      } catch (error) {
        log.debug({ err: error }, 'cache peek failed');
        return undefined;
      }
    };
    // Made at the first call that misses the cache: most interactions never wait for the game API.
    let notice: QueueNotice | undefined;
    return {
      responder,
      defer: (options) => responder.defer(options),
      send: (payload) => {
        notice?.close();
        return responder.send(withSourceNote(payload, t, sources));
      },
      load: async (name, params, options = {}) => {
        const { slow, ...credentials } = options;
        if (!responder.deferred && !responder.answered) {
          const cached = slow || credentials.token ? undefined : await peek(name, params);
          if (cached !== undefined) return cached as never;
          await responder.defer();
        }
        // A miss waits its turn in the fair queue while its answer can still come before the token ends.
        notice ??= makeNotice();
        const { done, ...queued } = notice.callOptions();
        try {
          const call: typeof api.call = (...args) => api.call(...args);
          const answered = await callWithFallback(
            call,
            name,
            params,
            { ...credentials, priority: 'interactive', ...queued },
            this.#keyRefusals,
          );
          sources.add(answered.source);
          return answered.value;
        } finally {
          done();
        }
      },
    };
  }
}

/** A "did you mean" button: its answer is a reply of its own, not an update of the message it sits on. */
function opensReply(interaction: AnswerableInteraction): boolean {
  return interaction.isButton() && decodeComponentId(interaction.customId)?.action === DID_YOU_MEAN_ACTION;
}

function outcomeOf(error: unknown): CommandOutcome {
  if (isStoreError(error)) return 'store_down';
  if (error instanceof UserError) return 'user_error';
  return error instanceof ApiError ? 'api_error' : 'failed';
}

function kindOf(interaction: AnswerableInteraction): CommandKind {
  if (interaction.isChatInputCommand()) return 'command';
  return interaction.isModalSubmit() ? 'modal' : 'component';
}
