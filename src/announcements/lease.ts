import type { Namespace, Store } from '../store/index.ts';

/**
 * A lease in the store: of all the processes sharing the store, only its holder polls a feed. It expires
 * `ttlMs` after its last renewal, so a holder that dies hands over within that time; a live holder renews
 * it every third of that time while it works.
 */
export class Lease {
  readonly #ns: Namespace<string>;
  readonly #name: string;
  readonly #holder: string;
  readonly #ttlMs: number;

  constructor(store: Store, name: string, holder: string, ttlMs: number) {
    this.#ns = store.namespace<string>('announce-leases');
    this.#name = name;
    this.#holder = holder;
    this.#ttlMs = ttlMs;
  }

  get name(): string {
    return this.#name;
  }

  get ttlMs(): number {
    return this.#ttlMs;
  }

  /** Takes the lease when it is free or expired, or renews it when this holder has it; true when held. */
  async acquire(): Promise<boolean> {
    if (await this.#ns.add(this.#name, this.#holder, this.#ttlMs)) return true;
    return this.renew();
  }

  /**
   * Extends the lease when this holder still has it; false when someone else took it meanwhile. One
   * compare-and-set in the store: a read then a write let a holder whose lease had just expired (by a
   * faster clock elsewhere) overwrite the process that took it over, and both believed they held it.
   */
  renew(): Promise<boolean> {
    return this.#ns.replace(this.#name, this.#holder, this.#holder, this.#ttlMs);
  }

  /** Gives the lease up at once (on a clean stop), so that another process need not wait for it to expire. */
  async release(): Promise<void> {
    if ((await this.#ns.get(this.#name)) === this.#holder) await this.#ns.delete(this.#name);
  }

  /** Who holds it now, if anyone. */
  async holder(): Promise<string | undefined> {
    return this.#ns.get(this.#name);
  }
}
