import {
  mergeSnapshots,
  parseSnapshot,
  type HealthReport,
  type Metrics,
  type MetricsSnapshot,
} from '../metrics/index.ts';
import type { WorkerHealth } from '../worker.ts';
import type { ShardFleet } from './shards.ts';

/**
 * What the operations endpoint of a manager or worker process says (src/metrics/server.ts serves it):
 * `/healthz` is ready only when every shard of this process is ready and, where this process runs the
 * worker, the worker is up (working or standing by); `/metrics` is this process's registry merged with
 * the snapshots its shard processes send over IPC (counters and histograms summed, gauges per process).
 */
export interface ProcessParts {
  readonly fleet?: ShardFleet | undefined;
  /** The worker's health, where this process runs it and it has started. */
  readonly worker?: WorkerHealth | undefined;
  /** Whether this process runs a fleet or a worker it is still starting. */
  readonly expects: { readonly shards: boolean; readonly worker: boolean };
  readonly stopping?: boolean;
}

export function processHealth(parts: ProcessParts): HealthReport {
  const { fleet, expects } = parts;
  const shards = fleet ? Object.fromEntries(fleet.states()) : undefined;
  const shardsReady = !expects.shards || (fleet?.ready() ?? false);
  const { worker } = parts;
  const workerReady = !expects.worker || (worker?.ready ?? false);
  const ready = !parts.stopping && shardsReady && workerReady;
  const status = parts.stopping ? 'stopping' : ready ? 'ok' : 'starting';
  return {
    ready,
    body: {
      status,
      ...(expects.shards ? { shards: shards ?? {} } : {}),
      ...(expects.worker ? { worker: worker ?? { ready: false, state: 'starting' } } : {}),
    },
  };
}

/** How long `/metrics` waits for a shard process's snapshot; one that does not answer is left out. */
export const SHARD_METRICS_TIMEOUT_MS = 2_000;

/** This process's metrics and its shard processes', as one Prometheus text. */
export async function mergedMetrics(
  own: Metrics,
  fleet: ShardFleet | undefined,
  timeoutMs = SHARD_METRICS_TIMEOUT_MS,
): Promise<string> {
  const received = fleet ? await fleet.metrics(timeoutMs) : [];
  const children = received
    .map((value) => parseSnapshot(value))
    .filter((snapshot): snapshot is MetricsSnapshot => snapshot !== undefined);
  return mergeSnapshots([await own.snapshot(), ...children]);
}
