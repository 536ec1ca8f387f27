import pino from 'pino';
import { ConfigError, loadConfig, loadDotEnv } from '../config/index.ts';
import { createLogger } from '../log/index.ts';
import { runCli } from './cli.ts';
import { TierClient } from './client.ts';

/** Entry point of `npm run api`: configuration from the environment (and `.env`), output on stdio. */
async function main(): Promise<number> {
  loadDotEnv();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const logger = createLogger({
    level: config.log.level === 'info' ? 'warn' : config.log.level,
    destination: pino.destination(2),
  });
  const client = new TierClient({
    urls: { base: config.game.baseUrl, legacy: config.game.legacyUrl, matchmaker: config.game.matchmakerUrl },
    apiKey: config.game.apiKey,
    apiKeyHeader: config.game.apiKeyHeader,
    logger: logger.child({ subsystem: 'api' }),
  });
  try {
    return await runCli(process.argv.slice(2), {
      client,
      io: {
        out: (text) => process.stdout.write(`${text}\n`),
        err: (text) => process.stderr.write(`${text}\n`),
      },
    });
  } finally {
    await client.close();
  }
}

process.exitCode = await main();
