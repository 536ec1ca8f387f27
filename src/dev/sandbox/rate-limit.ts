export interface WindowRule {
  readonly limit: number;
  readonly windowMs: number;
}

export interface WindowState {
  readonly limit: number;
  readonly remaining: number;
  /** When the window ends, in ms. */
  readonly resetAtMs: number;
}

interface Window {
  startMs: number;
  count: number;
}

/** Fixed windows per key: a window starts at the key's first request after the previous one ended. */
export class FixedWindows {
  readonly #windows = new Map<string, Window>();

  constructor(readonly rule: WindowRule) {}

  #current(key: string, nowMs: number): Window {
    let window = this.#windows.get(key);
    if (!window || nowMs >= window.startMs + this.rule.windowMs) {
      window = { startMs: nowMs, count: 0 };
      this.#windows.set(key, window);
    }
    return window;
  }

  /** The key's window as it stands, without counting a request. */
  peek(key: string, nowMs: number): WindowState & { readonly exhausted: boolean } {
    const window = this.#current(key, nowMs);
    return { ...this.#state(window), exhausted: window.count >= this.rule.limit };
  }

  /** Counts one request and returns the window after it. */
  take(key: string, nowMs: number): WindowState {
    const window = this.#current(key, nowMs);
    window.count++;
    return this.#state(window);
  }

  #state(window: Window): WindowState {
    return {
      limit: this.rule.limit,
      remaining: Math.max(0, this.rule.limit - window.count),
      resetAtMs: window.startMs + this.rule.windowMs,
    };
  }
}

export function rateHeaders(state: WindowState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetAtMs / 1000)),
  };
}

/** Whole seconds until the window resets, at least 1. */
export function retryAfterSec(state: WindowState, nowMs: number): number {
  return Math.max(1, Math.ceil((state.resetAtMs - nowMs) / 1000));
}
