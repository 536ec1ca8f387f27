import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import type { Leadership } from './leadership.ts';
import type { Subscription } from './model.ts';
import type { Outbox } from './outbox.ts';
import type { Source } from './sources.ts';

/** What a source loop reports, when metrics are handed in. */
export interface PollMetrics {
  pollCycle(source: string, seconds: number): void;
}

export interface SourceLoopDeps {
  readonly source: Source;
  /** Polls happen only while this process is the worker, each under the term it began in. */
  readonly leadership: Leadership;
  /** Where a poll's deliveries go once its events are in the inbox. */
  readonly outbox: Outbox;
  /** The active subscriptions (kept by the composition root, shared by every loop and the deliverer). */
  readonly subscriptions: () => Promise<readonly Subscription[]>;
  readonly clock: Clock;
  readonly log: Logger;
  /** Time between the starts of two polls. */
  readonly intervalMs: number;
  /** How often a loop without a term looks again (a third of the worker lease's lifetime). */
  readonly standbyCheckMs: number;
  /** Aborted when the pipeline stops. */
  readonly stopping: AbortSignal;
  readonly metrics?: PollMetrics | undefined;
}

/** Longest back-off of a failing source, in intervals. */
const MAX_BACKOFF_INTERVALS = 8;

/**
 * One source on its own schedule: while this process is the worker, it polls every interval, and a poll
 * that failed (the store or the game API is down) makes the next one wait longer each time, up to eight
 * intervals; only the first failure of a run is a warning, so there is no spinning and no log flood.
 * Nothing is lost meanwhile: cursors, the turf state and the inbox stay where the last good poll left
 * them. A poll stores its events in the inbox itself (`sources.ts`); this loop hands the outbox the
 * delivery of what the poll stored, without waiting for it, so a long fan-out never delays a poll.
 */
export class SourceLoop {
  readonly #deps: SourceLoopDeps;
  #failures = 0;

  constructor(deps: SourceLoopDeps) {
    this.#deps = deps;
  }

  get name(): string {
    return this.#deps.source.name;
  }

  /** One poll now under `term`, its deliveries waited for (`pollOnce`; tests); rejects when it fails. */
  pollNow(term: AbortSignal): Promise<void> {
    const signal = this.#termSignal(term);
    return this.#poll(signal, () => this.#deps.outbox.drain(signal));
  }

  /** Polls on schedule until the pipeline stops. */
  async run(): Promise<void> {
    const { leadership, clock, stopping } = this.#deps;
    // A function: the signal changes while this loop waits, which a narrowed property would hide.
    const stopped = () => stopping.aborted;
    while (!stopped()) {
      await leadership.whenActive();
      const term = leadership.term;
      if (stopped()) break;
      if (!term) {
        await clock.sleep(this.#deps.standbyCheckMs, stopping).catch(() => undefined);
        continue;
      }
      const waitMs = await this.#scheduledPoll(this.#termSignal(term));
      await clock.sleep(waitMs, stopping).catch(() => undefined);
    }
  }

  /** One poll of the schedule; returns how long to wait before the next one. */
  async #scheduledPoll(signal: AbortSignal): Promise<number> {
    const { clock, log, intervalMs: every, outbox } = this.#deps;
    const begun = clock.now();
    try {
      await this.#poll(signal, () => {
        outbox.kick(signal);
        return Promise.resolve();
      });
    } catch (error) {
      return signal.aborted ? every : this.#backOff(error);
    }
    if (this.#failures > 0) log.info({ source: this.name, failures: this.#failures }, 'polling works again');
    this.#failures = 0;
    // Polls start every interval (a long one is followed by the next one sooner, never at once).
    return Math.max(every / 10, every - (clock.now() - begun));
  }

  #backOff(error: unknown): number {
    const { log, intervalMs: every } = this.#deps;
    this.#failures += 1;
    const failures = this.#failures;
    const waitMs = Math.min(MAX_BACKOFF_INTERVALS * every, every * 2 ** Math.min(failures - 1, 3));
    if (failures === 1)
      log.warn({ err: error, source: this.name, waitMs }, 'poll failed; backing off until it works again');
    else log.debug({ err: error, source: this.name, failures, waitMs }, 'poll failed again');
    return waitMs;
  }

  /** One poll, timed; `deliver` says what its deliveries do (wait for them, or kick them). */
  async #poll(signal: AbortSignal, deliver: () => Promise<void>): Promise<void> {
    const { source, metrics, intervalMs } = this.#deps;
    const started = performance.now();
    const subscriptions = await this.#deps.subscriptions();
    if (!source.wanted(subscriptions)) return;
    await source.poll({ subscriptions, signal, deliver, spreadMs: intervalMs / 2 });
    metrics?.pollCycle(source.name, (performance.now() - started) / 1000);
  }

  /** Work under a term stops when the term ends (the lease is lost) or the pipeline stops. */
  #termSignal(term: AbortSignal): AbortSignal {
    return AbortSignal.any([this.#deps.stopping, term]);
  }
}
