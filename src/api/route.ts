import type { z } from 'zod';

/** Which of the service's three addresses a route lives on (the spec's `{base_url}` and friends). */
export type Host = 'base' | 'legacy' | 'matchmaker';

/** Which credentials a route needs: an API key, nothing, or the player's access token. */
export type Tier = 'developer' | 'game' | 'token';

export interface CachePolicy {
  /** How long a reply is fresh. */
  readonly ttlMs: number;
  /** How long past `ttlMs` a reply may still be served while one refresh runs in the background. */
  readonly staleMs?: number;
}

/**
 * One endpoint, declared once: the client derives its typed method, its parameter check, its URL, its
 * auth, its reply parsing, its cache and its time budget from this.
 */
export interface RouteDef<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly host: Host;
  readonly tier: Tier;
  /** Path with `{param}` placeholders, filled from `params` and URL-encoded. */
  readonly path: string;
  /** Validates (and may transform) every path and query parameter before anything is sent. */
  readonly params: P;
  /** Parameter name → query string name, for the parameters that go into the query. */
  readonly query?: Readonly<Record<string, string>>;
  /** Validates what the reply holds (the envelope's `data`, or the whole body on the matchmaker). */
  readonly reply: R;
  /** Absent: never cached (token tier, events, moderator reads). */
  readonly cache?: CachePolicy;
  /** Overrides the default per-route time budget (the market skin is slow). */
  readonly timeoutMs?: number;
  /** The reply may carry a refusal inside `data` (a soft error) instead of an HTTP error. */
  readonly soft?: boolean;
  /**
   * A rate window of the route's own, on top of the key's general one (the events endpoint's is 6 a
   * minute). Replies of such a route describe this window in their `X-RateLimit-*` headers.
   */
  readonly ownWindow?: { readonly limit: number; readonly windowMs: number };
}

export type ParamsOf<D extends RouteDef> = z.input<D['params']>;
export type ReplyOf<D extends RouteDef> = z.output<D['reply']>;

/** Identity helper that keeps a route's literal types (so the client's methods are typed). */
export function defineRoute<const D extends RouteDef>(def: D): D {
  return def;
}

/** A soft refusal: the service answered 200 but said no inside `data`. */
export interface Refused {
  readonly refused: true;
  readonly message: string;
}

export interface Accepted<T> {
  readonly refused: false;
  readonly value: T;
}

export type Refusable<T> = Accepted<T> | Refused;
