import { REST, Routes, type RESTGetAPIGatewayBotResult } from 'discord.js';
import type { Config } from '../config/index.ts';
import { discordRestAgent } from '../discord/rest-agent.ts';

/**
 * How many shards the bot runs, and which of them this machine runs. `SHARD_COUNT=auto` asks Discord
 * (`GET /gateway/bot`), through the configured API URL: discord.js's own `fetchRecommendedShardCount`
 * always calls discord.com, which would bypass a proxy or the local stand-in.
 */
export interface ShardPlan {
  /** Shards of the whole bot, over every machine. */
  readonly total: number;
  /** The shards this machine runs, ascending. */
  readonly ids: readonly number[];
  /** How many sessions Discord lets the bot start per 5 seconds (1 for most bots). */
  readonly maxConcurrency: number;
}

export interface GatewayBot {
  readonly shards: number;
  readonly maxConcurrency: number;
}

/** Discord's answer to `GET /gateway/bot` for this token, via `apiUrl` (as DISCORD_API_URL). */
export async function fetchGatewayBot(apiUrl: string, token: string): Promise<GatewayBot> {
  const rest = new REST({ api: apiUrl, timeout: 15_000, retries: 2, agent: discordRestAgent() }).setToken(
    token,
  );
  try {
    const reply = (await rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
    if (!Number.isInteger(reply.shards) || reply.shards < 1) {
      throw new Error('GET /gateway/bot answered without a usable shard count');
    }
    return {
      shards: reply.shards,
      maxConcurrency: Math.max(1, reply.session_start_limit.max_concurrency),
    };
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}

/**
 * The plan from the configuration: a fixed `SHARD_COUNT` needs no request; `auto` asks `gatewayBot`.
 * `SHARD_IDS` (several machines splitting one bot) picks this machine's part; all shards otherwise.
 */
export async function planShards(
  processes: Config['processes'],
  gatewayBot: () => Promise<GatewayBot>,
): Promise<ShardPlan> {
  let total: number;
  let maxConcurrency = 1;
  if (processes.shardCount === 'auto') {
    const answer = await gatewayBot();
    total = answer.shards;
    maxConcurrency = answer.maxConcurrency;
  } else {
    total = processes.shardCount;
  }
  const ids = processes.shardIds ?? Array.from({ length: total }, (_, id) => id);
  const outside = ids.filter((id) => id >= total);
  if (outside.length > 0) {
    throw new Error(`SHARD_IDS names shards ${outside.join(', ')}, but the bot has ${total}`);
  }
  return { total, ids: [...ids].sort((a, b) => a - b), maxConcurrency };
}
