import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { systemClock, unrefSleep, type Clock } from '../core/clock.ts';
import { snapshot, type MetricsSnapshot } from './aggregate.ts';
import { BoundedLabel, statusLabel } from './labels.ts';
import { ReadGauge, readWithin } from './read-gauge.ts';
import {
  SHARD_STATES,
  type BudgetReading,
  type CommandKind,
  type CommandOutcome,
  type CommandRecorder,
  type DeliveryOutcome,
  type RateWindow,
  type ShardState,
  type UpstreamFailure,
  type UpstreamRecorder,
} from './recorders.ts';

export * from './recorders.ts';
export { mergeSnapshots, parseSnapshot, snapshot, PROCESS_LABEL, type MetricsSnapshot } from './aggregate.ts';
export { startOpsServer, type HealthReport, type OpsServer, type OpsServerOptions } from './server.ts';

/**
 * The process's Prometheus metrics (`GET /metrics`), in one registry of its own: built once by the
 * composition root (bot, shard manager, worker) and handed to what it instruments. Not prom-client's
 * global registry, so that every test and every process part has fresh counts.
 *
 * Who records what:
 * - the interaction router: {@link Metrics.command} (given as `RouterOptions.metrics`);
 * - the tier client: {@link Metrics.upstream} and {@link Metrics.budgetSeen} (`TierClientOptions.metrics`);
 * - the announcements: {@link Metrics.pollCycle}, {@link Metrics.delivery}, {@link Metrics.setOutboxDepth};
 * - the shard manager: {@link Metrics.shardStatus}.
 */
export interface MetricsOptions {
  /** Names this process in merged snapshots (`shard-0`, `worker`). Default `main`. */
  readonly process?: string;
  /** Tells when a rate window seen in a reply has reset. System clock by default. */
  readonly clock?: Pick<Clock, 'now'>;
  /** Waits for a callback's time limit (a manual clock in tests); unref'd timers by default. */
  readonly sleep?: Clock['sleep'];
  /** How long a registered callback (outbox depth, budget) may take at scrape time. Default 2000 ms. */
  readonly readTimeoutMs?: number;
  /** Node's own metrics (CPU, memory, event loop, GC), unprefixed as usual. Default true. */
  readonly defaultMetrics?: boolean;
}

const COMMAND_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 15];
const POLL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

type Read<T> = () => T | Promise<T>;

/** One scrape's readings of the registered callbacks; undefined where a read failed or none is registered. */
interface Readings {
  readonly budget: readonly BudgetReading[] | undefined;
  readonly outboxDepth: number | undefined;
}

export class Metrics implements CommandRecorder, UpstreamRecorder {
  readonly registry = new Registry();
  readonly process: string;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #commandNames = new BoundedLabel(100);
  readonly #routes = new BoundedLabel(200);
  readonly #sources = new BoundedLabel(32);
  readonly #windows = new BoundedLabel(32);
  readonly #commands: Counter<'command' | 'kind' | 'outcome'>;
  readonly #commandSeconds: Histogram<'command' | 'kind' | 'outcome'>;
  readonly #upstream: Counter<'route' | 'status'>;
  readonly #rateLimited: Counter<'route'>;
  readonly #pollSeconds: Histogram<'source'>;
  readonly #deliveries: Counter<'outcome'>;
  readonly #shards: Gauge<'shard' | 'state'>;
  readonly #readErrors: Counter<'metric'>;
  /** The last window each reply described, per window name. */
  readonly #seenWindows = new Map<string, RateWindow>();
  #budget: Read<readonly BudgetReading[]>;
  #outboxDepth: Read<number> | undefined;
  /** The readings of the scrape under way, shared by every gauge of that scrape and the error counter. */
  #round: Promise<Readings> | undefined;
  readonly #readTimeoutMs: number;
  readonly #sleep: Clock['sleep'];

  constructor(options: MetricsOptions = {}) {
    this.process = options.process ?? 'main';
    this.#clock = options.clock ?? systemClock;
    const registers = [this.registry];
    const commandLabels = ['command', 'kind', 'outcome'] as const;
    this.#commands = new Counter({
      name: 'killfeed_commands_total',
      help: 'Interactions handled, by command, kind (command, component, modal, autocomplete) and outcome.',
      labelNames: commandLabels,
      registers,
    });
    this.#commandSeconds = new Histogram({
      name: 'killfeed_command_duration_seconds',
      help: 'Time from receiving an interaction to its answer (or failure), in seconds.',
      labelNames: commandLabels,
      buckets: COMMAND_BUCKETS,
      registers,
    });
    this.#upstream = new Counter({
      name: 'killfeed_upstream_requests_total',
      help: 'Requests sent to the game API, by route and HTTP status (aborted, network, too_large: none).',
      labelNames: ['route', 'status'],
      registers,
    });
    this.#rateLimited = new Counter({
      name: 'killfeed_upstream_rate_limited_total',
      help: 'Replies with status 429 received from the game API, by route.',
      labelNames: ['route'],
      registers,
    });
    this.#pollSeconds = new Histogram({
      name: 'killfeed_poll_cycle_duration_seconds',
      help: 'Duration of one poll cycle, by announcement source, in seconds.',
      labelNames: ['source'],
      buckets: POLL_BUCKETS,
      registers,
    });
    this.#deliveries = new Counter({
      name: 'killfeed_deliveries_total',
      help: 'Announcement deliveries recorded, by outcome.',
      labelNames: ['outcome'],
      registers,
    });
    this.#shards = new Gauge({
      name: 'killfeed_shard_status',
      help: 'Gateway shards: 1 for the state each shard is in, 0 for the others.',
      labelNames: ['shard', 'state'],
      registers,
    });
    this.#readErrors = new Counter({
      name: 'killfeed_metrics_read_errors_total',
      help: 'Scrape-time readings (outbox depth, budget) that failed or took too long, by metric.',
      labelNames: ['metric'],
      registers,
      // Counted in the same scrape as the failure (every metric of a scrape is gathered at once).
      collect: async () => {
        await this.#readings();
      },
    });
    this.#budget = () => this.#observedBudget();
    this.#readTimeoutMs = options.readTimeoutMs ?? 2_000;
    this.#sleep = options.sleep ?? unrefSleep;
    this.#budgetGauges();
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** What is left of the key's rate windows, and their limits, read at scrape time. */
  #budgetGauges(): void {
    const budgetGauge = (name: string, help: string, pick: (reading: BudgetReading) => number) =>
      new ReadGauge({
        name,
        help,
        labelNames: ['window'],
        registry: this.registry,
        read: async () =>
          ((await this.#readings()).budget ?? []).map((reading) => ({
            labels: { window: this.#windows.pick(reading.window) },
            value: pick(reading),
          })),
      });
    budgetGauge(
      'killfeed_api_budget_remaining',
      'Requests left in the current game API rate window of the process key (general, or a route of its own).',
      (reading) => reading.remaining,
    );
    budgetGauge(
      'killfeed_api_budget_limit',
      'Requests allowed per game API rate window of the process key.',
      (reading) => reading.limit,
    );
  }

  command(name: string, kind: CommandKind, outcome: CommandOutcome, seconds: number): void {
    const labels = { command: this.#commandNames.pick(name), kind, outcome };
    this.#commands.inc(labels);
    this.#commandSeconds.observe(labels, Math.max(0, seconds));
  }

  upstream(route: string, status: number | UpstreamFailure): void {
    const name = this.#routes.pick(route);
    this.#upstream.inc({ route: name, status: statusLabel(status) });
    if (status === 429) this.#rateLimited.inc({ route: name });
  }

  budgetSeen(window: string, seen: RateWindow): void {
    this.#seenWindows.set(this.#windows.pick(window), seen);
  }

  /**
   * Replaces where the budget gauges read from (by default: the windows replies described, each full
   * again once its reset time has passed), e.g. with a limiter shared by several processes.
   */
  setBudgetSource(read: Read<readonly BudgetReading[]>): void {
    this.#budget = read;
  }

  /** One poll cycle of `source` (a fixed source name such as `events`, never a server's address). */
  pollCycle(source: string, seconds: number): void {
    this.#pollSeconds.observe({ source: this.#sources.pick(source) }, Math.max(0, seconds));
  }

  /** One delivery recorded, by its outcome (the deliverer's `onOutcome`). */
  delivery(outcome: DeliveryOutcome): void {
    this.#deliveries.inc({ outcome });
  }

  /**
   * Registers how to read the outbox's depth (events waiting to be delivered); the gauge
   * `killfeed_outbox_depth` exists from then on, in the process that has the outbox.
   */
  setOutboxDepth(read: Read<number>): void {
    if (this.#outboxDepth === undefined) {
      new ReadGauge({
        name: 'killfeed_outbox_depth',
        help: 'Announcements in the outbox waiting to be delivered.',
        labelNames: [],
        registry: this.registry,
        read: async () => {
          const depth = (await this.#readings()).outboxDepth;
          return depth === undefined ? [] : [{ labels: {}, value: depth }];
        },
      });
    }
    this.#outboxDepth = read;
  }

  /** A shard's state as the manager sees it (one series per shard and state, 1 for the current one). */
  shardStatus(shard: number, state: ShardState): void {
    if (!Number.isSafeInteger(shard) || shard < 0) throw new RangeError(`not a shard id: ${shard}`);
    for (const each of SHARD_STATES)
      this.#shards.set({ shard: String(shard), state: each }, each === state ? 1 : 0);
  }

  /** The Prometheus text of this registry. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** This registry as JSON for a parent process to merge (`mergeSnapshots`). */
  snapshot(): Promise<MetricsSnapshot> {
    return snapshot(this.registry, this.process);
  }

  #readings(): Promise<Readings> {
    this.#round ??= this.#readAll().finally(() => (this.#round = undefined));
    return this.#round;
  }

  async #readAll(): Promise<Readings> {
    const attempt = async <T>(metric: string, read: Read<T> | undefined): Promise<T | undefined> => {
      if (read === undefined) return undefined;
      try {
        return await readWithin(read, this.#readTimeoutMs, this.#sleep);
      } catch {
        this.#readErrors.inc({ metric });
        return undefined;
      }
    };
    const [budget, outboxDepth] = await Promise.all([
      attempt('api_budget', this.#budget),
      attempt('outbox_depth', this.#outboxDepth),
    ]);
    return { budget, outboxDepth };
  }

  #observedBudget(): BudgetReading[] {
    const now = this.#clock.now();
    return [...this.#seenWindows].map(([window, seen]) => ({
      window,
      limit: seen.limit,
      remaining: seen.resetAt <= now ? seen.limit : seen.remaining,
    }));
  }
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  return new Metrics(options);
}
