import { createHash } from 'node:crypto';

/**
 * The vocabulary of the shared request limits: a window is "at most `limit` requests in ANY `windowMs`"
 * (a sliding window, counted from request timestamps), for one scope (an API key) and one name (the key's
 * general window, a route's own window). A {@link WindowStore} keeps the timestamps, in this process or in
 * Redis; the gate (`gate.ts`) queues the requests that wait for them.
 */
export type Priority = 'interactive' | 'background';

export interface LimitWindow {
  /** Who is limited, e.g. an API key or its fingerprint; only a hash of it is ever stored or sent. */
  readonly scope: string;
  /** Which of the scope's windows: `general`, a route's name... */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  /**
   * Slots that background requests leave to interactive ones: background takes only while more than
   * `reserve` are left. Default 0; kept below `limit`, so that background work is never locked out.
   */
  readonly reserve?: number;
}

/** A window as a store sees it: its storage key, and the counts each priority may reach. */
export interface Claim {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
  /** What background requests may reach: `limit - reserve`. */
  readonly backgroundLimit: number;
}

export type TakeOutcome =
  | { readonly granted: true }
  | {
      readonly granted: false;
      /** For each refusing claim (its index), the clock time at which it has room again for this priority. */
      readonly refusals: ReadonlyArray<{ readonly index: number; readonly freeAt: number }>;
    };

/**
 * Timestamps of requests, per window. Every operation is atomic on its own: `take` checks every claim and
 * records in all of them, or in none. Times are the caller's clock (passed in), never the server's.
 */
export interface WindowStore {
  readonly kind: 'memory' | 'redis';
  /** Whether what it counts is seen by other processes now (a Redis store during an outage: false). */
  readonly shared?: boolean;
  /** Records `member` at `now` in every claim if each has room for `priority`; otherwise says when. */
  take(claims: readonly Claim[], member: string, now: number, priority: Priority): Promise<TakeOutcome>;
  /**
   * Records `members` at `at` in every claim, past any limit (requests that went out already, retries);
   * a member recorded before is moved to `at`.
   */
  record(claims: readonly Claim[], members: readonly string[], at: number): Promise<void>;
  /** Times recorded within the window that ends at `now`, oldest first. */
  recent(claim: Claim, now: number): Promise<number[]>;
  close(): Promise<void>;
}

/** Thrown by a take whose slot would free only after its deadline: nobody waits for nothing. */
export class LimitWaitError extends Error {
  /** How long until its slot would come, in milliseconds. */
  readonly retryAfterMs: number;
  /**
   * How much later than its deadline the slot would come (0 when unknown): the same request asked again
   * this much later, with the same time to wait, would get one. What a refused command tells.
   */
  readonly shortByMs: number;

  constructor(retryAfterMs: number, shortByMs = 0) {
    super(`the request limit leaves no slot before the deadline (next in ${Math.ceil(retryAfterMs)} ms)`);
    this.name = 'LimitWaitError';
    this.retryAfterMs = retryAfterMs;
    this.shortByMs = shortByMs;
  }
}

/** Thrown to every waiter when the limits close (shutdown). */
export class LimitsClosedError extends Error {
  constructor() {
    super('the request limits are closed');
    this.name = 'LimitsClosedError';
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

/** The key of a window in the store and in the gate's views (see {@link claimOf}). */
export function windowKey(window: Pick<LimitWindow, 'scope' | 'name'>, prefix: string): string {
  return `${prefix}{${digest(window.scope)}}:${digest(window.name)}`;
}

/**
 * The storage key of a window: `<prefix>{<hash of scope>}:<hash of name>`. The scope is hashed, so no key
 * is ever stored; the braces put every window of one scope in one Redis Cluster slot, so that a script may
 * take from several of them at once.
 */
export function claimOf(window: LimitWindow, prefix: string): Claim {
  const { limit, windowMs } = window;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('a window limit is a positive integer');
  if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError('a window length is positive');
  const reserve = Math.min(Math.max(0, Math.floor(window.reserve ?? 0)), limit - 1);
  return {
    key: windowKey(window, prefix),
    limit,
    windowMs,
    backgroundLimit: limit - reserve,
  };
}

/** What `priority` may reach in `claim`. */
export function allowedFor(claim: Claim, priority: Priority): number {
  return priority === 'interactive' ? claim.limit : claim.backgroundLimit;
}
