import { allowedFor, type Claim, type Priority, type TakeOutcome, type WindowStore } from './window.ts';

/**
 * The windows of one process, in memory: what `createSharedLimits` uses without Redis, and what a Redis
 * store falls back on while Redis does not answer. Same semantics as the Redis script (`redis.ts`): an
 * entry recorded at `t` counts in the window until `t + windowMs` (exclusive).
 */
interface Entry {
  at: number;
  readonly member: string;
}

interface Window {
  readonly windowMs: number;
  /** Oldest first. */
  entries: Entry[];
}

/** Every this many operations, windows left empty are dropped (their keys would otherwise pile up). */
const SWEEP_EVERY = 512;

export class MemoryWindows implements WindowStore {
  readonly kind = 'memory';
  readonly #windows = new Map<string, Window>();
  #operations = 0;
  #latest = -Infinity;

  take(claims: readonly Claim[], member: string, now: number, priority: Priority): Promise<TakeOutcome> {
    this.#tick(now);
    const refusals: Array<{ index: number; freeAt: number }> = [];
    claims.forEach((claim, index) => {
      const entries = this.#trimmed(claim, now).entries;
      const allowed = allowedFor(claim, priority);
      if (entries.length < allowed) return;
      // Room comes back when the entry at this position (and every older one) has left the window.
      const blocking = entries[entries.length - allowed];
      refusals.push({ index, freeAt: (blocking?.at ?? now) + claim.windowMs });
    });
    if (refusals.length > 0) return Promise.resolve({ granted: false, refusals });
    // A take's member is new (ids are unique): no earlier entry of it to replace.
    for (const claim of claims) this.#insert(claim, member, now, false);
    return Promise.resolve({ granted: true });
  }

  record(claims: readonly Claim[], members: readonly string[], at: number): Promise<void> {
    this.#tick(at);
    for (const claim of claims) {
      this.#trimmed(claim, at);
      for (const member of members) this.#insert(claim, member, at, true);
    }
    return Promise.resolve();
  }

  /** Records a request granted elsewhere (through Redis) under its new, unique id: nothing to replace. */
  mirror(claims: readonly Claim[], member: string, at: number): void {
    this.#tick(at);
    for (const claim of claims) this.#insert(claim, member, at, false);
  }

  recent(claim: Claim, now: number): Promise<number[]> {
    return Promise.resolve(this.#trimmed(claim, now).entries.map((entry) => entry.at));
  }

  close(): Promise<void> {
    this.#windows.clear();
    return Promise.resolve();
  }

  /** Every window's entries still within it at `now` (what a process writes back to Redis after an outage). */
  snapshot(
    now: number,
  ): Array<{ key: string; windowMs: number; entries: Array<{ at: number; member: string }> }> {
    const windows = [];
    for (const [key, window] of this.#windows) {
      const entries = window.entries.filter((entry) => entry.at > now - window.windowMs);
      if (entries.length > 0)
        windows.push({ key, windowMs: window.windowMs, entries: entries.map((e) => ({ ...e })) });
    }
    return windows;
  }

  /** Windows held (tests check that empty ones are dropped). */
  get size(): number {
    return this.#windows.size;
  }

  #trimmed(claim: Claim, now: number): Window {
    let window = this.#windows.get(claim.key);
    if (!window) {
      window = { windowMs: claim.windowMs, entries: [] };
      this.#windows.set(claim.key, window);
    }
    const cutoff = now - claim.windowMs;
    let gone = 0;
    while (gone < window.entries.length && (window.entries[gone]?.at ?? Infinity) <= cutoff) gone += 1;
    if (gone > 0) window.entries.splice(0, gone);
    return window;
  }

  #insert(claim: Claim, member: string, at: number, replace: boolean): void {
    const window = this.#trimmed(claim, at);
    if (replace) {
      const index = window.entries.findIndex((entry) => entry.member === member);
      if (index >= 0) window.entries.splice(index, 1);
    }
    const entries = window.entries;
    const last = entries[entries.length - 1];
    if (!last || last.at <= at) {
      entries.push({ at, member });
      return;
    }
    // Out of time order (a record moving one back): binary search for its place.
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((entries[middle]?.at ?? Infinity) <= at) low = middle + 1;
      else high = middle;
    }
    entries.splice(low, 0, { at, member });
  }

  #tick(now: number): void {
    this.#latest = Math.max(this.#latest, now);
    this.#operations += 1;
    if (this.#operations % SWEEP_EVERY !== 0) return;
    for (const [key, window] of this.#windows) {
      const newest = window.entries[window.entries.length - 1];
      if (!newest || newest.at <= this.#latest - window.windowMs) this.#windows.delete(key);
    }
  }
}
