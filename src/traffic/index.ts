import { unrefSleep, type Clock } from '../core/clock.ts';
import type { Logger } from '../log/index.ts';
import { openRedisConnection } from '../store/backends.ts';
import { FailoverWindows, reasonOf, realTimer, sleepTimer } from './failover.ts';
import { LimitGate } from './gate.ts';
import type { SharedLimits } from './limits.ts';
import { MemoryWindows } from './memory.ts';
import { RedisWindows } from './redis.ts';

export { LimitGate } from './gate.ts';
export type { QueuePlace, SharedLimits, Slot, TakeRequest, WindowState } from './limits.ts';
export { LimitsClosedError, LimitWaitError, type LimitWindow, type Priority } from './window.ts';

/**
 * Request limits (the game API's 60 a minute per key, the events endpoint's 6 a minute) counted in sliding
 * windows: through Redis when `redisUrl` is set, so that every process using it stays within one limit
 * together; in this process's memory otherwise. The composition root builds one and hands it to the tier
 * client (`sharedLimits`), which takes a slot before each request goes out.
 */
export interface SharedLimitsOptions {
  /** `config.redis.url`; absent: the limits stay in this process. */
  readonly redisUrl?: string | undefined;
  /** Times the requests and their waits (a manual clock in tests). */
  readonly clock: Clock;
  readonly log: Pick<Logger, 'warn' | 'info'>;
  /** Prefix of the Redis keys; default `killfeed:limits:`. Tests use one of their own. */
  readonly prefix?: string;
  /** How long a Redis operation may take before this process counts on its own. Default 1,000 ms. */
  readonly timeoutMs?: number;
  /** How often Redis is tried again while it does not answer. Default 5,000 ms. */
  readonly probeMs?: number;
  /** How long the first connection may take before starting without Redis. Default 5,000 ms. */
  readonly connectTimeoutMs?: number;
  /** Waits for the Redis timeouts and probes; default real time (unref'd). Tests pass a manual clock's. */
  readonly timeoutSleep?: Clock['sleep'];
}

export const DEFAULT_PREFIX = 'killfeed:limits:';

/** Limits of this process alone, in memory. */
export function createMemoryLimits(clock: Clock): SharedLimits {
  return new LimitGate(new MemoryWindows(), clock, DEFAULT_PREFIX);
}

/**
 * Builds the limits: in memory without `redisUrl`; otherwise over Redis, waiting up to `connectTimeoutMs`
 * for the first connection. A Redis that cannot be reached does not stop the start: the process counts on
 * its own (with a warning) and switches to Redis once it answers.
 */
export async function createSharedLimits(options: SharedLimitsOptions): Promise<SharedLimits> {
  const { redisUrl, clock, log } = options;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (redisUrl === undefined) return new LimitGate(new MemoryWindows(), clock, prefix);
  const sleep = options.timeoutSleep ?? unrefSleep;
  const timer = options.timeoutSleep ? sleepTimer(options.timeoutSleep) : realTimer;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const connection = openRedisConnection(redisUrl, connectTimeoutMs);
  const windows = new FailoverWindows(new RedisWindows(connection), {
    timeoutMs: options.timeoutMs ?? 1_000,
    probeMs: options.probeMs ?? 5_000,
    sleep,
    timer,
    log,
  });
  // Errors carry no URL here: only their code or name is logged, once per outage.
  connection.onError((error) => windows.markDown(reasonOf(error)));
  connection.onReady(() => windows.probeNow());
  if (!connection.ready) {
    const waiting = new AbortController();
    const connected = new Promise<boolean>((resolve) => connection.onReady(() => resolve(true)));
    const timedOut = sleep(connectTimeoutMs, waiting.signal).then(
      () => false,
      () => true,
    );
    const ready = await Promise.race([connected, timedOut]);
    waiting.abort();
    if (!ready) windows.markDown('unreachable at start');
  }
  return new LimitGate(windows, clock, prefix);
}
