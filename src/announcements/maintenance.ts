import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import type { Leadership } from './leadership.ts';

/** How often the worker removes the announcement records whose time is up. */
export const PURGE_EVERY_MS = 60 * 60_000;

export interface RecordPurgeDeps {
  /** Deletes what expired before `now` (`purgeExpiredRecords`); resolves with how many rows went. */
  readonly purge: (now: number) => Promise<number>;
  readonly leadership: Leadership;
  readonly clock: Clock;
  readonly log: Logger;
  readonly stopping: AbortSignal;
}

/**
 * The worker's hourly clean-up of done events, set-aside events, deliveries, intents and message refs
 * past their time: only while this process is the worker, and a failed run is a warning, tried again
 * the next hour.
 */
export class RecordPurge {
  readonly #deps: RecordPurgeDeps;

  constructor(deps: RecordPurgeDeps) {
    this.#deps = deps;
  }

  async run(): Promise<void> {
    const { leadership, clock, log, stopping } = this.#deps;
    const stopped = () => stopping.aborted;
    while (!stopped()) {
      await clock.sleep(PURGE_EVERY_MS, stopping).catch(() => undefined);
      if (stopped() || leadership.state !== 'active') continue;
      try {
        const removed = await this.#deps.purge(clock.now());
        if (removed > 0) log.debug({ removed }, 'purged expired announcement records');
      } catch (error) {
        log.warn({ err: error }, 'purging expired announcement records failed');
      }
    }
  }
}
