import type { Logger } from 'pino';

/** What the outbox hands its passes to: the deliverer (`delivery.ts`). */
export interface OutboxDeliverer {
  /** Delivers every event pending in the inbox, oldest first; rejects when the pass fails. */
  deliverPending(signal: AbortSignal): Promise<void>;
}

/**
 * The fan-out, beside the pollers rather than inside them: a poll stores what it found in the inbox and
 * kicks the outbox, which delivers in its own passes, one at a time. A kick during a pass asks for one
 * more pass after it (kicks in between fold into that one), so a 10,000-channel announcement never holds
 * up the next poll, and nothing stored is left behind.
 */
export class Outbox {
  readonly #deliverer: OutboxDeliverer;
  readonly #log: Logger;
  #running: Promise<void> | undefined;
  #again = false;
  #signal: AbortSignal | undefined;

  constructor(deliverer: OutboxDeliverer, log: Logger) {
    this.#deliverer = deliverer;
    this.#log = log;
  }

  /** Whether a pass is running now. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /** Starts a pass now, or one more after the current one; returns at once. */
  kick(signal: AbortSignal): void {
    void this.#start(signal).catch((error: unknown) => {
      if (!signal.aborted) this.#log.warn({ err: error }, 'announcement delivery failed; retried next pass');
    });
  }

  /** Delivers everything pending now and waits for it; rejects with the pass's failure. */
  async drain(signal: AbortSignal): Promise<void> {
    await this.#start(signal);
  }

  /** Waits for the running pass (and the one asked for after it), if any, without failing. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running.catch(() => undefined);
  }

  #wantsAgain(): boolean {
    return this.#again;
  }

  #start(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    // Cleared in a `finally` callback, which always runs after this assignment: a pass that ends at once
    // (its signal already aborted) must not leave a settled promise behind as "running", or no pass would
    // ever start again and `idle()` would spin.
    const running = this.#passes(signal).finally(() => {
      if (this.#running === running) this.#running = undefined;
    });
    this.#running = running;
    return running;
  }

  async #passes(signal: AbortSignal): Promise<void> {
    do {
      this.#again = false;
      const current = this.#signal ?? signal;
      current.throwIfAborted();
      await this.#deliverer.deliverPending(current);
    } while (this.#wantsAgain());
  }
}
