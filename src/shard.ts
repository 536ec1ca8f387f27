import { Events } from 'discord.js';
import { startBot, type Bot } from './bot.ts';
import { ConfigError, loadConfig, loadDotEnv, requireDiscordToken } from './config/index.ts';
import { configureLog, logFor } from './log/index.ts';
import { ShardEnvironmentError, pinShards } from './processes/environment.ts';
import { answerMetricsRequests, shareForgets } from './processes/ipc.ts';
import { forgetKeptTokens, relayTokenForgets } from './features/tokens/token-memory.ts';
import { createMetrics } from './metrics/index.ts';

/**
 * What each shard process runs, spawned by the shard manager (src/processes/shards.ts): the bot on its
 * gateway shards, answering the interactions Discord routes to them, without the announcements (the
 * worker posts those). It answers the manager's metrics requests over IPC, stops cleanly on SIGTERM or
 * SIGINT, and stops too when the manager goes away (the IPC channel closes), so no shard outlives it,
 * or when discord.js gives its session up (exit code 1: the manager restarts it, within its limits).
 */
const EXIT_WATCHDOG_MS = 5_000;

let ending = false;

/** Ends the process: the IPC channel keeps it alive, so it is closed; a leftover handle cannot hold it. */
function end(code: number): void {
  ending = true;
  process.exitCode = code;
  if (process.connected) process.disconnect();
  setTimeout(() => process.exit(), EXIT_WATCHDOG_MS).unref();
}

function refuse(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}

async function main(): Promise<void> {
  loadDotEnv();
  let config;
  let token;
  try {
    config = loadConfig();
    token = requireDiscordToken(config);
  } catch (error) {
    if (error instanceof ConfigError) return refuse(error.message);
    throw error;
  }
  const { shardCount, shardIds } = config.processes;
  if (shardCount === 'auto' || shardIds === undefined) {
    return refuse(
      'A shard process needs SHARD_COUNT and SHARD_IDS: `npm start` starts shard processes itself.',
    );
  }
  try {
    pinShards(shardIds, shardCount);
  } catch (error) {
    if (error instanceof ShardEnvironmentError) return refuse(error.message);
    throw error;
  }
  configureLog(config.log.level);
  const log = logFor('shard').child({ shards: shardIds });
  const metrics = createMetrics({ process: `shard-${shardIds.join('-')}` });
  const stopAnswering = answerMetricsRequests(metrics);
  // "Forget my token" asked in one shard process drops the token kept in any of them.
  const forgets = shareForgets(forgetKeptTokens);
  relayTokenForgets((userId) => forgets.announce(userId));
  const starting = startBot({ config, token, announcements: false, logger: log, metrics });

  let stopping: Promise<void> | undefined;
  const stop = (reason: string, exitCode = 0) => {
    stopping ??= (async () => {
      log.info({ reason }, 'stopping');
      let code = exitCode;
      try {
        const bot: Bot = await starting;
        await bot.stop();
      } catch (error) {
        log.error({ err: error }, 'shutdown failed');
        code = 1;
      }
      stopAnswering();
      relayTokenForgets(undefined);
      forgets.stop();
      end(code);
    })();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('disconnect', () => {
    if (!ending) stop('the shard manager went away');
  });
  try {
    const bot = await starting;
    // discord.js gave the session up (a closing code it does not retry, such as a reset token): this
    // process can do nothing more, so it ends with an error and the manager decides whether to restart it.
    bot.client.on(Events.ShardDisconnect, (event, shard) => {
      log.error({ shard, code: event.code }, 'the gateway closed the session for good');
      stop('the gateway session ended', 1);
    });
  } catch (error) {
    log.fatal({ err: error }, 'the shard could not start');
    stopAnswering();
    end(1);
  }
}

await main();
