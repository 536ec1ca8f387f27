import type { Deliverer } from './delivery.ts';
import type { Listening } from './ingress.ts';
import type { LeaderState, Leadership } from './leadership.ts';
import type { RecordPurge } from './maintenance.ts';
import type { Outbox } from './outbox.ts';
import type { SourceLoop } from './source-loop.ts';

/**
 * The running announcement pipeline, as the process that built it holds it: its state, a poll on
 * demand (tests), and the stop. No event passes through here: a source loop's poll stores into the
 * inbox and kicks the outbox, whose passes the deliverer makes (see `src/worker.ts`, which builds them).
 */
export interface Announcements {
  /** The webhook receiver, when WEBHOOK_PORT, WEBHOOK_SECRET and WEBHOOK_SERVICE are set and it listens. */
  readonly webhook: { readonly port: number; readonly url: string } | undefined;
  /** Why a configured receiver is not listening (e.g. `EADDRINUSE`); polling and delivery go on without it. */
  readonly webhookError: string | undefined;
  /** Whether this process is the worker now. */
  readonly state: LeaderState;
  /**
   * Takes the worker lease if it is free (or renews it), then polls every source once and delivers what
   * they found before resolving (tests; the loops do this on their own schedules). Does nothing when
   * another process is the worker.
   */
  pollOnce(): Promise<void>;
  /** Takes the worker lease if it is free (or renews it) and delivers whatever is pending now. */
  flush(): Promise<void>;
  /** Counters since start: `quarantined`, events set aside after failing every pass. */
  readonly stats: { readonly quarantined: number };
  stop(): Promise<void>;
}

/** The parts, built by the composition root. */
export interface PipelineParts {
  readonly leadership: Leadership;
  /** One loop per source, in the order `pollOnce` polls them. */
  readonly loops: readonly SourceLoop[];
  readonly outbox: Outbox;
  readonly deliverer: Pick<Deliverer, 'quarantined'>;
  readonly purge: RecordPurge;
  readonly listening: Listening;
  /** Resolves when posting may begin (the gateway is ready). */
  readonly discordReady: Promise<void>;
  /** The signal every part stops on; aborted by `stop()`. */
  readonly stopping: AbortController;
}

export class AnnouncementPipeline implements Announcements {
  readonly #parts: PipelineParts;
  /** Posting may begin, or the pipeline is stopping. */
  readonly #ready: Promise<void>;
  readonly #running: Promise<unknown>[] = [];
  #shutdown: Promise<void> | undefined;

  constructor(parts: PipelineParts) {
    this.#parts = parts;
    const stopping = parts.stopping.signal;
    this.#ready = Promise.race([
      parts.discordReady,
      new Promise<void>((resolve) => stopping.addEventListener('abort', () => resolve(), { once: true })),
    ]);
  }

  /** Runs the lease, every source loop and the hourly purge, once posting may begin. */
  start(): this {
    const { leadership, loops, purge } = this.#parts;
    this.#running.push(
      this.#ready.then(() => leadership.run()),
      ...loops.map((loop) => this.#ready.then(() => loop.run())),
      purge.run(),
    );
    return this;
  }

  get webhook(): Announcements['webhook'] {
    const receiver = this.#parts.listening.receiver;
    return receiver && { port: receiver.port, url: receiver.url };
  }

  get webhookError(): string | undefined {
    return this.#parts.listening.error;
  }

  get state(): LeaderState {
    return this.#parts.leadership.state;
  }

  get stats(): Announcements['stats'] {
    const deliverer = this.#parts.deliverer;
    return {
      get quarantined() {
        return deliverer.quarantined;
      },
    };
  }

  async pollOnce(): Promise<void> {
    const { leadership, loops, stopping } = this.#parts;
    await this.#ready;
    if (!(await leadership.check())) return;
    const term = leadership.term;
    if (!term) return;
    const failures: unknown[] = [];
    for (const loop of loops) {
      if (stopping.signal.aborted || term.aborted) break;
      try {
        await loop.pollNow(term);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  async flush(): Promise<void> {
    const { leadership, outbox, stopping } = this.#parts;
    await this.#ready;
    await leadership.check();
    const term = leadership.term;
    if (term) await outbox.drain(AbortSignal.any([stopping.signal, term]));
  }

  stop(): Promise<void> {
    this.#shutdown ??= (async () => {
      const { leadership, outbox, stopping, listening } = this.#parts;
      stopping.abort(new Error('announcements stopped'));
      await listening.receiver?.close();
      await Promise.allSettled(this.#running);
      await outbox.idle();
      await leadership.stop();
    })();
    return this.#shutdown;
  }
}
