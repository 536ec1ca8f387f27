import { apiMessage } from '../api-shapes.ts';
import type { RequestBody } from '../body.ts';
import { CallbackType, InteractionKind } from '../constants.ts';
import { RestError, invalidForm } from '../errors.ts';
import type { Gateway } from '../gateway.ts';
import { announceMessage, createLoadingMessage, createMessage, editMessage, snapshot } from '../messages.ts';
import { isRecord, type DiscordState } from '../state.ts';
import type { InteractionCallbackRecord, MessageRecord } from '../types.ts';
import { MessageFlag, parseAutocompleteChoices, parseMessageBody, parseModal } from '../validate.ts';
import { tagMessage, type InteractionState } from './interaction.ts';

/** The bot's first answer to an interaction (checked in time by the hub). Returns the `with_response` body. */
export function answerCallback(
  world: DiscordState,
  gateway: Gateway,
  state: InteractionState,
  now: number,
  body: RequestBody,
  withResponse: boolean,
): Record<string, unknown> | undefined {
  const raw = body.json;
  if (!isRecord(raw) || typeof raw.type !== 'number') {
    throw invalidForm([{ path: ['type'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }]);
  }
  const type = raw.type;
  checkCallbackType(state, type);
  let message: MessageRecord | null = null;
  switch (type) {
    case CallbackType.ChannelMessageWithSource: {
      const data = parseMessageBody(raw.data ?? {});
      message = createReply(world, state, data, body);
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
      tagMessage(world, state, message.id);
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
      gateway,
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
    resource: { type, ...(message ? { message: apiMessage(world, message) } : {}) },
  };
}

function checkCallbackType(state: InteractionState, type: number): void {
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

function createReply(
  world: DiscordState,
  state: InteractionState,
  data: ReturnType<typeof parseMessageBody>,
  body: RequestBody,
): MessageRecord {
  const message = createMessage(world, {
    channelId: state.channelId,
    guildId: state.guildId,
    kind: 'reply',
    interactionId: state.id,
    body: { ...data, nonce: null },
    files: body.files,
    extraFlags: MessageFlag.Ephemeral,
  });
  tagMessage(world, state, message.id);
  return message;
}
