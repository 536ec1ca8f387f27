import { ConfigError, describeConfig, loadConfig, loadDotEnv, requireDiscordToken } from './config/index.ts';
import { configureLog, logFor } from './log/index.ts';
import { startProcess, type RunningProcess } from './processes/run.ts';

/**
 * `npm start`: one process of the bot, configured from the environment (and `.env` when present), by
 * `PROCESS_ROLE`: everything (the default: the shard manager, its shard processes and the worker),
 * `shards`, or `worker` (see src/processes/run.ts). SIGTERM or SIGINT stops it cleanly; so does a part
 * it cannot recover (exit code 1, for the supervisor to restart it).
 */
const EXIT_WATCHDOG_MS = 10_000;

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
  // Signals are handled from the start: one arriving while the process starts still stops it cleanly.
  let stop: (reason: string, code: number) => void = () => undefined;
  const starting: Promise<RunningProcess> = startProcess({
    config,
    token,
    log,
    onFatal: (reason) => stop(reason, 1),
  });
  let stopping = false;
  stop = (reason, code) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'stopping');
    starting
      .then((running) => running.stop())
      .then(
        () => (process.exitCode = code),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exitCode = 1;
        },
      )
      // Whatever a library left running, the process ends: it has nothing left to do.
      .finally(() => setTimeout(() => process.exit(), EXIT_WATCHDOG_MS).unref());
  };
  process.once('SIGTERM', () => stop('SIGTERM', 0));
  process.once('SIGINT', () => stop('SIGINT', 0));
  try {
    const running = await starting;
    log.info({ role: running.role, shards: running.fleet?.plan.ids ?? [] }, 'started');
  } catch (error) {
    log.fatal({ err: error }, 'could not start');
    process.exitCode = 1;
  }
}

await main();
