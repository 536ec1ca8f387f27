/** Listeners of a route's fresh replies (`TierClient.observe`), each one's failure reported, never thrown. */
export class ReplyObservers {
  readonly #listeners = new Map<string, Set<(reply: unknown) => void>>();
  readonly #onError: (route: string, error: unknown) => void;

  constructor(onError: (route: string, error: unknown) => void) {
    this.#onError = onError;
  }

  add(route: string, listener: (reply: unknown) => void): () => void {
    const listeners = this.#listeners.get(route) ?? new Set();
    this.#listeners.set(route, listeners);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  notify(route: string, reply: unknown): void {
    for (const listener of this.#listeners.get(route) ?? []) {
      try {
        listener(reply);
      } catch (error) {
        this.#onError(route, error);
      }
    }
  }
}
