import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBot, type Bot } from '../../src/bot.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { createStore } from '../../src/store/index.ts';
import { STATS_INTERVAL_MS, type FromBot, type ProcessStats, type ToBot } from './ipc.ts';
import { readOnlySwitch, type SwitchableStore } from './readonly-store.ts';

/**
 * The bot under test, in a process of its own (started by the chaos harness over IPC), so that its
 * event-loop delay and memory are its own: the sandbox, the Discord stand-in and the harness run in the
 * parent. Reports its figures every STATS_INTERVAL_MS; a longer silence is a blocked event loop.
 */
const MB = 1024 * 1024;
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

function stats(): ProcessStats {
  return {
    maxDelayMs: histogram.max / 1e6,
    rssMb: process.memoryUsage.rss() / MB,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function send(message: FromBot): void {
  if (process.connected) process.send?.(message);
}

let bot: Bot | undefined;
let switchable: SwitchableStore | undefined;
const ticker = setInterval(() => send({ type: 'stats', stats: stats() }), STATS_INTERVAL_MS);

async function start(message: Extract<ToBot, { type: 'start' }>): Promise<void> {
  const config = loadConfig(message.env);
  switchable = readOnlySwitch(await createStore(config.store.url));
  bot = await startBot({
    config,
    token: config.discord.token ?? '',
    store: switchable.store,
    logger: createLogger({ level: config.log.level }),
    announcements: { ...message.announcements },
  });
  await bot.ready;
  const announcements = await bot.announcements;
  send({ type: 'ready', webhookPort: announcements?.webhook?.port });
}

async function stop(): Promise<void> {
  try {
    await bot?.stop();
    await switchable?.store.close();
  } finally {
    clearInterval(ticker);
    histogram.disable();
    send({ type: 'stopped', stats: stats() });
    process.disconnect();
  }
}

process.on('message', (raw) => {
  const message = raw as ToBot;
  switch (message.type) {
    case 'start':
      start(message).catch((error: unknown) => {
        send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
      break;
    case 'mark':
      histogram.reset();
      break;
    case 'store-readonly':
      switchable?.setReadOnly(message.on);
      break;
    case 'stop':
      void stop().catch(() => process.exit(1));
      break;
  }
});
// The harness is gone: nothing would ever stop this bot.
process.on('disconnect', () => setTimeout(() => process.exit(0), 2_000).unref());
