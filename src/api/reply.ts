import {
  ApiError,
  BadRequestError,
  ForbiddenError,
  InvalidReplyError,
  NotFoundError,
  RateLimitedError,
  ReplyTooLargeError,
  UnauthorizedError,
  UpstreamError,
  type ForbiddenReason,
} from './errors.ts';
import { DEFAULT_MAX_JSON_DEPTH, JsonTooDeepError, parseJson, prepareJson } from './json.ts';
import type { Host, RouteDef, Tier } from './route.ts';
import type { HttpResponse } from './transport.ts';
import { heavyTurn, LARGE_REPLY_CHARS } from './turns.ts';

/**
 * Reads a reply according to its host's conventions: the `{data, error}` envelope on `{base_url}`,
 * `{data}` on `{legacy_url}`, plain JSON on `{matchmaker_url}`. Turns error statuses into the typed
 * errors of `errors.ts`, and returns what the route's schema validates.
 */
export interface ReplyContext {
  readonly host: Host;
  readonly tier: Tier;
  readonly route: string;
  readonly nowMs: number;
  /** The deepest JSON nesting read; deeper replies are refused. Default `DEFAULT_MAX_JSON_DEPTH`. */
  readonly maxDepth?: number;
  /** The text already went through `prepareJson` (a large reply parsed in two steps): read it as it is. */
  readonly prepared?: boolean;
}

export function readReply(response: HttpResponse, context: ReplyContext): unknown {
  const body = parseBody(response, context);
  if (response.status >= 400) throw errorFor(response, body, context);
  if (response.status < 200 || response.status >= 300) {
    throw new UpstreamError(`Unexpected status ${response.status}`, response.status, context.route);
  }
  switch (context.host) {
    case 'matchmaker':
      return body;
    case 'legacy':
      if (!isObject(body) || !('data' in body)) throw shapeError('a {data} object', context);
      return body.data;
    case 'base':
      if (!isObject(body) || !('data' in body)) throw shapeError('a {data, error} envelope', context);
      if (body.error !== null && body.error !== undefined) {
        throw new UpstreamError(
          `Error in a success reply: ${describe(body.error)}`,
          response.status,
          context.route,
        );
      }
      return body.data;
  }
}

/**
 * {@link readReply}, with a large reply parsed and checked one step per turn of the event loop, one reply
 * at a time, so that several arriving together never hold the loop for long.
 */
export async function readReplyInTurns(
  response: HttpResponse,
  context: Omit<ReplyContext, 'prepared'>,
): Promise<unknown> {
  const large = response.text.length > LARGE_REPLY_CHARS;
  const maxDepth = context.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  let prepared = false;
  let read = response;
  if (large) {
    await heavyTurn();
    try {
      read = { ...response, text: prepareJson(response.text, maxDepth) };
      prepared = true;
    } catch {
      // Too deep: readReply refuses it exactly as it refuses a small one.
    }
    await heavyTurn();
  }
  const data = readReply(read, { ...context, maxDepth, prepared });
  if (large) await heavyTurn();
  return data;
}

/** The route's reply checked against its schema; a soft route's refusal is passed on as one. */
export function checkReply(route: RouteDef, name: string, data: unknown): unknown {
  if (route.soft) {
    const refusal = softRefusal(data);
    if (refusal !== undefined) return { refused: true, message: refusal.slice(0, 200) };
  }
  const checked = route.reply.safeParse(data);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    throw new InvalidReplyError('The reply does not match its schema', issues, name);
  }
  return route.soft ? { refused: false, value: checked.data } : checked.data;
}

/** The soft refusal some routes answer with status 200 (the wild offer that is not available). */
export function softRefusal(data: unknown): string | undefined {
  if (!isObject(data)) return undefined;
  if (typeof data.error === 'string' && data.error !== '') return data.error;
  if (data.available === false) return typeof data.message === 'string' ? data.message : 'Not available';
  return undefined;
}

/** The wait a 429 asks for: the larger of `retry_after` and the window's reset, in milliseconds. */
export function retryAfterMs(response: HttpResponse, body: unknown, nowMs: number): number {
  const retryAfter = isObject(body) && typeof body.retry_after === 'number' ? body.retry_after * 1000 : 0;
  const header = response.headers['retry-after'];
  const headerWait = header !== undefined && /^\d+(\.\d+)?$/.test(header) ? Number(header) * 1000 : 0;
  const reset = Number(response.headers['x-ratelimit-reset']);
  const resetWait = Number.isFinite(reset) && reset > 0 ? reset * 1000 - nowMs : 0;
  return Math.max(retryAfter, headerWait, resetWait, 0);
}

function parseBody(response: HttpResponse, context: ReplyContext): unknown {
  if (response.text === '') return undefined;
  try {
    return context.prepared === true
      ? (JSON.parse(response.text) as unknown)
      : parseJson(response.text, context.maxDepth);
  } catch (error) {
    // An error status with a non-JSON body (a proxy's HTML page) still deserves its status's error.
    if (response.status >= 400) return undefined;
    if (error instanceof JsonTooDeepError) {
      throw new ReplyTooLargeError('depth', error.maxDepth, context.route, { cause: error });
    }
    throw new InvalidReplyError('The reply is not JSON', [{ path: '', message: 'not JSON' }], context.route);
  }
}

function errorFor(response: HttpResponse, body: unknown, context: ReplyContext): ApiError {
  const message = errorMessage(body) ?? `HTTP ${response.status}`;
  const { route } = context;
  switch (response.status) {
    case 400:
      return new BadRequestError(message, route);
    case 401:
      return new UnauthorizedError(message, route);
    case 403:
      return new ForbiddenError(message, forbiddenReason(message, context.tier), route);
    case 404:
      return new NotFoundError(message, route);
    case 429:
      return new RateLimitedError(message, retryAfterMs(response, body, context.nowMs), route);
    default:
      if (response.status >= 500) return new UpstreamError(message, response.status, route);
      return new BadRequestError(message, route);
  }
}

function forbiddenReason(message: string, tier: Tier): ForbiddenReason {
  const text = message.toLowerCase();
  if (text.includes('insufficient permissions')) return 'insufficient_permissions';
  if (text.includes('not authorized')) return 'not_authorized';
  if (text.includes('scope')) return 'missing_scope';
  return tier === 'token' ? 'insufficient_permissions' : 'invalid_key';
}

function errorMessage(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const { error, message } = body;
  const text = typeof error === 'string' ? error : typeof message === 'string' ? message : undefined;
  // The service's own words, bounded: they end up in logs and, through the bot, in front of users.
  return text === undefined ? undefined : text.slice(0, 200);
}

function shapeError(expected: string, context: ReplyContext): InvalidReplyError {
  return new InvalidReplyError(
    `The reply is not ${expected}`,
    [{ path: '', message: `expected ${expected}` }],
    context.route,
  );
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 200) : 'error';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
