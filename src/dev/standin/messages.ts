import { apiMessage } from './api-shapes.ts';
import type {
  APIAllowedMentions,
  APIEmbed,
  APIMessageReference,
  APIMessageTopLevelComponent,
} from 'discord.js';
import type { UploadedFile } from './body.ts';
import { Intent } from './constants.ts';
import { RestError, invalidForm } from './errors.ts';
import type { Gateway } from './gateway.ts';
import { nextSnowflake } from './snowflake.ts';
import type { DiscordState } from './state.ts';
import type { AttachmentRecord, MessageKind, MessageRecord } from './types.ts';
import { MessageFlag, assertNotEmpty, type MessageBody } from './validate.ts';

/** The per-file limit Discord gives a server without boosts, also sent as `attachment_size_limit`. */
export const attachmentSizeLimit = 10 * 1024 * 1024;

export interface NewMessage {
  channelId: string;
  guildId: string | null;
  kind: MessageKind;
  interactionId: string | null;
  body: MessageBody;
  files: readonly UploadedFile[];
  /** Flags the sender may set here on top of the always-allowed ones (ephemeral for interactions). */
  extraFlags?: number;
}

const settableFlags =
  MessageFlag.SuppressEmbeds | MessageFlag.SuppressNotifications | MessageFlag.IsComponentsV2;

function uploaded(
  world: DiscordState,
  channelId: string,
  body: MessageBody,
  files: readonly UploadedFile[],
): AttachmentRecord[] {
  return files.map((file) => {
    if (file.bytes.length > attachmentSizeLimit) throw new RestError(413, 40005);
    const entry = body.attachments?.find((a) => file.index !== null && String(a.id) === String(file.index));
    const id = nextSnowflake();
    const filename = entry?.filename ?? file.filename;
    return {
      id,
      filename,
      size: file.bytes.length,
      contentType: file.contentType,
      description: entry?.description ?? null,
      bytes: file.bytes,
      url: world.attachmentUrl(channelId, id, filename),
    };
  });
}

export function createMessage(world: DiscordState, m: NewMessage): MessageRecord {
  const attachments = uploaded(world, m.channelId, m.body, m.files);
  if (attachments.length > 10) {
    throw invalidForm([
      { path: ['attachments'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' },
    ]);
  }
  const record: MessageRecord = {
    id: nextSnowflake(),
    channelId: m.channelId,
    guildId: m.guildId,
    authorId: world.identity.botUserId,
    kind: m.kind,
    interactionId: m.interactionId,
    content: m.body.content ?? '',
    embeds: (m.body.embeds ?? []) as APIEmbed[],
    components: (m.body.components ?? []) as APIMessageTopLevelComponent[],
    attachments,
    flags: (m.body.flags ?? 0) & (settableFlags | (m.extraFlags ?? 0)),
    nonce: m.body.nonce ?? null,
    allowedMentions: (m.body.allowed_mentions ?? null) as APIAllowedMentions | null,
    tts: m.body.tts ?? false,
    messageReference: (m.body.message_reference ?? null) as APIMessageReference | null,
    createdAt: world.now(),
    editedAt: null,
    edits: 0,
  };
  assertNotEmpty({
    content: record.content,
    embeds: record.embeds,
    components: record.components,
    attachments: record.attachments,
    stickers: m.body.sticker_ids?.length ?? 0,
    poll: m.body.poll !== undefined && m.body.poll !== null,
  });
  world.insertMessage(record);
  return record;
}

/** A deferred reply's placeholder: "Bot is thinking…", flagged loading until edited. */
export function createLoadingMessage(
  world: DiscordState,
  m: { channelId: string; guildId: string | null; interactionId: string; ephemeral: boolean },
): MessageRecord {
  const record: MessageRecord = {
    id: nextSnowflake(),
    channelId: m.channelId,
    guildId: m.guildId,
    authorId: world.identity.botUserId,
    kind: 'reply',
    interactionId: m.interactionId,
    content: '',
    embeds: [],
    components: [],
    attachments: [],
    flags: MessageFlag.Loading | (m.ephemeral ? MessageFlag.Ephemeral : 0),
    nonce: null,
    allowedMentions: null,
    tts: false,
    messageReference: null,
    createdAt: world.now(),
    editedAt: null,
    edits: 0,
  };
  world.insertMessage(record);
  return record;
}

/** Applies an edit: only the fields present change; `attachments` lists the ones to keep. */
export function editMessage(
  world: DiscordState,
  record: MessageRecord,
  body: MessageBody,
  files: readonly UploadedFile[],
): void {
  const added = uploaded(world, record.channelId, body, files);
  const kept =
    body.attachments === undefined || body.attachments === null
      ? record.attachments
      : record.attachments.filter((a) => body.attachments?.some((entry) => String(entry.id) === a.id));
  const attachments = [...kept, ...added];
  if (attachments.length > 10) {
    throw invalidForm([
      { path: ['attachments'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' },
    ]);
  }
  const next = {
    content: body.content === undefined ? record.content : (body.content ?? ''),
    embeds: body.embeds === undefined ? record.embeds : ((body.embeds ?? []) as APIEmbed[]),
    components:
      body.components === undefined
        ? record.components
        : ((body.components ?? []) as APIMessageTopLevelComponent[]),
    attachments,
  };
  assertNotEmpty(next);
  const keptFlags = record.flags & (MessageFlag.Ephemeral | MessageFlag.IsComponentsV2);
  const editable = MessageFlag.SuppressEmbeds | MessageFlag.IsComponentsV2;
  const flags =
    body.flags === undefined || body.flags === null
      ? record.flags & ~MessageFlag.Loading
      : keptFlags | (body.flags & editable);
  Object.assign(record, next, { flags, editedAt: world.now(), edits: record.edits + 1 });
  if (body.allowed_mentions !== undefined)
    record.allowedMentions = (body.allowed_mentions ?? null) as APIAllowedMentions | null;
}

/** A copy to hand out: later edits do not change it (the bytes are shared, they never change). */
export function snapshot(record: MessageRecord): MessageRecord {
  return {
    ...record,
    embeds: structuredClone(record.embeds),
    components: structuredClone(record.components),
    attachments: record.attachments.map((a) => ({ ...a })),
    allowedMentions: record.allowedMentions === null ? null : structuredClone(record.allowedMentions),
    messageReference: record.messageReference === null ? null : { ...record.messageReference },
  };
}

/** MESSAGE_CREATE/UPDATE/DELETE for clients with the message intents; ephemeral messages are nobody else's business. */
export function announceMessage(
  world: DiscordState,
  gateway: Gateway,
  event: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE' | 'MESSAGE_DELETE',
  record: MessageRecord,
): void {
  if ((record.flags & MessageFlag.Ephemeral) !== 0) return;
  const intent = record.guildId === null ? Intent.DirectMessages : Intent.GuildMessages;
  const guild = record.guildId === null ? {} : { guild_id: record.guildId };
  const d =
    event === 'MESSAGE_DELETE'
      ? { id: record.id, channel_id: record.channelId, ...guild }
      : { ...apiMessage(world, record), ...guild };
  gateway.dispatch(record.guildId, event, d, intent);
}
