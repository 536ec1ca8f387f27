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
  const { plan, log } = options;
  const clock = options.clock ?? systemClock;
  const entry = options.entry ?? shardEntry();
  const spawnDelayMs = options.spawnDelayMs ?? 5_500;
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  const stopping = new AbortController();
  const states = new Map<number, ShardState>();
  const budgets = new Map<number, RespawnBudget>();
  let markAllReady: () => void = () => undefined;
  const allReady = new Promise<void>((resolve, reject) => {
    markAllReady = resolve;
    stopping.signal.addEventListener('abort', () => reject(new Error('the shards stopped')), { once: true });
  });
  allReady.catch(() => undefined);

  const manager = keepingEnvironment(
    () =>
      new ShardingManager(entry.file, {
        totalShards: plan.total,
        shardList: [...plan.ids],
        mode: 'process',
        // Respawning is ours (bounded, with back-off); the manager's would restart a crash loop at once.
        respawn: false,
        execArgv: [...entry.execArgv],
        token: options.token,
      }),
  );

  const setState = (id: number, state: ShardState) => {
    if (states.get(id) === state) return;
    states.set(id, state);
    options.onState?.(id, state);
    if (plan.ids.every((shardId) => states.get(shardId) === 'ready')) markAllReady();
  };

  const respawnLater = async (shard: Shard) => {
    const budget = budgets.get(shard.id) ?? new RespawnBudget(options.respawn ?? DEFAULT_RESPAWN_LIMITS);
    budgets.set(shard.id, budget);
    const decision = budget.died(clock.now());
    if (!decision.respawn) {
      log.error({ shard: shard.id, deaths: decision.deaths }, 'shard keeps dying: giving up on it');
      options.onGiveUp?.(shard.id);
      return;
    }
    log.warn({ shard: shard.id, deaths: decision.deaths, inMs: decision.delayMs }, 'shard died: respawning');
    try {
      await clock.sleep(decision.delayMs, stopping.signal);
    } catch {
      return;
    }
    if (stopping.signal.aborted) return;
    await shard
      .spawn(-1)
      .catch((error: unknown) => log.error({ err: error, shard: shard.id }, 'respawn failed'));
  };

  manager.on('shardCreate', (shard) => {
    shard.env = shardEnvironment(options.env, shard.id, plan.total, options.token);
    shard.on('spawn', () => {
      setState(shard.id, 'starting');
      log.info({ shard: shard.id, pid: shard.process?.pid }, 'shard process started');
    });
    shard.on('ready', () => {
      setState(shard.id, 'ready');
      log.info({ shard: shard.id }, 'shard ready');
    });
    shard.on('resume', () => setState(shard.id, 'ready'));
    shard.on('reconnecting', () => setState(shard.id, 'reconnecting'));
    shard.on('disconnect', () => {
      setState(shard.id, 'disconnected');
      log.warn({ shard: shard.id }, 'shard disconnected');
    });
    shard.on('death', (child) => {
      setState(shard.id, 'dead');
      if (stopping.signal.aborted) return;
      const exit = 'exitCode' in child ? { code: child.exitCode, signal: child.signalCode } : {};
      log.warn({ shard: shard.id, ...exit }, 'shard process exited');
      void respawnLater(shard);
    });
    shard.on('error', (error) => log.error({ err: error, shard: shard.id }, 'shard error'));
    // A user's "forget my token" reaches every shard process, whichever one the user asked.
    relayForgets(shard, () => manager.shards.values());
  });

  /** Resolves when every shard of `group` is ready or dead, or `readyTimeoutMs` passed, or stop. */
  const settled = async (group: readonly Shard[]) => {
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
        once(stopping.signal, 'abort', { signal: timeout.signal }),
      ]);
    } catch {
      // aborted below
    } finally {
      timeout.abort();
    }
  };

  const spawning = (async () => {
    const size = Math.max(1, plan.maxConcurrency);
    for (let start = 0; start < plan.ids.length && !stopping.signal.aborted; start += size) {
      if (start > 0 && spawnDelayMs > 0) await clock.sleep(spawnDelayMs, stopping.signal);
      const group = plan.ids.slice(start, start + size).map((id) => manager.createShard(id));
      for (const shard of group) await shard.spawn(-1);
      await settled(group);
    }
  })().catch((error: unknown) => {
    if (!stopping.signal.aborted) log.error({ err: error }, 'could not start the shards');
  });
  log.info({ total: plan.total, ids: plan.ids }, 'starting shards');

  const stopShard = async (shard: Shard) => {
    const child = shard.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit').then(() => undefined);
    shard.kill(); // SIGTERM, without the manager's respawn
    const timer = new AbortController();
    // Not a reason to keep the process alive, unless a clock was given (a test's manual one).
    const late = (options.clock ? clock.sleep.bind(clock) : unrefSleep)(stopTimeoutMs, timer.signal).then(
      () => true,
      () => false,
    );
    if (await Promise.race([exited.then(() => false), late])) {
      log.warn({ shard: shard.id }, 'shard process did not stop in time: killing it');
      child.kill('SIGKILL');
      await exited;
    }
    timer.abort();
  };

  let stopped: Promise<void> | undefined;
  return {
    plan,
    states: () => new Map(states),
    ready: () => plan.ids.every((id) => states.get(id) === 'ready'),
    allReady,
    pids: () => {
      const pids = new Map<number, number>();
      for (const shard of manager.shards.values()) {
        if (shard.process?.pid !== undefined) pids.set(shard.id, shard.process.pid);
      }
      return pids;
    },
    async metrics(timeoutMs) {
      const live = [...manager.shards.values()].filter((shard) => shard.process !== null);
      const snapshots = await Promise.all(live.map((shard) => requestMetrics(shard, timeoutMs)));
      return snapshots.filter((snapshot) => snapshot !== undefined);
    },
    stop() {
      stopped ??= (async () => {
        stopping.abort(new Error('stopping'));
        await spawning;
        await Promise.all([...manager.shards.values()].map(stopShard));
        log.info('shards stopped');
      })();
      return stopped;
    },
  };
}
