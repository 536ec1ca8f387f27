/**
 * Work over many stored rows in batches that give the event loop back between them: a pass over 100k
 * rows done in one go holds every interaction, timer and socket of the process for its whole length
 * (705–958 ms for the subscription reload on SQLite). Between two batches, `yieldToLoop` lets what is
 * due run first: timers, I/O callbacks, the next interaction.
 */

/** Rows a pass handles between two turns of the event loop unless it says otherwise. */
export const DEFAULT_BATCH = 1_000;

/**
 * Rows parsed between two turns of the event loop, within a page already read: a page of 1,000 parsed in
 * one go holds the loop for several milliseconds on a cold start or a busy machine (and a page's parsed
 * rows, kept, are what the next young-generation collection has to copy).
 */
export const PARSE_SLICE = 200;

/** Resolves on a later turn of the event loop, after the timers and I/O that are due (`setImmediate`). */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Reads a table page by page along a key (keyset pagination: each page starts after the last row of the
 * one before, so no page costs more than its own rows), hands each page to `each`, and yields to the event
 * loop between pages. Stops at the first page shorter than `size`.
 */
export async function forEachPage<Row, Key>(
  read: (after: Key | undefined, size: number) => Promise<readonly Row[]>,
  keyOf: (row: Row) => Key,
  each: (rows: readonly Row[]) => void | Promise<void>,
  size: number = DEFAULT_BATCH,
): Promise<void> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('a batch size is a positive integer');
  let after: Key | undefined;
  for (;;) {
    const rows = await read(after, size);
    await each(rows);
    const last = rows[rows.length - 1];
    if (rows.length < size || last === undefined) return;
    after = keyOf(last);
    await yieldToLoop();
  }
}

/** Maps `items` in batches of `size`, yielding to the event loop between batches. */
export async function mapInBatches<T, U>(
  items: readonly T[],
  map: (item: T) => U,
  size: number = DEFAULT_BATCH,
): Promise<U[]> {
  const out: U[] = [];
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await yieldToLoop();
    const end = Math.min(items.length, start + size);
    for (let i = start; i < end; i += 1) out.push(map(items[i] as T));
  }
  return out;
}
