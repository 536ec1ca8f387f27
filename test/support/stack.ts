import { Events } from 'discord.js';
import type { Logger } from 'pino';
import { startBot, type Bot, type BotOptions } from '../../src/bot.ts';
import { loadConfig } from '../../src/config/index.ts';
import { stackEnvironment, startStack, type Stack, type StackOptions } from '../../src/dev/demo/stack.ts';
import type { Sandbox } from '../../src/dev/sandbox/index.ts';
import type { DiscordStandin } from '../../src/dev/standin/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { freePort } from '../../src/dev/net.ts';

export type { OptionValues, Stack } from '../../src/dev/demo/stack.ts';

/**
 * The one way an end-to-end test starts the whole bot: game API sandbox, Discord stand-in, store and the
 * real bot (`startStack`, what `npm run demo` runs), with test defaults: silent logs, no background purge,
 * and a store health probe short enough that a test waiting for a recovery waits for the state, not for
 * a five-second interval.
 */
export interface TestStackOptions extends StackOptions {
  /** Serve `/healthz` on a free port of 127.0.0.1. */
  readonly health?: boolean;
}

export interface HealthReply {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export interface TestStack extends Stack {
  /** `GET /healthz` (start with `health: true`). */
  health(): Promise<HealthReply>;
  /**
   * Resolves once `/healthz` answers `status`: the store's health (what it follows once the client is
   * ready) is awaited through its change events, then the endpoint is asked once. Bounded by the test's
   * timeout, never by a duration.
   */
  healthBecomes(status: number): Promise<void>;
}

/** How often an unhealthy store is probed in tests (5 s in production). */
export const TEST_HEALTH_PROBE_MS = 50;

export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const port = options.health ? await freePort() : undefined;
  const stack = await startStack({
    logger: createLogger({ level: 'silent' }),
    ...options,
    storeOptions: { purgeIntervalMs: 0, healthProbeMs: TEST_HEALTH_PROBE_MS, ...options.storeOptions },
    env: { ...(port === undefined ? {} : { HTTP_PORT: String(port) }), ...options.env },
  });
  const health = async (): Promise<HealthReply> => {
    if (port === undefined) throw new Error('start the stack with health: true');
    const reply = await fetch(`http://127.0.0.1:${port}/healthz`);
    return { status: reply.status, body: await reply.json() };
  };
  return {
    ...stack,
    health,
    async healthBecomes(status) {
      const healthy = status === 200;
      const { health: storeHealth } = stack.store;
      const { client } = stack.bot;
      for (;;) {
        if (storeHealth.healthy !== healthy) {
          // The store's health changes only through its probes: told by its change events.
          await new Promise<void>((resolve) => {
            const off = storeHealth.onChange((now) => {
              if (now !== healthy) return;
              off();
              resolve();
            });
          });
        }
        const reply = await health();
        if (reply.status === status) return;
        // The store agrees, so the gateway session is what differs (a reconnect): wait for it to be back.
        if (client.isReady() || !healthy) throw new Error(`/healthz answered ${reply.status}, not ${status}`);
        await new Promise<void>((resolve) => {
          const back = () => {
            client.off(Events.ShardReady, back);
            client.off(Events.ShardResume, back);
            resolve();
          };
          client.on(Events.ShardReady, back);
          client.on(Events.ShardResume, back);
        });
      }
    },
  };
}

export interface TestBotOptions extends Pick<
  BotOptions,
  'store' | 'database' | 'clock' | 'commands' | 'announcements'
> {
  /** Extra environment for the bot's configuration (SECRET_KEY, STORE_URL, LOG_LEVEL...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Silent by default. */
  readonly logger?: Logger;
}

/**
 * The real bot alone, against a sandbox and a stand-in the test runs itself: for tests that restart the
 * bot on one store, or that set the stand-in up (guilds, channels) before the bot logs in. Ready when
 * it resolves; the test stops it.
 */
export async function startTestBot(
  sandbox: Sandbox,
  discord: DiscordStandin,
  options: TestBotOptions = {},
): Promise<Bot> {
  const { env, logger, ...rest } = options;
  const bot = await startBot({
    config: loadConfig(stackEnvironment(sandbox, discord, { LOG_LEVEL: 'silent', ...env })),
    token: discord.token,
    logger: logger ?? createLogger({ level: 'silent' }),
    ...rest,
  });
  try {
    await bot.ready;
  } catch (error) {
    await bot.stop();
    throw error;
  }
  return bot;
}
