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
  #refused = 0;

  constructor(perSecond: number, now: () => number) {
    if (!Number.isFinite(perSecond) || perSecond < 1)
      throw new Error('globalRateLimit.perSecond must be at least 1');
    this.#perSecond = Math.floor(perSecond);
    this.#now = now;
  }

  /** How many 429s it has answered. */
  get refused(): number {
    return this.#refused;
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
    this.#refused += 1;
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

export interface RouteLimit {
  /** Requests each major parameter (here the guild) may make per window. */
  limit: number;
  windowMs: number;
}

interface Window {
  start: number;
  count: number;
}

/** Beyond this many tracked guilds, windows that have ended are dropped before a new one is added. */
const maxTrackedWindows = 1000;

/**
 * One of Discord's per-route limits: a bucket (one `X-RateLimit-Bucket` hash, however many routes share
 * it) with a separate fixed window per major parameter, started by the first request after the last one
 * ended. Every answer, a 429 included, carries the headers @discordjs/rest reads to wait before it is
 * refused: Limit, Remaining, Reset, Reset-After (rounded up, so a client that waits it out is never early)
 * and Bucket.
 */
export class RouteRateLimit {
  readonly #bucket: string;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, Window>();
  #refused = 0;

  constructor(bucket: string, limit: RouteLimit, now: () => number) {
    if (!Number.isInteger(limit.limit) || limit.limit < 1)
      throw new Error('rate limit: limit must be at least 1');
    if (!Number.isFinite(limit.windowMs) || limit.windowMs <= 0) {
      throw new Error('rate limit: windowMs must be positive');
    }
    this.#bucket = bucket;
    this.#limit = limit.limit;
    this.#windowMs = limit.windowMs;
    this.#now = now;
  }

  /** How many 429s it has answered. */
  get refused(): number {
    return this.#refused;
  }

  /** Counts a request for `major`: the headers for its answer, or throws the 429 (with them) when over. */
  take(major: string): Record<string, string> {
    const now = this.#now();
    const window = this.#window(major, now);
    window.count += 1;
    const resetAfterMs = Math.max(1, Math.ceil(window.start + this.#windowMs - now));
    const headers = {
      'X-RateLimit-Bucket': this.#bucket,
      'X-RateLimit-Limit': String(this.#limit),
      'X-RateLimit-Remaining': String(Math.max(0, this.#limit - window.count)),
      'X-RateLimit-Reset': ((Date.now() + resetAfterMs) / 1000).toFixed(3),
      'X-RateLimit-Reset-After': (resetAfterMs / 1000).toFixed(3),
    };
    if (window.count <= this.#limit) return headers;
    this.#refused += 1;
    throw new RestError(429, 0, 'You are being rate limited.', {
      headers: {
        ...headers,
        'Retry-After': String(Math.ceil(resetAfterMs / 1000)),
        'X-RateLimit-Scope': 'user',
      },
      extra: { retry_after: resetAfterMs / 1000, global: false },
    });
  }

  #window(major: string, now: number): Window {
    const current = this.#windows.get(major);
    if (current && now - current.start < this.#windowMs) return current;
    if (!current && this.#windows.size >= maxTrackedWindows) {
      for (const [key, w] of this.#windows) {
        if (now - w.start >= this.#windowMs) this.#windows.delete(key);
      }
    }
    const fresh = { start: now, count: 0 };
    this.#windows.set(major, fresh);
    return fresh;
  }
}
