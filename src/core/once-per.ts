/**
 * Remembers, for up to `max` keys, the period (an hour, a day) each was last marked in: `mark` says
 * whether the key is new in this period. The key marked longest ago is forgotten first.
 */
export class OncePerPeriod<K> {
  readonly #periods = new Map<K, number>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** True the first time `key` is marked in `period`; false again until the period changes. */
  mark(key: K, period: number): boolean {
    if (this.#periods.get(key) === period) return false;
    this.#periods.delete(key);
    this.#periods.set(key, period);
    if (this.#periods.size > this.#max) {
      const oldest = this.#periods.keys().next();
      if (!oldest.done) this.#periods.delete(oldest.value);
    }
    return true;
  }

  /** Forgets the key (its work failed, or it is gone): the next mark is new again. */
  forget(key: K): void {
    this.#periods.delete(key);
  }
}
