import type { Latch } from '../latch.ts';
import type { ChannelState, DiscordState, GuildState, UserState } from '../state.ts';
import type { InteractionCallbackRecord, MessageRecord } from '../types.ts';

export interface InteractionState {
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

/** Where an interaction happens and who invokes it; `base` is the payload every type shares. */
export interface InteractionContext {
  guild: GuildState | null;
  channel: ChannelState;
  user: UserState;
  base: Record<string, unknown>;
}

export function tagMessage(world: DiscordState, state: InteractionState, messageId: string): void {
  world.messageInteractions.set(messageId, {
    interactionId: state.id,
    interactionType: state.type,
    userId: state.userId,
    commandName: state.commandName,
    commandType: state.commandType,
    guildId: state.guildId,
  });
}
