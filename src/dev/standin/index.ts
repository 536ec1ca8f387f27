export { startDiscordStandin, defaultStandinToken, defaultApplicationId } from './server.ts';
export { commandNamePattern } from './command-checks.ts';
export { guildIdOnShard } from './snowflake.ts';
export { ownerShard } from './gateway.ts';
export type {
  AttachmentRecord,
  AutocompleteOptions,
  Channel,
  ChannelFailure,
  ComponentOptions,
  DiscordStandin,
  DiscordStandinOptions,
  Guild,
  InteractionCallbackRecord,
  InteractionUserOptions,
  InvokeCommandOptions,
  Member,
  MessageKind,
  MessageRecord,
  ModalSubmitOptions,
  PendingInteraction,
  RateLimitOptions,
  RequestMatch,
  RequestRecord,
  Role,
  RoleChange,
  RoleOptions,
  User,
} from './types.ts';
