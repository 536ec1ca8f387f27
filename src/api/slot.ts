import { RateLimitedError } from './errors.ts';
import type { QueueOptions, WaitRefusedError } from '../traffic/rate-limit.ts';

/** Without `queue` or `needMs`: a request starts only with this much of its deadline left (or its timeout). */
const MIN_START_MS = 2_000;

/**
 * The limiter refused a slot: none would come before the call's latest start. Never retried by the client
 * (asking again at once would be refused the same way); `retryAfterMs` is, for a queued command, how much
 * later asking again would fit in its time, else how long until a slot frees.
 */
export class SlotRefusedError extends RateLimitedError {
  constructor(
    message: string,
    retryAfterMs: number,
    route: string,
    /** A command's call, refused because its answer could not come before its interaction ends. */
    readonly queued: boolean,
  ) {
    super(message, retryAfterMs, route);
    this.name = 'SlotRefusedError';
  }
}

/**
 * The latest moment a request of a call may start: its deadline less what the request needs (`needMs`;
 * with `queue`, a command's, the route's whole timeout; else the smaller of it and 2 s).
 */
export function latestStart(
  deadline: number,
  timeoutMs: number,
  options: { readonly needMs?: number | undefined; readonly queue?: QueueOptions | undefined },
): number {
  const need = options.needMs ?? (options.queue ? timeoutMs : Math.min(timeoutMs, MIN_START_MS));
  return deadline - Math.max(0, need);
}

/** The limiter's refusal as the client tells it; a queued command is told when asking again would fit. */
export function slotRefused(error: WaitRefusedError, route: string, queued: boolean): SlotRefusedError {
  const retryAfterMs = queued && error.shortByMs > 0 ? error.shortByMs : error.retryAfterMs;
  return new SlotRefusedError(error.message, retryAfterMs, route, queued);
}
