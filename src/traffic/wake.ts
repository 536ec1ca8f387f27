import type { Clock } from '../core/clock.ts';

/**
 * The one wake-up timer of the gate's queue, which waits for a window to free a slot: at most one timer at a time, set for the earliest moment asked, so a queue of any
 * length costs one timer, and an earlier wake-up replaces a later one.
 */
export class WakeTimer {
  #timer: AbortController | undefined;
  #at = Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  /** Wakes the queue at `at` (a time on the clock), unless it is already woken as early. */
  at(at: number): void {
    if (at === Infinity || at >= this.#at) return;
    this.cancel();
    const controller = new AbortController();
    this.#timer = controller;
    this.#at = at;
    this.clock.sleep(at - this.clock.now(), controller.signal).then(
      () => {
        if (this.#timer !== controller) return;
        this.#timer = undefined;
        this.#at = Infinity;
        this.wake();
      },
      () => undefined,
    );
  }

  cancel(): void {
    this.#timer?.abort();
    this.#timer = undefined;
    this.#at = Infinity;
  }
}
