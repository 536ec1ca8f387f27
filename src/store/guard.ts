import type { Clock } from '../core/clock.ts';
import { logFor } from '../log/index.ts';

/**
 * Whether the store answers. A failed or timed-out operation marks it unhealthy (a refused key or value
 * does not); while unhealthy, a probe writes and reads one entry every `healthProbeMs` and marks it
 * healthy again once that works. `/healthz` reports it; the pollers pause on it.
 */
export interface StoreHealth {
  readonly healthy: boolean;
  /** Why it is unhealthy: `timeout`, or the failure's code (`ECONNREFUSED`, `SQLITE_FULL`...); never a URL. */
  readonly reason: string | undefined;
  /** Calls `listener` on every change, with the new state; returns the function that removes it. */
  onChange(listener: (healthy: boolean) => void): () => void;
}

/**
 * The store cannot be opened or used as asked, failed, or did not answer in time. Its message never holds
 * the URL's password.
 */
export class StoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** True for a store failure, also when another error carries it as its cause. */
export function isStoreError(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof StoreError) return true;
    current = current.cause;
  }
  return false;
}

/** Runs backend operations under a timeout and keeps {@link StoreHealth} up to date. */
export interface Guard {
  run<R>(what: string, work: () => Promise<R>): Promise<R>;
}

/** Bad input or a value JSON cannot hold: the caller's fault, not the server's. */
function isCallerError(error: unknown): boolean {
  return error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError;
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name.slice(0, 40) : 'error';
}

/** Waits `ms` before the next probe, less when `early` aborts (the connection is back); rejects on `stopping`. */
async function probeWait(sleep: Clock['sleep'], ms: number, stopping: AbortSignal, early: AbortSignal) {
  await sleep(ms, AbortSignal.any([stopping, early])).catch((error: unknown) => {
    if (stopping.aborted) throw error;
  });
}

export function createGuard(options: {
  timeoutMs: number;
  probeMs: number;
  sleep: Clock['sleep'];
  probe: () => Promise<void>;
  isClosed: () => boolean;
}): Guard & { health: StoreHealth; markDown(reason: string): void; probeNow(): void; stop(): void } {
  const log = logFor('store');
  const listeners = new Set<(healthy: boolean) => void>();
  const stopping = new AbortController();
  let healthy = true;
  let reason: string | undefined;
  let probing = false;
  let early = new AbortController();

  const set = (next: boolean, why?: string) => {
    if (next === healthy) return;
    healthy = next;
    reason = next ? undefined : why;
    if (next) log.info('the store answers again');
    else log.warn({ reason: why }, 'the store is not answering');
    for (const listener of [...listeners]) {
      try {
        listener(next);
      } catch (error) {
        log.warn({ err: error }, 'a store health listener failed');
      }
    }
    if (!next) void probeUntilHealthy();
  };

  const probeUntilHealthy = async () => {
    if (probing) return;
    probing = true;
    try {
      while (!healthy && !options.isClosed()) {
        early = new AbortController();
        await probeWait(options.sleep, options.probeMs, stopping.signal, early.signal);
        try {
          await run('probe', options.probe, false);
          set(true);
        } catch {
          // Still down: try again after the next interval.
        }
      }
    } catch {
      // Stopped while waiting.
    } finally {
      probing = false;
    }
  };

  const run = async <R>(what: string, work: () => Promise<R>, track = true): Promise<R> => {
    const outcome = { timedOut: false };
    try {
      return await within(work, options, what, outcome);
    } catch (error) {
      if (isCallerError(error)) throw error;
      if (track && !options.isClosed()) set(false, outcome.timedOut ? 'timeout' : reasonOf(error));
      if (error instanceof StoreError) throw error;
      throw new StoreError(`the store failed (${what}): ${reasonOf(error)}`, { cause: error });
    }
  };

  const health: StoreHealth = {
    get healthy() {
      return healthy;
    },
    get reason() {
      return reason;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    run,
    markDown: (why) => set(false, why),
    probeNow: () => early.abort(),
    stop: () => stopping.abort(),
    health,
  };
}

/** `work`, or a {@link StoreError} once `timeoutMs` have passed first (`outcome.timedOut` says which). */
async function within<R>(
  work: () => Promise<R>,
  options: { readonly timeoutMs: number; readonly sleep: Clock['sleep'] },
  what: string,
  outcome: { timedOut: boolean },
): Promise<R> {
  const timer = new AbortController();
  const timeout = options.sleep(options.timeoutMs, timer.signal).then(
    () => {
      outcome.timedOut = true;
      throw new StoreError(`the store did not answer within ${options.timeoutMs} ms (${what})`);
    },
    // Aborted: the operation settled first.
    () => new Promise<never>(() => undefined),
  );
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    timer.abort();
  }
}
