/**
 * A least-recently-used map bounded by the bytes its values hold: a hit moves an entry to the newest end,
 * and a set drops the oldest entries until the total fits. A value larger than the whole bound is not kept.
 */
export class ByteLruCache<V> {
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V) => number;
  #bytes = 0;
  #evictions = 0;

  constructor(maxBytes: number, sizeOf: (value: V) => number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new RangeError('maxBytes must be a finite size');
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    // The key counts too (a UTF-16 string), and a small fixed cost for the map's entry.
    const bytes = this.#sizeOf(value) + key.length * 2 + ENTRY_OVERHEAD;
    if (bytes > this.#maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
      this.#evictions += 1;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  get stats(): { entries: number; bytes: number; maxBytes: number; evictions: number } {
    return {
      entries: this.#entries.size,
      bytes: this.#bytes,
      maxBytes: this.#maxBytes,
      evictions: this.#evictions,
    };
  }
}

const ENTRY_OVERHEAD = 64;
