import { apiMessage } from '../api-shapes.ts';
import type { RequestBody } from '../body.ts';
import { CallbackType } from '../constants.ts';
import { RestError } from '../errors.ts';
import type { Gateway } from '../gateway.ts';
import { announceMessage, createMessage, editMessage, snapshot } from '../messages.ts';
import type { DiscordState } from '../state.ts';
import type { MessageRecord } from '../types.ts';
import { MessageFlag, parseMessageBody } from '../validate.ts';
import { tagMessage, type InteractionState } from './interaction.ts';

export function ownMessage(world: DiscordState, state: InteractionState, messageId: string): MessageRecord {
  const id = messageId === '@original' ? state.originalMessageId : messageId;
  const mine = id !== null && (id === state.originalMessageId || state.followUpIds.includes(id));
  const message = mine ? world.messages.get(id) : undefined;
  if (!message) throw new RestError(404, 10008);
  return message;
}

export function editOwnMessage(
  world: DiscordState,
  gateway: Gateway,
  state: InteractionState,
  messageId: string,
  body: RequestBody,
): Record<string, unknown> {
  const message = ownMessage(world, state, messageId);
  editMessage(world, message, parseMessageBody(body.json ?? {}), body.files);
  if (state.awaitingEdit && message.id === state.originalMessageId) {
    state.awaitingEdit = false;
    state.final.resolve(snapshot(message));
  }
  announceMessage(world, gateway, 'MESSAGE_UPDATE', message);
  return apiMessage(world, message);
}

export function deleteOwnMessage(
  world: DiscordState,
  gateway: Gateway,
  state: InteractionState,
  messageId: string,
): void {
  const message = ownMessage(world, state, messageId);
  world.deleteMessage(message.id);
  if (message.id === state.originalMessageId) {
    // Like Discord: once the "thinking…" placeholder is gone, follow-ups are new messages, and the
    // first of them is what the user sees as the answer.
    state.awaitingEdit = false;
    state.originalMessageId = null;
  }
  announceMessage(world, gateway, 'MESSAGE_DELETE', message);
}

/** A follow-up; the first one after a deferred reply fills the placeholder. */
export function followUp(
  world: DiscordState,
  gateway: Gateway,
  state: InteractionState,
  body: RequestBody,
): Record<string, unknown> {
  const data = parseMessageBody(body.json ?? {});
  const placeholder =
    state.awaitingEdit && state.callback?.type === CallbackType.DeferredChannelMessageWithSource
      ? ownMessage(world, state, '@original')
      : null;
  if (placeholder) {
    editMessage(world, placeholder, { ...data, flags: null }, body.files);
    state.awaitingEdit = false;
    state.final.resolve(snapshot(placeholder));
    announceMessage(world, gateway, 'MESSAGE_UPDATE', placeholder);
    return apiMessage(world, placeholder);
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
  tagMessage(world, state, message.id);
  state.followUpIds.push(message.id);
  if (state.originalMessageId === null) state.final.resolve(snapshot(message));
  announceMessage(world, gateway, 'MESSAGE_CREATE', message);
  return apiMessage(world, message);
}
