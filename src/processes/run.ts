import type { Logger } from 'pino';
import type { Config, ProcessRole } from '../config/index.ts';
import {
  createMetrics,
  startOpsServer,
  type HealthReport,
  type Metrics,
  type OpsServer,
} from '../metrics/index.ts';
import { startWorker, type Worker } from '../worker.ts';
import { processEnvironment, type Environment } from './environment.ts';
import { mergedMetrics, processHealth } from './ops.ts';
import { fetchGatewayBot, planShards } from './shard-count.ts';
import { startShardFleet, type ShardFleet, type ShardFleetOptions } from './shards.ts';

/**
 * One process of the bot, by `PROCESS_ROLE`:
 * - `all` (the default, for a small bot on one machine): the shard manager with its shard processes, and
 *   the worker in this process;
 * - `shards`: the shard manager and its shard processes (`SHARD_IDS` of `SHARD_COUNT` on this machine);
 * - `worker`: only the worker (pollers, webhook receiver, fan-out), which posts through Discord's REST API.
 *
 * With `HTTP_PORT` set, this process serves `/healthz` and `/metrics` for itself and its shards (the shard
 * processes serve none). `stop()` stops the shards, then the worker, then the endpoint.
 */
export interface ProcessOptions {
  readonly config: Config;
  readonly token: string;
  readonly log: Logger;
  /** The shard processes' environment (the configuration); this process's by default. */
  readonly env?: Environment;
  /** Tuning of the shard fleet (tests shorten its pauses). */
  readonly fleet?: Pick<
    ShardFleetOptions,
    'spawnDelayMs' | 'readyTimeoutMs' | 'respawn' | 'stopTimeoutMs' | 'entry' | 'clock'
  >;
  /** Something this process cannot recover from (a shard that keeps dying): the caller stops it. */
  readonly onFatal?: (reason: string) => void;
}

export interface RunningProcess {
  readonly role: ProcessRole;
  readonly metrics: Metrics;
  readonly fleet: ShardFleet | undefined;
  readonly worker: Worker | undefined;
  /** The `/healthz` and `/metrics` endpoint, when HTTP_PORT is set. */
  readonly ops: OpsServer | undefined;
  health(): HealthReport;
  stop(): Promise<void>;
}

export async function startProcess(options: ProcessOptions): Promise<RunningProcess> {
  const { config, token, log } = options;
  const role = config.processes.role;
  const expects = { shards: role !== 'worker', worker: role !== 'shards' };
  const metrics = createMetrics({ process: role === 'worker' ? 'worker' : 'manager' });
  let fleet: ShardFleet | undefined;
  let worker: Worker | undefined;
  let ops: OpsServer | undefined;
  let stopping = false;
  const health = () => processHealth({ fleet, worker: worker?.health(), expects, stopping });

  const stopAll = async () => {
    stopping = true;
    await fleet?.stop();
    await worker?.stop();
    await ops?.close();
  };

  try {
    if (config.http.port !== undefined) {
      ops = await startOpsServer({
        port: config.http.port,
        host: config.http.host,
        health,
        metrics: () => mergedMetrics(metrics, fleet),
        log,
      });
    }
    if (expects.shards) {
      const plan = await planShards(config.processes, () => fetchGatewayBot(config.discord.apiUrl, token));
      log.info(
        { total: plan.total, ids: plan.ids, asked: config.processes.shardCount === 'auto' },
        'shard plan',
      );
      fleet = startShardFleet({
        ...options.fleet,
        plan,
        token,
        env: options.env ?? processEnvironment(),
        log: log.child({ subsystem: 'shards' }),
        onState: (id, state) => metrics.shardStatus(id, state),
        onGiveUp: (id) => options.onFatal?.(`shard ${id} keeps dying`),
      });
    }
    if (expects.worker) {
      worker = await startWorker({ config, token, logger: log.child({ subsystem: 'worker' }), metrics });
    }
  } catch (error) {
    await stopAll().catch((failure: unknown) =>
      log.error({ err: failure }, 'could not stop after a failed start'),
    );
    throw error;
  }

  let stopped: Promise<void> | undefined;
  return {
    role,
    metrics,
    fleet,
    worker,
    ops,
    health,
    stop() {
      stopped ??= stopAll();
      return stopped;
    },
  };
}
