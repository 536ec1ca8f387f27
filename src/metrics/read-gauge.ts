import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../core/clock.ts';

/**
 * Gauges whose values are read at scrape time from a function another module registered (the outbox's
 * depth from the database, the rate budget from the limiter). When the read has failed, the gauge has no
 * values for that scrape: the series is absent, neither stale nor zero.
 */
export interface GaugeReading<L extends string = string> {
  readonly labels: Partial<Record<L, string>>;
  readonly value: number;
}

export interface ReadGaugeOptions<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  readonly registry: Registry;
  /** This scrape's values; an empty list when the reading failed. */
  readonly read: () => Promise<ReadonlyArray<GaugeReading<L>>>;
}

export class ReadGauge<L extends string> extends Gauge<L> {
  readonly #read: ReadGaugeOptions<L>['read'];

  constructor(options: ReadGaugeOptions<L>) {
    super({
      name: options.name,
      help: options.help,
      labelNames: options.labelNames,
      registers: [options.registry],
    });
    this.#read = options.read;
  }

  override async get(): ReturnType<Gauge<L>['get']> {
    const readings = await this.#read();
    const base = await super.get();
    return {
      ...base,
      values: readings
        .filter((reading) => Number.isFinite(reading.value))
        .map((reading) => ({ value: reading.value, labels: reading.labels })),
    };
  }
}

/** `read()`'s value, or a rejection once `timeoutMs` have passed first (a read that hangs does not hang a scrape). */
export async function readWithin<T>(
  read: () => T | Promise<T>,
  timeoutMs: number,
  sleep: Clock['sleep'],
): Promise<T> {
  const timer = new AbortController();
  const timeout = sleep(timeoutMs, timer.signal).then(
    () => Promise.reject(new Error(`no reading within ${timeoutMs} ms`)),
    () => new Promise<never>(() => undefined),
  );
  try {
    return await Promise.race([Promise.resolve().then(read), timeout]);
  } finally {
    timer.abort();
  }
}
