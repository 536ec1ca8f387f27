import { ApiError, RateLimitedError, UpstreamError } from './errors.ts';

/**
 * What may be retried, and after how long. GET only (the client sends nothing else): a 5xx once, a 429
 * once after the wait it asks for plus jitter, and only when that wait ends before the caller's
 * deadline. A connection failure, a timeout and every 4xx are answers, not accidents: never retried.
 */
export interface RetryState {
  serverErrorRetried: boolean;
  rateLimitRetried: boolean;
}

export type RetryDecision = { readonly retry: false } | { readonly retry: true; readonly waitMs: number };

export interface RetryPolicy {
  /** Pause before retrying a 5xx. */
  readonly serverErrorDelayMs: number;
  /** Upper bound of the random extra wait added to a 429's wait, so that waiters do not stampede. */
  readonly jitterMs: number;
  readonly random: () => number;
}

export const defaultRetryPolicy: RetryPolicy = {
  serverErrorDelayMs: 250,
  jitterMs: 250,
  random: Math.random,
};

export function decideRetry(
  error: unknown,
  state: RetryState,
  remainingMs: number,
  policy: RetryPolicy = defaultRetryPolicy,
): RetryDecision {
  if (!(error instanceof ApiError)) return { retry: false };
  if (error instanceof UpstreamError && error.status !== undefined && error.status >= 500) {
    if (state.serverErrorRetried) return { retry: false };
    const waitMs = policy.serverErrorDelayMs + Math.floor(policy.random() * policy.jitterMs);
    if (waitMs >= remainingMs) return { retry: false };
    state.serverErrorRetried = true;
    return { retry: true, waitMs };
  }
  if (error instanceof RateLimitedError) {
    if (state.rateLimitRetried) return { retry: false };
    const waitMs = error.retryAfterMs + Math.floor(policy.random() * policy.jitterMs);
    if (waitMs >= remainingMs) return { retry: false };
    state.rateLimitRetried = true;
    return { retry: true, waitMs };
  }
  return { retry: false };
}
