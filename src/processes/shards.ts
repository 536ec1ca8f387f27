import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ShardingManager, type Shard } from 'discord.js';
import type { Logger } from 'pino';
import { systemClock, unrefSleep, type Clock } from '../core/clock.ts';
import type { ShardState } from '../metrics/recorders.ts';
import { keepingEnvironment, shardEnvironment, type Environment } from './environment.ts';
import { relayForgets, requestMetrics } from './ipc.ts';
import { DEFAULT_RESPAWN_LIMITS, RespawnBudget, type RespawnLimits } from './respawn.ts';
import type { ShardPlan } from './shard-count.ts';

/**
 * The gateway shards of this machine, each in a child process of its own, spawned by discord.js's
 * ShardingManager and running src/shard.ts. Shards start in groups of Discord's `max_concurrency`, the
 * next group after the previous one is ready (or `readyTimeoutMs` passed) and `spawnDelayMs` more: Discord
 * accepts that many identifies per 5 seconds. A shard whose process dies is started again, bounded by a
 * {@link RespawnBudget}; each shard's state (for `/healthz` and the shard status gauge) follows its events.
 */
export interface ShardFleetOptions {
  readonly plan: ShardPlan;
  readonly token: string;
  /** The children's environment before the shard's own variables are added (the configuration). */
  readonly env: Environment;
  readonly log: Logger;
  readonly clock?: Clock;
  /** Pause between two groups of shards starting; default 5,500 ms (Discord: 5 s per identify). */
  readonly spawnDelayMs?: number;
  /** How long a group may take to be ready before the next one starts anyway; default 60 s. */
  readonly readyTimeoutMs?: number;
  readonly respawn?: RespawnLimits;
  /** How long a shard process may take to stop after SIGTERM before it is killed; default 15 s. */
  readonly stopTimeoutMs?: number;
  /** A shard died more often than `respawn` allows: it stays down (the caller stops the process). */
  readonly onGiveUp?: (shardId: number) => void;
  /** Every change of a shard's state (the metrics' shard status gauge). */
  readonly onState?: (shardId: number, state: ShardState) => void;
  /** Which file the children run; by default src/shard.ts under tsx, dist/src/shard.js compiled. */
  readonly entry?: ShardEntry;
}

export interface ShardFleet {
  readonly plan: ShardPlan;
  /** Each shard's state, by id. */
  states(): ReadonlyMap<number, ShardState>;
  /** Whether every shard of this machine is ready. */
  ready(): boolean;
  /** Resolves once every shard has been ready at the same time (rejects when the fleet stops first). */
  readonly allReady: Promise<void>;
  /** The pids of the live shard processes, by shard id (logs, tests). */
  pids(): ReadonlyMap<number, number>;
  /** Each live shard's metrics snapshot (shards that do not answer within `timeoutMs` are left out). */
  metrics(timeoutMs: number): Promise<unknown[]>;
  /** Stops every shard process (SIGTERM, then SIGKILL after `stopTimeoutMs`) and respawns no more. */
  stop(): Promise<void>;
}

export interface ShardEntry {
  readonly file: string;
  readonly execArgv: readonly string[];
}

/**
 * The shard entry beside this module: compiled (`.js`), `dist/src/shard.js` under plain node; from
 * source (`.ts`), `src/shard.ts` with tsx's loader (resolved from here, so the working directory does
 * not matter).
 */
export function shardEntry(moduleUrl: string = import.meta.url): ShardEntry {
  const compiled = moduleUrl.endsWith('.js');
  const file = fileURLToPath(new URL(compiled ? '../shard.js' : '../shard.ts', moduleUrl));
  if (compiled) return { file, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file, execArgv: ['--import', tsx] };
}

export function startShardFleet(options: ShardFleetOptions): ShardFleet {
  return new Fleet(options);
}

/** Resolves when every shard of `group` is ready or dead, or `readyTimeoutMs` passed, or `stopping`. */
async function settled(
  group: readonly Shard[],
  readyTimeoutMs: number,
  stopping: AbortSignal,
): Promise<void> {
  const pending = group.filter((shard) => !shard.ready);
  const timeout = new AbortController();
  const waits = pending.map((shard) =>
    Promise.race([
      once(shard, 'ready', { signal: timeout.signal }),
      once(shard, 'death', { signal: timeout.signal }),
    ]),
  );
  try {
    await Promise.race([
      Promise.all(waits),
      unrefSleep(readyTimeoutMs, timeout.signal),
      once(stopping, 'abort', { signal: timeout.signal }),
    ]);
  } catch {
    // aborted below
  } finally {
    timeout.abort();
  }
}

/** SIGTERM (without the manager's respawn), then SIGKILL when the process has not exited in time. */
async function stopShard(
  shard: Shard,
  stopTimeoutMs: number,
  log: Logger,
  sleep: Clock['sleep'],
): Promise<void> {
  const child = shard.process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit').then(() => undefined);
  shard.kill();
  const timer = new AbortController();
  const late = sleep(stopTimeoutMs, timer.signal).then(
    () => true,
    () => false,
  );
  if (await Promise.race([exited.then(() => false), late])) {
    log.warn({ shard: shard.id }, 'shard process did not stop in time: killing it');
    child.kill('SIGKILL');
    await exited;
  }
  timer.abort();
}

class Fleet implements ShardFleet {
  readonly plan: ShardPlan;
  readonly allReady: Promise<void>;
  readonly #options: ShardFleetOptions;
  readonly #log: Logger;
  readonly #clock: Clock;
  /** The stop timeout's sleep: the given clock's (a test's manual one), or an unref'd real one. */
  get #stopSleep(): Clock['sleep'] {
    return this.#options.clock ? this.#clock.sleep.bind(this.#clock) : unrefSleep;
  }
  readonly #stopping = new AbortController();
  readonly #states = new Map<number, ShardState>();
  readonly #budgets = new Map<number, RespawnBudget>();
  readonly #manager: ShardingManager;
  readonly #spawning: Promise<void>;
  #markAllReady: () => void = () => undefined;
  #stopped: Promise<void> | undefined;

  constructor(options: ShardFleetOptions) {
    this.#options = options;
    this.plan = options.plan;
    this.#log = options.log;
    this.#clock = options.clock ?? systemClock;
    this.allReady = new Promise<void>((resolve, reject) => {
      this.#markAllReady = resolve;
      this.#stopping.signal.addEventListener('abort', () => reject(new Error('the shards stopped')), {
        once: true,
      });
    });
    this.allReady.catch(() => undefined);
    const entry = options.entry ?? shardEntry();
    this.#manager = keepingEnvironment(
      () =>
        new ShardingManager(entry.file, {
          totalShards: this.plan.total,
          shardList: [...this.plan.ids],
          mode: 'process',
          // Respawning is ours (bounded, with back-off); the manager's would restart a crash loop at once.
          respawn: false,
          execArgv: [...entry.execArgv],
          token: options.token,
        }),
    );
    this.#manager.on('shardCreate', (shard) => this.#follow(shard));
    this.#spawning = this.#spawnAll().catch((error: unknown) => {
      if (!this.#stopping.signal.aborted) this.#log.error({ err: error }, 'could not start the shards');
    });
    this.#log.info({ total: this.plan.total, ids: this.plan.ids }, 'starting shards');
  }

  states(): ReadonlyMap<number, ShardState> {
    return new Map(this.#states);
  }

  ready(): boolean {
    return this.plan.ids.every((id) => this.#states.get(id) === 'ready');
  }

  pids(): ReadonlyMap<number, number> {
    const pids = new Map<number, number>();
    for (const shard of this.#manager.shards.values()) {
      if (shard.process?.pid !== undefined) pids.set(shard.id, shard.process.pid);
    }
    return pids;
  }

  async metrics(timeoutMs: number): Promise<unknown[]> {
    const live = [...this.#manager.shards.values()].filter((shard) => shard.process !== null);
    const snapshots = await Promise.all(live.map((shard) => requestMetrics(shard, timeoutMs)));
    return snapshots.filter((snapshot) => snapshot !== undefined);
  }

  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#stopping.abort(new Error('stopping'));
      await this.#spawning;
      const stopTimeoutMs = this.#options.stopTimeoutMs ?? 15_000;
      // Not a reason to keep the process alive, unless a clock was given (a test's manual one).
      await Promise.all(
        [...this.#manager.shards.values()].map((shard) =>
          stopShard(shard, stopTimeoutMs, this.#log, this.#stopSleep),
        ),
      );
      this.#log.info('shards stopped');
    })();
    return this.#stopped;
  }

  /** Groups of `maxConcurrency` shards, each after the previous one settled and `spawnDelayMs` more. */
  async #spawnAll(): Promise<void> {
    const { plan } = this;
    const spawnDelayMs = this.#options.spawnDelayMs ?? 5_500;
    const readyTimeoutMs = this.#options.readyTimeoutMs ?? 60_000;
    const stopping = this.#stopping.signal;
    const size = Math.max(1, plan.maxConcurrency);
    for (let start = 0; start < plan.ids.length && !stopping.aborted; start += size) {
      if (start > 0 && spawnDelayMs > 0) await this.#clock.sleep(spawnDelayMs, stopping);
      const group = plan.ids.slice(start, start + size).map((id) => this.#manager.createShard(id));
      for (const shard of group) await shard.spawn(-1);
      await settled(group, readyTimeoutMs, stopping);
    }
  }

  /** A new shard's environment, and its state following its events. */
  #follow(shard: Shard): void {
    const log = this.#log;
    shard.env = shardEnvironment(this.#options.env, shard.id, this.plan.total, this.#options.token);
    shard.on('spawn', () => {
      this.#setState(shard.id, 'starting');
      log.info({ shard: shard.id, pid: shard.process?.pid }, 'shard process started');
    });
    shard.on('ready', () => {
      this.#setState(shard.id, 'ready');
      log.info({ shard: shard.id }, 'shard ready');
    });
    shard.on('resume', () => this.#setState(shard.id, 'ready'));
    shard.on('reconnecting', () => this.#setState(shard.id, 'reconnecting'));
    shard.on('disconnect', () => {
      this.#setState(shard.id, 'disconnected');
      log.warn({ shard: shard.id }, 'shard disconnected');
    });
    shard.on('death', (child) => {
      this.#setState(shard.id, 'dead');
      if (this.#stopping.signal.aborted) return;
      const exit = 'exitCode' in child ? { code: child.exitCode, signal: child.signalCode } : {};
      log.warn({ shard: shard.id, ...exit }, 'shard process exited');
      void this.#respawnLater(shard);
    });
    shard.on('error', (error) => log.error({ err: error, shard: shard.id }, 'shard error'));
    // A user's "forget my token" reaches every shard process, whichever one the user asked.
    relayForgets(shard, () => this.#manager.shards.values());
  }

  #setState(id: number, state: ShardState): void {
    if (this.#states.get(id) === state) return;
    this.#states.set(id, state);
    this.#options.onState?.(id, state);
    if (this.ready()) this.#markAllReady();
  }

  /** A dead shard starts again after its budget's back-off, unless it died too often (then it stays down). */
  async #respawnLater(shard: Shard): Promise<void> {
    const log = this.#log;
    const budget =
      this.#budgets.get(shard.id) ?? new RespawnBudget(this.#options.respawn ?? DEFAULT_RESPAWN_LIMITS);
    this.#budgets.set(shard.id, budget);
    const decision = budget.died(this.#clock.now());
    if (!decision.respawn) {
      log.error({ shard: shard.id, deaths: decision.deaths }, 'shard keeps dying: giving up on it');
      this.#options.onGiveUp?.(shard.id);
      return;
    }
    log.warn({ shard: shard.id, deaths: decision.deaths, inMs: decision.delayMs }, 'shard died: respawning');
    try {
      await this.#clock.sleep(decision.delayMs, this.#stopping.signal);
    } catch {
      return;
    }
    if (this.#stopping.signal.aborted) return;
    await shard
      .spawn(-1)
      .catch((error: unknown) => log.error({ err: error, shard: shard.id }, 'respawn failed'));
  }
}
