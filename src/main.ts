import { startBot } from './bot.ts';
import { ConfigError, describeConfig, loadConfig, loadDotEnv, requireDiscordToken } from './config/index.ts';
import { configureLog, logFor } from './log/index.ts';

/** `npm start`: the bot, configured from the environment (and `.env` when present). */
async function main(): Promise<void> {
  loadDotEnv();
  let config;
  let token;
  try {
    config = loadConfig();
    token = requireDiscordToken(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(
        `${error.message}\n\nSee .env.example for every variable, or run \`npm run demo\` to see the bot work offline.\n`,
      );
      process.exitCode = 1;
      return;
    }
    throw error;
  }
  configureLog(config.log.level);
  const log = logFor('main');
  log.info({ config: describeConfig(config) }, 'starting');
  // Signals are handled from the start: one arriving while the bot connects still stops it cleanly.
  const starting = startBot({ config, token });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'signal received');
    starting
      .then((bot) => bot.stop())
      .then(
        () => (process.exitCode = 0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exitCode = 1;
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await starting;
}

await main();
