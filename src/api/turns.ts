/** Replies longer than this are parsed and validated in turns of their own (see {@link heavyTurn}). */
export const LARGE_REPLY_CHARS = 256 * 1024;

let heavyQueue: Promise<void> = Promise.resolve();

/**
 * Resolves in a turn of the event loop of its own, after every earlier caller's turn: each heavy step
 * waits for the previous one and then for `setImmediate`, so timers and I/O run between them.
 */
export function heavyTurn(): Promise<void> {
  const turn = heavyQueue.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  heavyQueue = turn;
  return turn;
}
