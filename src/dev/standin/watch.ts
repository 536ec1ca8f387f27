/**
 * Conditions a test waits on, checked again each time the stand-in says something changed (a REST call
 * arrived, or was answered): a test waits for what it needs, told by the stand-in, not for a duration.
 */
export class Watch {
  readonly #watchers = new Set<() => void>();

  readonly changed = (): void => {
    for (const watcher of [...this.#watchers]) watcher();
  };

  /** Resolves once `condition` holds (checked now and on each change); rejects after `timeoutMs`. */
  until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const watcher = () => {
        if (!condition()) return;
        this.#watchers.delete(watcher);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#watchers.delete(watcher);
        reject(new Error(`${what}: not within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#watchers.add(watcher);
    });
  }
}
