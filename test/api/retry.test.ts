import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UpstreamError,
} from '../../src/api/errors.ts';
import { decideRetry, type RetryPolicy } from '../../src/api/retry.ts';

const policy: RetryPolicy = { serverErrorDelayMs: 200, jitterMs: 100, random: () => 0.5 };
const fresh = () => ({ serverErrorRetried: false, rateLimitRetried: false });

describe('decideRetry', () => {
  it('retries a 5xx once', () => {
    const state = fresh();
    expect(decideRetry(new UpstreamError('x', 502), state, 10_000, policy)).toEqual({
      retry: true,
      waitMs: 250,
    });
    expect(decideRetry(new UpstreamError('x', 502), state, 10_000, policy)).toEqual({ retry: false });
  });

  it('retries a 429 once after its wait plus jitter, only before the deadline', () => {
    const state = fresh();
    expect(decideRetry(new RateLimitedError('x', 2_000), state, 10_000, policy)).toEqual({
      retry: true,
      waitMs: 2_050,
    });
    expect(decideRetry(new RateLimitedError('x', 2_000), state, 10_000, policy)).toEqual({ retry: false });
    expect(decideRetry(new RateLimitedError('x', 45_000), fresh(), 10_000, policy)).toEqual({ retry: false });
  });

  it('never retries a connection failure, a timeout or a 4xx', () => {
    for (const error of [
      new UpstreamError('reset', undefined),
      new TimeoutError('slow', 8_000),
      new BadRequestError('bad'),
      new NotFoundError('none'),
      new Error('other'),
    ]) {
      expect(decideRetry(error, fresh(), 60_000, policy)).toEqual({ retry: false });
    }
  });
});
