import { RestError } from './errors.ts';

/**
 * Discord's global limit: a fixed one-second window shared by every route, counting every request that
 * reaches it. Over the limit the reply is a 429 that @discordjs/rest recognises as global.
 */
export class GlobalRateLimit {
  readonly #perSecond: number;
  readonly #now: () => number;
  #windowStart = Number.NEGATIVE_INFINITY;
  #count = 0;

  constructor(perSecond: number, now: () => number) {
    if (!Number.isFinite(perSecond) || perSecond < 1)
      throw new Error('globalRateLimit.perSecond must be at least 1');
    this.#perSecond = Math.floor(perSecond);
    this.#now = now;
  }

  /** Counts the request; throws the 429 Discord would answer when the window is already full. */
  take(): void {
    const now = this.#now();
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#count = 0;
    }
    this.#count += 1;
    if (this.#count <= this.#perSecond) return;
    const retryAfter = Math.max(0.001, (this.#windowStart + 1000 - now) / 1000);
    throw new RestError(429, 0, 'You are being rate limited.', {
      headers: {
        'Retry-After': String(Math.ceil(retryAfter)),
        'X-RateLimit-Global': 'true',
        'X-RateLimit-Scope': 'global',
      },
      extra: { retry_after: Number(retryAfter.toFixed(3)), global: true },
    });
  }
}
