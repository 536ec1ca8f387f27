import type { APIApplicationCommandInteractionDataOption } from 'discord.js';
import type { RequestBody } from './body.ts';
import type { CommandStore } from './commands.ts';
import { CallbackType, ChannelKind, ComponentKind, InteractionKind, OptionKind } from './constants.ts';
import { RestError, invalidForm } from './errors.ts';
import type { Gateway } from './gateway.ts';
import { Latch } from './latch.ts';
import {
  announceMessage,
  attachmentSizeLimit,
  createLoadingMessage,
  createMessage,
  editMessage,
  snapshot,
} from './messages.ts';
import { nextSnowflake, randomToken } from './snowflake.ts';
import { isRecord, type ChannelState, type GuildState, type UserState, type World } from './state.ts';
import type {
  AutocompleteOptions,
  ComponentOptions,
  InteractionCallbackRecord,
  InvokeCommandOptions,
  MessageRecord,
  ModalSubmitOptions,
  PendingInteraction,
  InteractionUserOptions,
} from './types.ts';
import {
  MessageFlag,
  modalInputs,
  parseAutocompleteChoices,
  parseMessageBody,
  parseModal,
} from './validate.ts';

const webhookLifetimeMs = 15 * 60 * 1000;
const defaultWaitMs = 10_000;
const selectTypes = new Set<number>([
  ComponentKind.StringSelect,
  ComponentKind.UserSelect,
  ComponentKind.RoleSelect,
  ComponentKind.MentionableSelect,
  ComponentKind.ChannelSelect,
]);

interface InteractionState {
  id: string;
  token: string;
  type: number;
  payload: Record<string, unknown>;
  guildId: string | null;
  channelId: string;
  userId: string;
  commandName: string | null;
  commandType: number | null;
  /** The message a component (or a modal opened from one) belongs to: what 6/7 and @original then edit. */
  sourceMessageId: string | null;
  dispatchedAt: number;
  callback: InteractionCallbackRecord | null;
  originalMessageId: string | null;
  awaitingEdit: boolean;
  modal: { custom_id: string; components: unknown[] } | null;
  followUpIds: string[];
  response: Latch<InteractionCallbackRecord>;
  final: Latch<MessageRecord>;
}

interface Context {
  guild: GuildState | null;
  channel: ChannelState;
  user: UserState;
  base: Record<string, unknown>;
}

export interface InteractionHubOptions {
  world: World;
  gateway: Gateway;
  commands: CommandStore;
  /** How long an interaction accepts its first callback (Discord: 3 s). */
  timeoutMs: number;
}

/** Users invoking the bot (INTERACTION_CREATE over the gateway) and the bot answering (callbacks, webhooks). */
export class InteractionHub {
  readonly #world: World;
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
    const { record, component } = this.#component(message, customId);
    if (component.type !== ComponentKind.Button) throw new Error(`component ${customId} is not a button`);
    return this.#componentInteraction(
      record,
      { custom_id: customId, component_type: ComponentKind.Button },
      opts,
    );
  }

  selectMenu(
    message: MessageRecord,
    customId: string,
    values: string[],
    opts: ComponentOptions = {},
  ): PendingInteraction {
    const { record, component } = this.#component(message, customId);
    const type = Number(component.type);
    if (!selectTypes.has(type)) throw new Error(`component ${customId} is not a select menu`);
    const min = typeof component.min_values === 'number' ? component.min_values : 1;
    const max = typeof component.max_values === 'number' ? component.max_values : 1;
    if (values.length < min || values.length > max) {
      throw new Error(`select ${customId} takes ${min} to ${max} values, got ${values.length}`);
    }
    if (type === ComponentKind.StringSelect) {
      const offered = new Set(
        (Array.isArray(component.options) ? (component.options as unknown[]) : []).map((o) =>
          isRecord(o) ? String(o.value) : '',
        ),
      );
      const unknown = values.filter((v) => !offered.has(v));
      if (unknown.length > 0) throw new Error(`select ${customId} offers no option ${unknown.join(', ')}`);
    }
    const data: Record<string, unknown> = { custom_id: customId, component_type: type, values };
    const resolved =
      type === ComponentKind.StringSelect ? null : this.#resolveIds(record.guildId, values, type);
    if (resolved) data.resolved = resolved;
    return this.#componentInteraction(record, data, opts);
  }

  submitModal(
    customId: string,
    fields: Record<string, string>,
    opts: ModalSubmitOptions = {},
  ): PendingInteraction {
    const from = opts.from ? this.#byId.get(opts.from.id) : undefined;
    if (opts.from && !from) throw new Error('submitModal: unknown `from` interaction');
    let layout = new Map<string, 'label' | 'row'>(Object.keys(fields).map((k) => [k, 'row']));
    if (from) {
      if (from.modal?.custom_id !== customId) {
        throw new Error(`interaction ${from.id} did not show a modal with custom_id ${customId}`);
      }
      layout = modalInputs(from.modal);
      const missing = Object.keys(fields).filter((k) => !layout.has(k));
      if (missing.length > 0) throw new Error(`the modal has no text input ${missing.join(', ')}`);
    }
    const components = Object.entries(fields).map(([id, value]) => {
      const input = { type: ComponentKind.TextInput, custom_id: id, value, id: 0 };
      return layout.get(id) === 'label'
        ? { type: ComponentKind.Label, id: 0, component: input }
        : { type: ComponentKind.ActionRow, id: 0, components: [input] };
    });
    const guildId = from ? from.guildId : opts.guildId;
    const channelId = from ? from.channelId : opts.channelId;
    const user = opts.user ?? (from ? { id: from.userId } : undefined);
    const context = this.#context({ ...opts, user, guildId, channelId });
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
    const context = this.#context(opts);
    const registered = this.#commands.find(opts.name, context.guild?.id ?? null);
    const data: Record<string, unknown> = {
      id: registered?.id ?? nextSnowflake(),
      name: opts.name,
      type: 1,
      ...(registered?.guild_id ? { guild_id: registered.guild_id } : {}),
    };
    if (options.length > 0) data.options = options;
    const resolved = this.#resolve(
      context.guild,
      optionValues(options as APIApplicationCommandInteractionDataOption[]),
    );
    if (resolved) data.resolved = resolved;
    return this.#dispatch(context, type, data, {
      sourceMessage: null,
      commandName: opts.name,
      commandType: 1,
    });
  }

  #component(
    message: MessageRecord,
    customId: string,
  ): { record: MessageRecord; component: Record<string, unknown> } {
    const record = this.#world.messages.get(message.id);
    if (!record) throw new Error(`message ${message.id} is not in the channel (deleted?)`);
    const component = findComponent(record.components, customId);
    if (!component) throw new Error(`message ${message.id} has no component with custom_id ${customId}`);
    if (component.disabled === true) throw new Error(`component ${customId} is disabled: nobody can use it`);
    return { record, component };
  }

  #componentInteraction(
    record: MessageRecord,
    data: Record<string, unknown>,
    opts: ComponentOptions,
  ): PendingInteraction {
    const invoker = this.#world.messageInteractions.get(record.id)?.userId;
    const user = opts.user ?? (invoker === undefined ? undefined : { id: invoker });
    const context = this.#context({ ...opts, user, guildId: record.guildId, channelId: record.channelId });
    return this.#dispatch(context, InteractionKind.MessageComponent, data, {
      sourceMessage: record,
      commandName: null,
      commandType: null,
    });
  }

  #context(
    opts: InteractionUserOptions & { guildId?: string | null | undefined; channelId?: string | undefined },
  ): Context {
    const world = this.#world;
    const user = world.ensureUser(opts.user);
    const guildId = opts.guildId === undefined ? ([...world.guilds.keys()][0] ?? null) : opts.guildId;
    let guild: GuildState | null = null;
    let channel: ChannelState;
    if (guildId === null) {
      if (opts.channelId === undefined) {
        channel = world.dmChannelFor(user.id);
      } else {
        const found = world.channels.get(opts.channelId);
        if (found?.guildId !== null || found.recipientId !== user.id) {
          throw new Error(`channel ${opts.channelId} is not ${user.id}'s DM channel`);
        }
        channel = found;
      }
    } else {
      guild = world.guild(guildId);
      const found =
        opts.channelId === undefined
          ? [...guild.channels.values()].find((c) => c.type === ChannelKind.GuildText)
          : guild.channels.get(opts.channelId);
      if (!found) {
        throw new Error(
          opts.channelId === undefined
            ? `guild ${guildId} has no text channel: addChannel first`
            : `channel ${opts.channelId} is not in guild ${guildId}`,
        );
      }
      channel = found;
      world.ensureMember(guild, user.id, opts.memberRoles);
    }
    const memberPermissions = opts.memberPermissions ?? world.channelPermissions(channel, user.id);
    const appPermissions = opts.appPermissions ?? world.channelPermissions(channel, world.identity.botUserId);
    const base: Record<string, unknown> = {
      application_id: world.identity.applicationId,
      version: 1,
      app_permissions: appPermissions.toString(),
      locale: opts.locale ?? 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': guild ? guild.id : '0' },
      context: guild ? 0 : 1,
      attachment_size_limit: attachmentSizeLimit,
      channel: { ...world.apiChannel(channel), permissions: memberPermissions.toString() },
      channel_id: channel.id,
    };
    if (guild) {
      const member = world.ensureMember(guild, user.id);
      base.guild_id = guild.id;
      base.guild = { id: guild.id, locale: guild.preferredLocale, features: [] };
      base.guild_locale = opts.guildLocale ?? guild.preferredLocale;
      base.member = { ...world.apiMember(guild, member), permissions: memberPermissions.toString() };
    } else {
      base.user = world.apiUser(user);
    }
    return { guild, channel, user, base };
  }

  #dispatch(
    context: Context,
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
    if (extra.sourceMessage) payload.message = this.#world.apiMessage(extra.sourceMessage);
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

  /** `resolved` for the user, role, mentionable and channel ids a command or select carries. */
  #resolve(
    guild: GuildState | null,
    values: ReadonlyArray<{ type: number; value: string }>,
  ): Record<string, unknown> | null {
    const byType = new Map<number, string[]>();
    for (const { type, value } of values) byType.set(type, [...(byType.get(type) ?? []), value]);
    const resolved: Record<string, Record<string, unknown>> = {};
    const add = (key: string, id: string, value: unknown): void => {
      resolved[key] ??= {};
      resolved[key][id] = value;
    };
    const world = this.#world;
    const addUser = (id: string): void => {
      const user = world.users.get(id) ?? world.ensureUser({ id });
      add('users', id, world.apiUser(user));
      const member = guild?.members.get(id);
      if (guild && member) {
        const { user: _user, ...rest } = world.apiMember(guild, member);
        add('members', id, { ...rest, permissions: world.basePermissions(guild, id).toString() });
      }
    };
    const addRole = (id: string): boolean => {
      const role = guild?.roles.get(id);
      if (role) add('roles', id, world.apiRole(role));
      return role !== undefined;
    };
    for (const id of byType.get(OptionKind.User) ?? []) addUser(id);
    for (const id of byType.get(OptionKind.Role) ?? []) {
      if (!addRole(id)) throw new Error(`role option: unknown role ${id}`);
    }
    for (const id of byType.get(OptionKind.Mentionable) ?? []) {
      if (!addRole(id)) addUser(id);
    }
    for (const id of byType.get(OptionKind.Channel) ?? []) {
      const channel = world.channels.get(id);
      if (!channel) throw new Error(`channel option: unknown channel ${id}`);
      add('channels', id, this.#resolvedChannel(channel));
    }
    return Object.keys(resolved).length > 0 ? resolved : null;
  }

  #resolveIds(
    guildId: string | null,
    values: readonly string[],
    type: number,
  ): Record<string, unknown> | null {
    const guild = guildId === null ? null : this.#world.guild(guildId);
    const optionType =
      type === ComponentKind.UserSelect
        ? OptionKind.User
        : type === ComponentKind.RoleSelect
          ? OptionKind.Role
          : type === ComponentKind.ChannelSelect
            ? OptionKind.Channel
            : OptionKind.Mentionable;
    return this.#resolve(
      guild,
      values.map((value) => ({ type: optionType, value })),
    );
  }

  #resolvedChannel(channel: ChannelState): Record<string, unknown> {
    const world = this.#world;
    return {
      id: channel.id,
      name: channel.name,
      type: channel.type,
      permissions: world.channelPermissions(channel, world.identity.botUserId).toString(),
      ...(channel.guildId === null ? {} : { guild_id: channel.guildId }),
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
    const raw = body.json;
    if (!isRecord(raw) || typeof raw.type !== 'number') {
      throw invalidForm([{ path: ['type'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }]);
    }
    const type = raw.type;
    this.#checkCallbackType(state, type);
    const world = this.#world;
    let message: MessageRecord | null = null;
    switch (type) {
      case CallbackType.ChannelMessageWithSource: {
        const data = parseMessageBody(raw.data ?? {});
        message = this.#createReply(state, data, body);
        state.originalMessageId = message.id;
        break;
      }
      case CallbackType.DeferredChannelMessageWithSource: {
        const flags = isRecord(raw.data) && typeof raw.data.flags === 'number' ? raw.data.flags : 0;
        message = createLoadingMessage(world, {
          channelId: state.channelId,
          guildId: state.guildId,
          interactionId: state.id,
          ephemeral: (flags & MessageFlag.Ephemeral) !== 0,
        });
        this.#tagMessage(state, message.id);
        state.originalMessageId = message.id;
        state.awaitingEdit = true;
        break;
      }
      case CallbackType.DeferredMessageUpdate: {
        state.originalMessageId = state.sourceMessageId;
        state.awaitingEdit = true;
        break;
      }
      case CallbackType.UpdateMessage: {
        const data = parseMessageBody(raw.data ?? {});
        const source = state.sourceMessageId === null ? undefined : world.messages.get(state.sourceMessageId);
        if (!source) throw new RestError(404, 10008);
        editMessage(world, source, data, body.files);
        message = source;
        state.originalMessageId = source.id;
        break;
      }
      case CallbackType.AutocompleteResult:
        parseAutocompleteChoices(raw.data);
        break;
      case CallbackType.Modal: {
        const modal = parseModal(raw.data);
        state.modal = { custom_id: modal.custom_id, components: modal.components };
        break;
      }
      default:
        break;
    }
    const record: InteractionCallbackRecord = { type, afterMs: now - state.dispatchedAt };
    if (raw.data !== undefined) record.data = structuredClone(raw.data);
    state.callback = record;
    state.response.resolve(record);
    if (message && type !== CallbackType.DeferredChannelMessageWithSource) {
      state.final.resolve(snapshot(message));
    }
    if (type === CallbackType.AutocompleteResult || type === CallbackType.Modal) {
      state.final.reject(
        new Error(`interaction ${state.id} was answered with callback type ${type}, which shows no message`),
      );
    }
    if (message) {
      announceMessage(
        world,
        this.#gateway,
        type === CallbackType.UpdateMessage ? 'MESSAGE_UPDATE' : 'MESSAGE_CREATE',
        message,
      );
    }
    if (!withResponse) return undefined;
    return {
      interaction: {
        id: state.id,
        type: state.type,
        ...(state.originalMessageId === null
          ? {}
          : {
              response_message_id: state.originalMessageId,
              response_message_loading: type === CallbackType.DeferredChannelMessageWithSource,
              response_message_ephemeral: message ? (message.flags & MessageFlag.Ephemeral) !== 0 : false,
            }),
      },
      resource: { type, ...(message ? { message: world.apiMessage(message) } : {}) },
    };
  }

  #checkCallbackType(state: InteractionState, type: number): void {
    const fromComponent = state.sourceMessageId !== null;
    const allowed: Record<number, boolean> = {
      [CallbackType.ChannelMessageWithSource]: state.type !== InteractionKind.Autocomplete,
      [CallbackType.DeferredChannelMessageWithSource]: state.type !== InteractionKind.Autocomplete,
      [CallbackType.DeferredMessageUpdate]: fromComponent,
      [CallbackType.UpdateMessage]: fromComponent,
      [CallbackType.AutocompleteResult]: state.type === InteractionKind.Autocomplete,
      [CallbackType.Modal]:
        state.type === InteractionKind.ApplicationCommand || state.type === InteractionKind.MessageComponent,
    };
    if (allowed[type] !== true) {
      throw invalidForm([
        {
          path: ['type'],
          code: 'INTERACTION_RESPONSE_TYPE_INVALID',
          message: 'Interaction response type is invalid for this interaction',
        },
      ]);
    }
  }

  #createReply(
    state: InteractionState,
    data: ReturnType<typeof parseMessageBody>,
    body: RequestBody,
  ): MessageRecord {
    const message = createMessage(this.#world, {
      channelId: state.channelId,
      guildId: state.guildId,
      kind: 'reply',
      interactionId: state.id,
      body: { ...data, nonce: null },
      files: body.files,
      extraFlags: MessageFlag.Ephemeral,
    });
    this.#tagMessage(state, message.id);
    return message;
  }

  #tagMessage(state: InteractionState, messageId: string): void {
    this.#world.messageInteractions.set(messageId, {
      interactionId: state.id,
      interactionType: state.type,
      userId: state.userId,
      commandName: state.commandName,
      commandType: state.commandType,
      guildId: state.guildId,
    });
  }

  #webhookState(applicationId: string, token: string): InteractionState {
    const state = this.#byToken.get(token);
    if (!state || this.#world.now() - state.dispatchedAt > webhookLifetimeMs) throw new RestError(401, 50027);
    if (applicationId !== this.#world.identity.applicationId) throw new RestError(404, 10015);
    if (!state.callback) throw new RestError(404, 10015);
    return state;
  }

  #ownMessage(state: InteractionState, messageId: string): MessageRecord {
    const id = messageId === '@original' ? state.originalMessageId : messageId;
    const mine = id !== null && (id === state.originalMessageId || state.followUpIds.includes(id));
    const message = mine ? this.#world.messages.get(id) : undefined;
    if (!message) throw new RestError(404, 10008);
    return message;
  }

  webhookGet(applicationId: string, token: string, messageId: string): Record<string, unknown> {
    const state = this.#webhookState(applicationId, token);
    return this.#world.apiMessage(this.#ownMessage(state, messageId));
  }

  webhookEdit(
    applicationId: string,
    token: string,
    messageId: string,
    body: RequestBody,
  ): Record<string, unknown> {
    const state = this.#webhookState(applicationId, token);
    const message = this.#ownMessage(state, messageId);
    editMessage(this.#world, message, parseMessageBody(body.json ?? {}), body.files);
    if (state.awaitingEdit && message.id === state.originalMessageId) {
      state.awaitingEdit = false;
      state.final.resolve(snapshot(message));
    }
    announceMessage(this.#world, this.#gateway, 'MESSAGE_UPDATE', message);
    return this.#world.apiMessage(message);
  }

  webhookDelete(applicationId: string, token: string, messageId: string): void {
    const state = this.#webhookState(applicationId, token);
    const message = this.#ownMessage(state, messageId);
    this.#world.deleteMessage(message.id);
    if (message.id === state.originalMessageId) {
      // Like Discord: once the "thinking…" placeholder is gone, follow-ups are new messages, and the
      // first of them is what the user sees as the answer.
      state.awaitingEdit = false;
      state.originalMessageId = null;
    }
    announceMessage(this.#world, this.#gateway, 'MESSAGE_DELETE', message);
  }

  /** POST /webhooks/{app}/{token}: a follow-up; the first one after a deferred reply fills the placeholder. */
  webhookFollowUp(applicationId: string, token: string, body: RequestBody): Record<string, unknown> {
    const state = this.#webhookState(applicationId, token);
    const data = parseMessageBody(body.json ?? {});
    const world = this.#world;
    const placeholder =
      state.awaitingEdit && state.callback?.type === CallbackType.DeferredChannelMessageWithSource
        ? this.#ownMessage(state, '@original')
        : null;
    if (placeholder) {
      editMessage(world, placeholder, { ...data, flags: null }, body.files);
      state.awaitingEdit = false;
      state.final.resolve(snapshot(placeholder));
      announceMessage(world, this.#gateway, 'MESSAGE_UPDATE', placeholder);
      return world.apiMessage(placeholder);
    }
    const message = createMessage(world, {
      channelId: state.channelId,
      guildId: state.guildId,
      kind: 'followUp',
      interactionId: state.id,
      body: { ...data, nonce: null },
      files: body.files,
      extraFlags: MessageFlag.Ephemeral,
    });
    this.#tagMessage(state, message.id);
    state.followUpIds.push(message.id);
    if (state.originalMessageId === null) state.final.resolve(snapshot(message));
    announceMessage(world, this.#gateway, 'MESSAGE_CREATE', message);
    return world.apiMessage(message);
  }
}

function optionValues(
  options: readonly APIApplicationCommandInteractionDataOption[],
): Array<{ type: number; value: string }> {
  return options.flatMap((option) => {
    if ('options' in option && Array.isArray(option.options)) {
      return optionValues(option.options);
    }
    return 'value' in option && typeof option.value === 'string'
      ? [{ type: option.type, value: option.value }]
      : [];
  });
}

function countFocused(options: readonly unknown[]): number {
  let count = 0;
  for (const option of options) {
    if (!isRecord(option)) continue;
    if (option.focused === true) count += 1;
    if (Array.isArray(option.options)) count += countFocused(option.options as unknown[]);
  }
  return count;
}

function findComponent(node: unknown, customId: string): Record<string, unknown> | null {
  if (Array.isArray(node)) {
    for (const child of node as unknown[]) {
      const found = findComponent(child, customId);
      if (found) return found;
    }
    return null;
  }
  if (!isRecord(node)) return null;
  if (node.custom_id === customId) return node;
  return findComponent(node.components, customId) ?? findComponent(node.accessory, customId);
}
