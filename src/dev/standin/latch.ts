interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** A value that arrives once (or fails once); waiters time out on their own and never outlive `cancel`. */
export class Latch<T> {
  #outcome: { ok: true; value: T } | { ok: false; error: Error } | null = null;
  readonly #waiters = new Set<Waiter<T>>();

  get settled(): boolean {
    return this.#outcome !== null;
  }

  resolve(value: T): void {
    if (this.#outcome) return;
    this.#outcome = { ok: true, value };
    this.#flush();
  }

  reject(error: Error): void {
    if (this.#outcome) return;
    this.#outcome = { ok: false, error };
    this.#flush();
  }

  wait(timeoutMs: number, what: string): Promise<T> {
    const outcome = this.#outcome;
    if (outcome) return outcome.ok ? Promise.resolve(outcome.value) : Promise.reject(outcome.error);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  /** Fails the waiters without settling (the stand-in is closing). */
  cancel(error: Error): void {
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.#waiters.clear();
  }

  #flush(): void {
    const outcome = this.#outcome;
    if (!outcome) return;
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      if (outcome.ok) waiter.resolve(outcome.value);
      else waiter.reject(outcome.error);
    }
    this.#waiters.clear();
  }
}
