import type { TokenClaims } from './jwt.ts';
import type { ApiKey } from './keys.ts';

export type HostName = 'base' | 'legacy' | 'matchmaker';

/**
 * What a route needs before its handler runs: `developer` an API key (and the rate windows), `token` a
 * bearer token (401 in an envelope), `ranked` a bearer token on the legacy host (401 `Access token
 * required`), `open` nothing.
 */
export type Tier = 'developer' | 'token' | 'ranked' | 'open';

/** A refusal: the pipeline writes it in the host's error shape. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Fields added next to `error` (the 429's `retry_after`). */
    readonly extra: Readonly<Record<string, unknown>> = {},
    /** Headers of the refusal (the 429's `X-RateLimit-*`). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

export function notFound(what: string): HttpError {
  return new HttpError(404, `${what} not found`);
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

export interface RouteRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly nowMs: number;
  /** Set on developer routes. */
  readonly key: ApiKey | undefined;
  /** Set on token and ranked routes. */
  readonly claims: TokenClaims | undefined;
}

export type Handler = (request: RouteRequest) => unknown;

export interface Route {
  readonly pattern: string;
  readonly tier: Tier;
  readonly handler: Handler;
  /** The events endpoint: its own rate window on top of the general one. */
  readonly eventsWindow?: boolean;
}

type Segment = { readonly literal: string } | { readonly param: string };

function compile(pattern: string): Segment[] {
  return pattern
    .split('/')
    .slice(1)
    .map((part) =>
      part.startsWith('{') && part.endsWith('}') ? { param: part.slice(1, -1) } : { literal: part },
    );
}

/**
 * Only routes of the same length can match one path; among those, literal segments win over parameters,
 * position by position, so `/players/search` beats `/players/{name}`.
 */
function moreSpecific(a: readonly Segment[], b: readonly Segment[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const aLiteral = 'literal' in (a[i] ?? {});
    const bLiteral = 'literal' in (b[i] ?? {});
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return 0;
}

export class Router {
  readonly #routes: { readonly route: Route; readonly segments: readonly Segment[] }[];

  constructor(routes: readonly Route[]) {
    this.#routes = routes
      .map((route) => ({ route, segments: compile(route.pattern) }))
      .sort((a, b) => moreSpecific(a.segments, b.segments));
  }

  /** The route for a raw (percent-encoded) path and its decoded parameters, or undefined. */
  match(rawPath: string): { route: Route; params: Record<string, string> } | undefined {
    const parts = rawPath.split('/').slice(1);
    let decoded: string[];
    try {
      decoded = parts.map((part) => decodeURIComponent(part));
    } catch {
      return undefined;
    }
    for (const { route, segments } of this.#routes) {
      if (segments.length !== decoded.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const segment = segments[i];
        const value = decoded[i] ?? '';
        if (segment === undefined) ok = false;
        else if ('literal' in segment) ok = segment.literal === value;
        else if (value.length === 0) ok = false;
        else params[segment.param] = value;
      }
      if (ok) return { route, params };
    }
    return undefined;
  }
}

interface IntRule {
  readonly min: number;
  readonly max?: number;
  readonly fallback: number;
}

const INTEGER = /^-?\d+$/;

/** An integer query parameter: absent or empty gives the fallback; anything else out of rule is a 400. */
export function intQuery(query: URLSearchParams, name: string, rule: IntRule): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return rule.fallback;
  return checkInt(raw, name, rule.min, rule.max);
}

/** Like `intQuery`, but absent gives undefined. */
export function optionalIntQuery(
  query: URLSearchParams,
  name: string,
  min: number,
  max?: number,
): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  return checkInt(raw, name, min, max);
}

export function intParam(raw: string, name: string, min = 0, max?: number): number {
  return checkInt(raw, name, min, max);
}

function checkInt(raw: string, name: string, min: number, max: number | undefined): number {
  if (!INTEGER.test(raw)) throw badRequest(`invalid ${name}`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
    throw badRequest(`invalid ${name}`);
  }
  return value;
}

export function pageQuery(query: URLSearchParams): number {
  return intQuery(query, 'page', { min: 1, fallback: 1 });
}

/** One 1-based page; a page past the end is empty. */
export function pageOf<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

/** An opaque cursor (an offset) for the cursor-paged game and token lists. */
export function readCursor(query: URLSearchParams): number {
  const raw = query.get('cursor');
  if (raw === null || raw === '') return 0;
  const decoded = Buffer.from(raw, 'base64url').toString('utf8');
  const match = /^o:(\d+)$/.exec(decoded);
  if (!match?.[1]) throw badRequest('invalid cursor');
  return Number(match[1]);
}

export function writeCursor(offset: number, total: number): string | null {
  return offset >= total ? null : Buffer.from(`o:${offset}`, 'utf8').toString('base64url');
}
