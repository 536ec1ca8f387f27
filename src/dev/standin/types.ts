import type {
  APIAllowedMentions,
  APIApplicationCommand,
  APIApplicationCommandInteractionDataOption,
  APIEmbed,
  APIMessageReference,
  APIMessageTopLevelComponent,
  InteractionType,
} from 'discord.js';

export interface DiscordStandinOptions {
  /** The bot token it accepts (`Authorization: Bot <token>` and gateway IDENTIFY); default a fixed fake. */
  token?: string | undefined;
  applicationId?: string | undefined;
  /** Defaults to the application id, as for every bot created since 2020. */
  botUserId?: string | undefined;
  /** Enforced like Discord's global limit (429, `X-RateLimit-Global`, `Retry-After`); off by default. */
  globalRateLimit?: { perSecond: number } | undefined;
  /** Added to every REST reply, default 0. */
  latencyMs?: number | undefined;
  /** How long an interaction accepts its first callback; Discord's 3000 ms by default. */
  interactionTimeoutMs?: number | undefined;
  /** `session_start_limit.max_concurrency` in `GET /gateway/bot` (sessions that may start together); 1 by default. */
  maxConcurrency?: number | undefined;
  /**
   * Discord's per-route limit on adding and removing a member's role: one bucket that PUT and DELETE share,
   * with a window per guild; 10 requests per 10 s by default. `now` (ms; the real clock by default) lets a
   * test move the window by hand.
   */
  memberRolesRateLimit?: RateLimitOptions | undefined;
}

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  now?: (() => number) | undefined;
}

export interface User {
  id: string;
  username: string;
  globalName: string | null;
  avatar: string | null;
  bot: boolean;
}

export interface Guild {
  id: string;
  name: string;
  preferredLocale: string;
  ownerId: string;
  /** The bot's own managed role (position 1 when the guild is added), the only role the bot starts with. */
  botRoleId: string;
}

export interface Channel {
  id: string;
  /** Null for DM channels. */
  guildId: string | null;
  name: string;
  type: number;
}

export interface Role {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  /** 0 is @everyone; a higher position is higher in the hierarchy. */
  position: number;
  /** Managed by an integration (a bot's role, the booster role): nobody may give or take it. */
  managed: boolean;
}

export interface RoleOptions {
  id?: string;
  name?: string;
  permissions?: bigint;
  /** Default: 1, just above @everyone, every role from 1 up moving one higher, as Discord creates roles. */
  position?: number;
  /** A managed role that is not a bot's, as the booster role is. */
  managed?: boolean;
}

export interface Member {
  guildId: string;
  userId: string;
  /** Role ids, @everyone not included (as Discord lists them). */
  roles: string[];
}

/** A member role added or removed through the REST API. Requests that changed nothing are not here. */
export interface RoleChange {
  guildId: string;
  userId: string;
  roleId: string;
  action: 'add' | 'remove';
  /** The `X-Audit-Log-Reason` header, URL-decoded; null when the request had none. */
  reason: string | null;
  /** ms since the stand-in started. */
  at: number;
}

export interface AttachmentRecord {
  id: string;
  filename: string;
  /** Byte length of the uploaded file. */
  size: number;
  contentType: string | null;
  description: string | null;
  bytes: Buffer;
  /** Where the stand-in serves the bytes (its CDN stand-in). */
  url: string;
}

export type MessageKind = 'channel' | 'reply' | 'followUp';

export interface MessageRecord {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  /** `channel` for POST /channels/{id}/messages, `reply` for an interaction's original response, `followUp` for webhook follow-ups. */
  kind: MessageKind;
  /** The interaction that created this message (replies and follow-ups), else null. */
  interactionId: string | null;
  content: string;
  embeds: APIEmbed[];
  components: APIMessageTopLevelComponent[];
  attachments: AttachmentRecord[];
  /** Message flags: 64 ephemeral, 128 loading (a deferred reply not yet edited), 4 suppress embeds. */
  flags: number;
  nonce: string | number | null;
  allowedMentions: APIAllowedMentions | null;
  tts: boolean;
  messageReference: APIMessageReference | null;
  /** ms since the stand-in started. */
  createdAt: number;
  editedAt: number | null;
  /** How many times it was edited after creation. */
  edits: number;
}

export interface RequestRecord {
  method: string;
  /** Path without the `/api/v10` prefix and without the query; interaction and webhook tokens are replaced by `:token`. */
  path: string;
  query: string;
  status: number;
  /** ms since the stand-in started, when the request arrived. */
  at: number;
  /** Discord error code of an error reply, else null. */
  code: number | null;
}

export interface InteractionCallbackRecord {
  type: number;
  data?: unknown;
  /** ms between the INTERACTION_CREATE dispatch and the callback's arrival. */
  afterMs: number;
}

export interface PendingInteraction {
  id: string;
  token: string;
  /** 2 command, 3 component, 4 autocomplete, 5 modal submit. */
  type: number;
  /** The INTERACTION_CREATE payload dispatched over the gateway. */
  payload: unknown;
  /** Resolves with the first interaction callback (types 4 to 9) and the ms it took after dispatch. */
  response(timeoutMs?: number): Promise<InteractionCallbackRecord>;
  /**
   * Resolves when the interaction has a final visible message: the reply, the original after a defer once
   * edited (or filled by the first follow-up), or the updated component message. A snapshot of that moment.
   */
  final(timeoutMs?: number): Promise<MessageRecord>;
  /** Follow-up messages created so far (current state). */
  followUps(): MessageRecord[];
}

export interface InteractionUserOptions {
  user?: Partial<User> | undefined;
  locale?: string | undefined;
  guildLocale?: string | undefined;
  /** The invoking member's permissions in the channel; default computed from @everyone, roles and overwrites. */
  memberPermissions?: bigint | undefined;
  /** The bot's permissions in the channel; default computed like `setBotPermissions` sets them. */
  appPermissions?: bigint | undefined;
  /** Role ids given to the invoking member (guild interactions). */
  memberRoles?: string[] | undefined;
}

export interface InvokeCommandOptions extends InteractionUserOptions {
  name: string;
  options?: APIApplicationCommandInteractionDataOption[] | undefined;
  /** The guild; null for a DM with the bot. Default: the first guild added (a DM when there is none). */
  guildId?: string | null | undefined;
  /** Default: the guild's first text channel, or the user's DM channel. */
  channelId?: string | undefined;
}

export interface AutocompleteOptions extends InvokeCommandOptions {
  /** Exactly one option (possibly inside a subcommand) has `focused: true`. */
  options: APIApplicationCommandInteractionDataOption<InteractionType.ApplicationCommandAutocomplete>[];
}

export type ComponentOptions = InteractionUserOptions;

export interface ModalSubmitOptions extends InteractionUserOptions {
  /** The interaction that showed the modal: its guild, channel, user (and message) are reused and the fields checked. */
  from?: PendingInteraction | undefined;
  guildId?: string | null | undefined;
  channelId?: string | undefined;
}

export interface ChannelFailure {
  status: number;
  code: number;
  message?: string | undefined;
}

export interface RequestMatch {
  method?: string | undefined;
  /**
   * Tested against the decoded path without `/api/v10` and without the query, e.g. `/channels/1/messages`
   * or `/webhooks/<app>/<token>/messages/@original`.
   */
  path: RegExp;
}

export interface DiscordStandin {
  /** e.g. http://127.0.0.1:PORT/api (no version): what `rest.api` / DISCORD_API_URL is set to. */
  restUrl: string;
  /** ws://127.0.0.1:PORT */
  gatewayUrl: string;
  token: string;
  applicationId: string;
  botUserId: string;
  addGuild(g?: { id?: string; name?: string; preferredLocale?: string; ownerId?: string }): Guild;
  addChannel(guildId: string, c?: { id?: string; name?: string; type?: number }): Channel;
  /** A new role, announced with GUILD_ROLE_CREATE (and GUILD_ROLE_UPDATE for the roles it moved up). */
  addRole(guildId: string, r?: RoleOptions): Role;
  /** Renames, re-permissions or moves a role (a position is taken as it is: ties allowed); GUILD_ROLE_UPDATE. */
  editRole(
    guildId: string,
    roleId: string,
    changes: { name?: string; permissions?: bigint; position?: number },
  ): Role;
  /** Deletes a role and takes it from every member: later calls with it answer 10011 Unknown Role. */
  deleteRole(guildId: string, roleId: string): void;
  /** A new member (a new user unless `id` names a known one) with these roles. */
  addMember(guildId: string, m?: { id?: string; username?: string; roles?: string[] }): Member;
  /** Replaces a member's roles, the bot's included (give the bot a role with Manage Roles, or a higher one). */
  setMemberRoles(guildId: string, userId: string, roleIds: string[]): Member;
  /** The member leaves: later calls for it answer 10007 Unknown Member. Not the bot. */
  removeMember(guildId: string, userId: string): void;
  /** A member's role ids (without @everyone); null when the user is not a member. */
  memberRoles(guildId: string, userId: string): string[] | null;
  /** Member roles added and removed through the API, oldest first, for one guild or all. */
  roleChanges(guildId?: string): RoleChange[];
  /** The 429s the stand-in's own limits answered (not those `failNext` injected). */
  rateLimitHits(): { global: number; memberRoles: number };
  /** Exactly what the bot has in that channel (a member overwrite), seen by discord.js and in app_permissions. */
  setBotPermissions(guildId: string, channelId: string, perms: bigint): void;
  /** Every message POST or PATCH in that channel answers this error; undefined clears it. */
  failChannel(channelId: string, error: ChannelFailure | undefined): void;
  /** Whether the user accepts DMs from the bot (a closed DM answers 50007); returns the DM channel's id. */
  setDmsOpen(userId: string, open: boolean): string;
  /** The DM channel with the user (made if there is none yet). */
  dmChannelId(userId: string): string;
  /** The next `times` (default 1) matching REST calls answer `status`; status 0 resets the connection (ECONNRESET). */
  failNext(match: RequestMatch, status: number, times?: number): void;
  invokeCommand(i: InvokeCommandOptions): PendingInteraction;
  clickButton(message: MessageRecord, customId: string, opts?: ComponentOptions): PendingInteraction;
  selectMenu(
    message: MessageRecord,
    customId: string,
    values: string[],
    opts?: ComponentOptions,
  ): PendingInteraction;
  autocomplete(i: AutocompleteOptions): PendingInteraction;
  submitModal(
    customId: string,
    fields: Record<string, string>,
    opts?: ModalSubmitOptions,
  ): PendingInteraction;
  /** Sends every connected client a RECONNECT (op 7), as Discord does; @discordjs/ws then RESUMEs. */
  requestReconnect(): void;
  /** The gateway sessions, live or waiting to resume, with the shard each identified with. */
  gatewaySessions(): Array<{ shard: [number, number]; connected: boolean }>;
  commands: { global(): APIApplicationCommand[]; guild(guildId: string): APIApplicationCommand[] };
  /** Current channel messages (including interaction replies and follow-ups), oldest first. */
  messages(channelId?: string): MessageRecord[];
  /** Every REST call, oldest first; never the bot token nor interaction tokens. */
  requests(): readonly RequestRecord[];
  /**
   * Resolves once `condition` holds, checking it now and whenever a REST call arrives or is answered
   * (what changes `requests()` and `messages()`); rejects naming `what` after `timeoutMs` (default 10 s).
   */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}
