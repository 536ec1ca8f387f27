/**
 * Work that must not interleave, by key, within this process: `run(key, work)` starts `work` once every
 * earlier work of the key has ended (failed or not). Keys are forgotten when nothing waits on them.
 */
export class KeyedLocks {
  readonly #running = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#running.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.#running.set(key, next);
    try {
      return await next;
    } finally {
      if (this.#running.get(key) === next) this.#running.delete(key);
    }
  }

  /** Whether some work of the key is under way or waiting. */
  busy(key: string): boolean {
    return this.#running.has(key);
  }
}
