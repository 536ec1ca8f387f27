import { subscribe, tracingChannel } from 'node:diagnostics_channel';
import sqlite3 from 'sqlite3';

/**
 * I/O of this process under way, which a test on a manual clock lets finish before it moves time: HTTP
 * requests of any undici client (fetch, the tier client, discord.js REST), told by undici's diagnostics
 * channels, Redis commands (node-redis's tracing channels), and SQLite statements (the `sqlite3` addon runs
 * them on libuv's thread pool), counted from the call to their callback. Each operation is numbered when it starts; {@link whenQuiet} waits for those
 * after a mark only, so that a request another test left behind cannot hold this one up.
 */
const underWay = new Set<number>();
const numbers = new WeakMap<object, number>();
let started = 0;
const waiters: Array<() => void> = [];
let installed = false;

function begin(): number {
  started += 1;
  underWay.add(started);
  return started;
}

function end(id: number | undefined): void {
  if (id === undefined || !underWay.delete(id)) return;
  for (const wake of waiters.splice(0)) wake();
}

type Callback = (this: unknown, ...args: unknown[]) => unknown;

/** Counts the statements of `method` that are given a callback (the project's driver always gives one). */
function countStatements(name: 'all' | 'run' | 'get' | 'exec'): void {
  const prototype = sqlite3.Database.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = prototype[name]!;
  prototype[name] = function (this: unknown, ...args: unknown[]) {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') return original.apply(this, args);
    const id = begin();
    args[last] = function (this: unknown, ...results: unknown[]) {
      end(id);
      return (callback as Callback).apply(this, results);
    };
    return original.apply(this, args);
  };
}

function install(): void {
  if (installed) return;
  installed = true;
  subscribe('undici:request:create', (message) => {
    numbers.set((message as { request: object }).request, begin());
  });
  const ended = (message: unknown) => end(numbers.get((message as { request: object }).request));
  subscribe('undici:request:trailers', ended);
  subscribe('undici:request:error', ended);
  for (const name of ['all', 'run', 'get', 'exec'] as const) countStatements(name);
  // A Redis command in flight (the lease, the shared windows, the store) is under way as a request is:
  // time moved meanwhile could expire a lease the command is renewing.
  for (const name of ['node-redis:command', 'node-redis:batch']) {
    const finished = (context: object) => end(numbers.get(context));
    tracingChannel(name).subscribe({
      start: (context: object) => numbers.set(context, begin()),
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: finished,
      error: finished,
    });
  }
}

/** The number of the last operation started so far. */
export function ioMark(): number {
  install();
  return started;
}

/**
 * Resolves once no operation started after `mark` is under way and the promise chains it started have
 * run (a turn of the event loop with none under way).
 */
export async function whenQuiet(mark: number): Promise<void> {
  install();
  const busy = () => [...underWay].some((id) => id > mark);
  for (;;) {
    while (busy()) await new Promise<void>((resolve) => waiters.push(resolve));
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    if (!busy()) return;
  }
}
