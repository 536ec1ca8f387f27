import { apiMessage } from '../api-shapes.ts';
import type { RequestBody } from '../body.ts';
import type { CommandStore } from '../commands.ts';
import { InteractionKind } from '../constants.ts';
import { RestError } from '../errors.ts';
import type { Gateway } from '../gateway.ts';
import { Latch } from '../latch.ts';
import { snapshot } from '../messages.ts';
import { nextSnowflake, randomToken } from '../snowflake.ts';
import type { DiscordState } from '../state.ts';
import type {
  AutocompleteOptions,
  ComponentOptions,
  InvokeCommandOptions,
  MessageRecord,
  ModalSubmitOptions,
  PendingInteraction,
} from '../types.ts';
import { answerCallback } from './callbacks.ts';
import { commandData, countFocused } from './commands.ts';
import { buttonData, findOnMessage, selectData } from './components.ts';
import { interactionContext } from './context.ts';
import type { InteractionContext, InteractionState } from './interaction.ts';
import { modalComponents } from './modals.ts';
import { deleteOwnMessage, editOwnMessage, followUp, ownMessage } from './webhooks.ts';

const webhookLifetimeMs = 15 * 60 * 1000;
const defaultWaitMs = 10_000;

export interface InteractionHubOptions {
  world: DiscordState;
  gateway: Gateway;
  commands: CommandStore;
  /** How long an interaction accepts its first callback (Discord: 3 s). */
  timeoutMs: number;
}

/** Users invoking the bot (INTERACTION_CREATE over the gateway) and the bot answering (callbacks, webhooks). */
export class InteractionHub {
  readonly #world: DiscordState;
  readonly #gateway: Gateway;
  readonly #commands: CommandStore;
  readonly #timeoutMs: number;
  readonly #byId = new Map<string, InteractionState>();
  readonly #byToken = new Map<string, InteractionState>();

  constructor(options: InteractionHubOptions) {
    this.#world = options.world;
    this.#gateway = options.gateway;
    this.#commands = options.commands;
    this.#timeoutMs = options.timeoutMs;
  }

  close(): void {
    const error = new Error('the Discord stand-in closed');
    for (const state of this.#byId.values()) {
      state.response.cancel(error);
      state.final.cancel(error);
    }
  }

  // --- users -----------------------------------------------------------------------------------

  invokeCommand(opts: InvokeCommandOptions): PendingInteraction {
    return this.#command(InteractionKind.ApplicationCommand, opts, opts.options ?? []);
  }

  autocomplete(opts: AutocompleteOptions): PendingInteraction {
    if (countFocused(opts.options) !== 1)
      throw new Error('autocomplete needs exactly one option with focused: true');
    return this.#command(InteractionKind.Autocomplete, opts, opts.options);
  }

  clickButton(message: MessageRecord, customId: string, opts: ComponentOptions = {}): PendingInteraction {
    const { record, component } = findOnMessage(this.#world, message, customId);
    return this.#componentInteraction(record, buttonData(component, customId), opts);
  }

  selectMenu(
    message: MessageRecord,
    customId: string,
    values: string[],
    opts: ComponentOptions = {},
  ): PendingInteraction {
    const { record, component } = findOnMessage(this.#world, message, customId);
    return this.#componentInteraction(
      record,
      selectData(this.#world, record, component, customId, values),
      opts,
    );
  }

  submitModal(
    customId: string,
    fields: Record<string, string>,
    opts: ModalSubmitOptions = {},
  ): PendingInteraction {
    const from = opts.from ? this.#byId.get(opts.from.id) : undefined;
    if (opts.from && !from) throw new Error('submitModal: unknown `from` interaction');
    const components = modalComponents(from, customId, fields);
    const guildId = from ? from.guildId : opts.guildId;
    const channelId = from ? from.channelId : opts.channelId;
    const user = opts.user ?? (from ? { id: from.userId } : undefined);
    const context = interactionContext(this.#world, { ...opts, user, guildId, channelId });
    const source = from?.sourceMessageId ? this.#world.messages.get(from.sourceMessageId) : undefined;
    return this.#dispatch(
      context,
      InteractionKind.ModalSubmit,
      { custom_id: customId, components },
      {
        sourceMessage: source ?? null,
        commandName: null,
        commandType: null,
      },
    );
  }

  #command(type: number, opts: InvokeCommandOptions, options: readonly unknown[]): PendingInteraction {
    const context = interactionContext(this.#world, opts);
    const data = commandData(this.#world, this.#commands, context, opts, options);
    return this.#dispatch(context, type, data, {
      sourceMessage: null,
      commandName: opts.name,
      commandType: 1,
    });
  }

  #componentInteraction(
    record: MessageRecord,
    data: Record<string, unknown>,
    opts: ComponentOptions,
  ): PendingInteraction {
    const invoker = this.#world.messageInteractions.get(record.id)?.userId;
    const user = opts.user ?? (invoker === undefined ? undefined : { id: invoker });
    const context = interactionContext(this.#world, {
      ...opts,
      user,
      guildId: record.guildId,
      channelId: record.channelId,
    });
    return this.#dispatch(context, InteractionKind.MessageComponent, data, {
      sourceMessage: record,
      commandName: null,
      commandType: null,
    });
  }

  #dispatch(
    context: InteractionContext,
    type: number,
    data: Record<string, unknown>,
    extra: { sourceMessage: MessageRecord | null; commandName: string | null; commandType: number | null },
  ): PendingInteraction {
    const guildId = context.guild?.id ?? null;
    if (!this.#gateway.hasSessionFor(guildId)) {
      throw new Error('no gateway session would receive this interaction: log a discord.js client in first');
    }
    const id = nextSnowflake();
    const token = Buffer.from(`interaction:${id}:${randomToken(32)}`).toString('base64url');
    const payload: Record<string, unknown> = { id, token, type, ...context.base, data };
    if (extra.sourceMessage) payload.message = apiMessage(this.#world, extra.sourceMessage);
    const state: InteractionState = {
      id,
      token,
      type,
      payload,
      guildId,
      channelId: context.channel.id,
      userId: context.user.id,
      commandName: extra.commandName,
      commandType: extra.commandType,
      sourceMessageId: extra.sourceMessage?.id ?? null,
      dispatchedAt: this.#world.now(),
      callback: null,
      originalMessageId: null,
      awaitingEdit: false,
      modal: null,
      followUpIds: [],
      response: new Latch(),
      final: new Latch(),
    };
    this.#byId.set(id, state);
    this.#byToken.set(token, state);
    this.#gateway.dispatch(guildId, 'INTERACTION_CREATE', payload);
    return this.#pending(state);
  }

  #pending(state: InteractionState): PendingInteraction {
    const world = this.#world;
    return {
      id: state.id,
      token: state.token,
      type: state.type,
      payload: state.payload,
      response: (timeoutMs = defaultWaitMs) =>
        state.response.wait(timeoutMs, `interaction ${state.id}'s callback`),
      final: (timeoutMs = defaultWaitMs) =>
        state.final.wait(timeoutMs, `interaction ${state.id}'s final message`),
      followUps: () =>
        state.followUpIds.flatMap((id) => {
          const m = world.messages.get(id);
          return m ? [snapshot(m)] : [];
        }),
    };
  }

  // --- the bot answering ---------------------------------------------------------------------

  /** POST /interactions/{id}/{token}/callback. Returns the `with_response` body, or undefined for 204. */
  callback(
    id: string,
    token: string,
    body: RequestBody,
    withResponse: boolean,
  ): Record<string, unknown> | undefined {
    const state = this.#byId.get(id);
    if (state?.token !== token) throw new RestError(404, 10062);
    if (state.callback) throw new RestError(400, 40060);
    const now = this.#world.now();
    if (now - state.dispatchedAt > this.#timeoutMs) throw new RestError(404, 10062);
    return answerCallback(this.#world, this.#gateway, state, now, body, withResponse);
  }

  #webhookState(applicationId: string, token: string): InteractionState {
    const state = this.#byToken.get(token);
    if (!state || this.#world.now() - state.dispatchedAt > webhookLifetimeMs) throw new RestError(401, 50027);
    if (applicationId !== this.#world.identity.applicationId) throw new RestError(404, 10015);
    if (!state.callback) throw new RestError(404, 10015);
    return state;
  }

  webhookGet(applicationId: string, token: string, messageId: string): Record<string, unknown> {
    const state = this.#webhookState(applicationId, token);
    return apiMessage(this.#world, ownMessage(this.#world, state, messageId));
  }

  webhookEdit(
    applicationId: string,
    token: string,
    messageId: string,
    body: RequestBody,
  ): Record<string, unknown> {
    const state = this.#webhookState(applicationId, token);
    return editOwnMessage(this.#world, this.#gateway, state, messageId, body);
  }

  webhookDelete(applicationId: string, token: string, messageId: string): void {
    const state = this.#webhookState(applicationId, token);
    deleteOwnMessage(this.#world, this.#gateway, state, messageId);
  }

  /** POST /webhooks/{app}/{token}: a follow-up; the first one after a deferred reply fills the placeholder. */
  webhookFollowUp(applicationId: string, token: string, body: RequestBody): Record<string, unknown> {
    const state = this.#webhookState(applicationId, token);
    return followUp(this.#world, this.#gateway, state, body);
  }
}
