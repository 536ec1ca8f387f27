import { randomUUID } from 'node:crypto';
import type { Interaction } from 'discord.js';
import { ApiError } from '../api/errors.ts';
import { pickLocale } from '../i18n/index.ts';
import { renderError } from '../render/errors.ts';
import type { ReplyPayload } from '../render/payload.ts';
import type { Command, Loader, Services } from './command.ts';
import { decodeComponentId } from './component-id.ts';
import { Responder, type AnswerableInteraction } from './responder.ts';
import { UserError } from './user-error.ts';

/**
 * Routes every interaction to its command's handler and makes sure each one is answered: errors
 * become localized ephemeral replies, unexpected ones carry an incident id that is also logged.
 */
export class InteractionRouter {
  readonly #commands: ReadonlyMap<string, Command>;
  readonly #services: Services;
  readonly #inFlight = new Set<Promise<void>>();
  #closing = false;

  constructor(commands: readonly Command[], services: Services) {
    this.#commands = new Map(commands.map((command) => [command.data.name, command]));
    this.#services = services;
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

    if (interaction.isAutocomplete()) {
      const command = this.#commands.get(interaction.commandName);
      try {
        const choices = command?.autocomplete
          ? await command.autocomplete({ interaction, services, t, now })
          : [];
        await interaction.respond(
          choices.slice(0, 25).map((c) => ({ name: c.name.slice(0, 100), value: c.value })),
        );
      } catch (error) {
        log.warn({ err: error, command: interaction.commandName }, 'autocomplete failed');
        await interaction.respond([]).catch(() => undefined);
      }
      return;
    }
    const answerable: AnswerableInteraction | undefined =
      interaction.isChatInputCommand() ||
      interaction.isButton() ||
      interaction.isStringSelectMenu() ||
      interaction.isModalSubmit()
        ? interaction
        : undefined;
    if (!answerable) return;
    const responder = new Responder(answerable);
    const loader = this.#loader(responder);

    try {
      if (this.#closing) throw new UserError('common:errors.restarting');
      if (answerable.isChatInputCommand()) {
        const command = this.#commands.get(answerable.commandName);
        if (!command) throw new UserError('common:errors.unknownCommand');
        log.debug(
          { command: answerable.commandName, sub: answerable.options.getSubcommand(false) },
          'command',
        );
        await command.execute({ interaction: answerable, services, t, now, ...loader });
      } else {
        const id = decodeComponentId(answerable.customId);
        const command = id && this.#commands.get(id.command);
        if (!id || !command) throw new UserError('common:errors.unknownComponent');
        if (id.expiresAt <= now) throw new UserError('common:errors.expired');
        if (answerable.isModalSubmit()) {
          if (!command.modal) throw new UserError('common:errors.unknownComponent');
          await command.modal({ interaction: answerable, services, t, now, id, ...loader });
        } else if (answerable.isButton() || answerable.isStringSelectMenu()) {
          if (!command.component) throw new UserError('common:errors.unknownComponent');
          await command.component({ interaction: answerable, services, t, now, id, ...loader });
        }
      }
      if (!responder.answered) throw new Error('handler finished without answering');
    } catch (error) {
      const incident = randomUUID().slice(0, 8);
      if (!(error instanceof UserError) && !(error instanceof ApiError)) {
        log.error({ err: error, incident }, 'interaction failed');
      } else {
        log.debug({ err: error }, 'interaction refused');
      }
      await this.#fail(responder, renderError(error, t, incident), log);
    }
  }

  async #fail(responder: Responder, payload: ReplyPayload, log: Services['log']): Promise<void> {
    try {
      await responder.fail(payload);
    } catch (error) {
      log.warn({ err: error }, 'could not send the error reply');
    }
  }

  #loader(responder: Responder): Loader {
    const api = this.#services.api;
    return {
      responder,
      defer: (options) => responder.defer(options),
      send: (payload) => responder.send(payload),
      load: async (name, params, options = {}) => {
        const { slow, ...credentials } = options;
        if (!responder.deferred && !responder.answered) {
          const cached = slow || credentials.token ? undefined : await api.peek(name, params);
          if (cached !== undefined) return cached as never;
          await responder.defer();
        }
        return api.call(name, params, { ...credentials, priority: 'interactive' });
      },
    };
  }
}
