import { startBot } from '../src/bot.ts';
import { loadConfig } from '../src/config/index.ts';
import { createLogger } from '../src/log/index.ts';

/** One bot process for `memory.ts`: logs in, waits for READY, settles, prints its memory, exits. */
const config = loadConfig(process.env);
const bot = await startBot({
  config,
  token: config.discord.token ?? '',
  logger: createLogger({ level: 'silent' }),
  announcements: false,
});
await bot.ready;
await new Promise((resolve) => setTimeout(resolve, 500));
(globalThis as { gc?: () => void }).gc?.();
const { rss, heapUsed } = process.memoryUsage();
process.stdout.write(`${JSON.stringify({ rss, heapUsed, guilds: bot.client.guilds.cache.size })}\n`);
await bot.stop();
process.exit(0);
