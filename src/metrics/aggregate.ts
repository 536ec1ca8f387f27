import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';
import { z } from 'zod';

/**
 * Metrics of several processes as one `/metrics`: each child sends `snapshot(...)` (plain JSON, fit for
 * IPC), the parent merges them with its own through prom-client's `AggregatorRegistry.aggregate`.
 *
 * The aggregation sums series that have the same name and labels. That is right for counters and
 * histograms (commands, upstream calls, deliveries: the bot's totals), and wrong for gauges: the
 * budget each process last saw, its memory, its outbox depth are not meant to be added up. So a
 * snapshot labels every gauge series with `process="<name>"`, which keeps them apart; counters and
 * histograms carry no such label and are summed. (A gauge whose prom-client `aggregator` is `omit`,
 * such as `process_start_time_seconds`, is left out of the merge, as prom-client intends.)
 */
export const PROCESS_LABEL = 'process';

const labelValue = z.union([z.string().max(1_000), z.number()]);

const snapshotSchema = z
  .array(
    z.object({
      name: z.string().max(200),
      help: z.string().max(2_000),
      type: z.enum(['counter', 'gauge', 'histogram', 'summary']),
      aggregator: z.enum(['sum', 'first', 'min', 'max', 'average', 'omit']),
      values: z
        .array(
          z.object({
            value: z.number(),
            labels: z.record(z.string().max(200), labelValue),
            metricName: z.string().max(200).optional(),
          }),
        )
        .max(100_000),
    }),
  )
  .max(10_000);

export type MetricsSnapshot = z.infer<typeof snapshotSchema>;

/** The registry as JSON, every gauge series labelled with `process`; values that are not finite are left out. */
export async function snapshot(registry: Registry, process: string): Promise<MetricsSnapshot> {
  const metrics = (await registry.getMetricsAsJSON()) as unknown as Array<{
    name: string;
    help: string;
    type: MetricsSnapshot[number]['type'];
    aggregator?: MetricsSnapshot[number]['aggregator'];
    values: Array<{ value: number; labels: Record<string, string | number>; metricName?: string }>;
  }>;
  return metrics.map((metric) => ({
    name: metric.name,
    help: metric.help,
    type: metric.type,
    aggregator: metric.aggregator ?? 'sum',
    values: metric.values
      .filter((value) => Number.isFinite(value.value))
      .map((value) => ({
        value: value.value,
        labels: metric.type === 'gauge' ? { ...value.labels, [PROCESS_LABEL]: process } : { ...value.labels },
        ...(value.metricName === undefined ? {} : { metricName: value.metricName }),
      })),
  }));
}

/** A snapshot received from another process, checked; undefined when it is not one. */
export function parseSnapshot(value: unknown): MetricsSnapshot | undefined {
  const parsed = snapshotSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Several snapshots (the parent's own included) as one Prometheus text: counters and histograms summed. */
export async function mergeSnapshots(list: readonly MetricsSnapshot[]): Promise<string> {
  return AggregatorRegistry.aggregate<PrometheusContentType>([...list]).metrics();
}
