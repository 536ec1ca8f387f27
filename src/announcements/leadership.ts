import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import type { Lease } from './lease.ts';

/**
 * Whether this process is the worker: the one that polls, fans out and delivers. It holds a lease in the
 * shared store and renews it every third of its lifetime; a standby tries to take it just as often, so
 * when the worker dies, a standby takes over within one lease period. Each term of office has its own
 * abort signal, aborted when the lease is lost (another process took it, or it could not be renewed in
 * time), so that work begun under a lost lease stops at its next step.
 */
export type LeaderState = 'starting' | 'active' | 'standby' | 'stopped';

export class Leadership {
  readonly #lease: Lease;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #stopping: AbortSignal;
  #state: LeaderState = 'starting';
  #term: AbortController | undefined;
  #became: Array<() => void> = [];
  /** When the lease was last known held, by this process's clock; it is ours until that plus its lifetime. */
  #heldAt = 0;
  #failing = false;
  #checking: Promise<boolean> | undefined;

  constructor(lease: Lease, clock: Clock, log: Logger, stopping: AbortSignal) {
    this.#lease = lease;
    this.#clock = clock;
    this.#log = log;
    this.#stopping = stopping;
  }

  get state(): LeaderState {
    return this.#state;
  }

  /** The current term's signal, when this process is the worker now. */
  get term(): AbortSignal | undefined {
    return this.#state === 'active' ? this.#term?.signal : undefined;
  }

  /**
   * Takes or renews the lease once; true when this process holds it afterwards. A check asked for while
   * one is under way (a poll and a flush at once) joins it: two renewals at once would compare-and-set the
   * same entry, and the one that lost would depose this process although the other had just renewed.
   */
  check(): Promise<boolean> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async #check(): Promise<boolean> {
    if (this.#stopping.aborted) return false;
    let held: boolean;
    try {
      held = this.#state === 'active' ? await this.#lease.renew() : await this.#lease.acquire();
      if (this.#failing) this.#log.info('the worker lease can be checked again');
      this.#failing = false;
    } catch (error) {
      // The store did not answer. The lease is still ours until it expires (nobody else can have taken
      // it before): work goes on until then, with a safety margin, and stops after.
      if (!this.#failing) this.#log.warn({ err: error }, 'could not check the worker lease');
      this.#failing = true;
      held = this.#state === 'active' && this.#clock.now() < this.#heldAt + (this.#lease.ttlMs * 2) / 3;
    }
    if (held) this.#heldAt = this.#failing ? this.#heldAt : this.#clock.now();
    if (held && this.#state !== 'active') {
      this.#term = new AbortController();
      this.#state = 'active';
      this.#log.info({ lease: this.#lease.name }, 'this process is now the worker');
      for (const resolve of this.#became.splice(0)) resolve();
    } else if (!held && this.#state !== 'standby') {
      if (this.#state === 'active')
        this.#log.warn({ lease: this.#lease.name }, 'lost the worker lease; standing by');
      this.#term?.abort(new Error('lost the worker lease'));
      this.#state = 'standby';
    }
    return held;
  }

  /** Checks the lease every third of its lifetime until stopped. */
  async run(): Promise<void> {
    const everyMs = Math.max(10, Math.floor(this.#lease.ttlMs / 3));
    while (!this.#stopping.aborted) {
      await this.check();
      await this.#clock.sleep(everyMs, this.#stopping).catch(() => undefined);
    }
  }

  /** Resolves once this process is the worker (or stopping). */
  whenActive(): Promise<void> {
    if (this.#state === 'active' || this.#stopping.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      // Each wait takes its listener off the long-lived stopping signal when it ends, either way: a
      // standby that waits many times leaves none behind.
      const done = () => {
        this.#stopping.removeEventListener('abort', done);
        resolve();
      };
      this.#became.push(done);
      this.#stopping.addEventListener('abort', done, { once: true });
    });
  }

  /** Ends the term and gives the lease up, so that a standby need not wait for it to expire. */
  async stop(): Promise<void> {
    this.#term?.abort(new Error('stopped'));
    const wasActive = this.#state === 'active';
    this.#state = 'stopped';
    for (const resolve of this.#became.splice(0)) resolve();
    if (wasActive) await this.#lease.release().catch(() => undefined);
  }
}
