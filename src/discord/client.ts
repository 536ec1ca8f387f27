import { Client, GatewayIntentBits, Options, Partials } from 'discord.js';
import type { DiscordGlobalLimit } from '../traffic/discord-global.ts';
import { discordRestAgent, limitedRestOptions } from './rest-agent.ts';

export interface DiscordClientOptions {
  /** REST base without the version (`https://discord.com/api`, or a proxy, or the local stand-in). */
  readonly apiUrl: string;
  /**
   * The bot's one global limiter (docs/adr/013): every request with the token takes a slot, as a command's
   * (interactive) unless it runs in `asBackground`. Without it, discord.js's own per-process counter.
   */
  readonly limit?: DiscordGlobalLimit | undefined;
}

/**
 * The discord.js client: only the Guilds intent (slash commands need no other), caches trimmed to what
 * the bot reads (guilds, channels and roles for permission checks; no messages, members, presences),
 * and mentions off by default for every message it sends.
 */
export function createDiscordClient(options: DiscordClientOptions): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    partials: [Partials.Channel],
    rest: {
      api: options.apiUrl,
      agent: discordRestAgent(),
      ...(options.limit ? limitedRestOptions(options.limit, 'interactive') : {}),
    },
    allowedMentions: { parse: [], repliedUser: false },
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      GuildMemberManager: { maxSize: 1, keepOverLimit: (member) => member.id === member.client.user.id },
      UserManager: { maxSize: 1, keepOverLimit: (user) => user.id === user.client.user.id },
      PresenceManager: 0,
      ReactionManager: 0,
      ThreadManager: 0,
      VoiceStateManager: 0,
      GuildEmojiManager: 0,
      GuildStickerManager: 0,
      GuildScheduledEventManager: 0,
      StageInstanceManager: 0,
      GuildInviteManager: 0,
      GuildBanManager: 0,
      AutoModerationRuleManager: 0,
      ApplicationCommandManager: 0,
      BaseGuildEmojiManager: 0,
      GuildForumThreadManager: 0,
      GuildTextThreadManager: 0,
      ThreadMemberManager: 0,
      ReactionUserManager: 0,
    }),
  });
}
