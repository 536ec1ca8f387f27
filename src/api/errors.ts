/**
 * One error class per kind of failure. Each carries what a user-facing message needs (`kind` picks
 * the message, the fields fill it) and never the credentials of the request.
 */
export type ApiErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'upstream'
  | 'timeout'
  | 'invalid_reply'
  | 'refused_locally';

export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  /** The route name (`player`, `turfStatus`, ...) the call was for, when known. */
  readonly route: string | undefined;

  constructor(message: string, route?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.route = route;
  }
}

/** 400: a parameter was rejected by the service. */
export class BadRequestError extends ApiError {
  readonly kind = 'bad_request';
  readonly status = 400;
}

/** 401: token endpoint without a valid token (expired, rejected or missing). */
export class UnauthorizedError extends ApiError {
  readonly kind = 'unauthorized';
  readonly status = 401;
}

export type ForbiddenReason = 'invalid_key' | 'missing_scope' | 'insufficient_permissions' | 'not_authorized';

/** 403: invalid or revoked key, a key without the scope, or an account without the role. */
export class ForbiddenError extends ApiError {
  readonly kind = 'forbidden';
  readonly status = 403;
  constructor(
    message: string,
    readonly reason: ForbiddenReason,
    route?: string,
  ) {
    super(message, route);
  }
}

/** 404: no such player, clan, map, mod or match (or a restricted map, or no leaderboard entry). */
export class NotFoundError extends ApiError {
  readonly kind = 'not_found';
  readonly status = 404;
}

/** 429, or a wait the client refused to make because it would pass the caller's deadline. */
export class RateLimitedError extends ApiError {
  readonly kind = 'rate_limited';
  readonly status = 429;
  constructor(
    message: string,
    /** How long to wait before trying again, in milliseconds. */
    readonly retryAfterMs: number,
    route?: string,
  ) {
    super(message, route);
  }
}

/** 5xx, or the connection failed (status is then undefined). */
export class UpstreamError extends ApiError {
  readonly kind = 'upstream';
  constructor(
    message: string,
    readonly status: number | undefined,
    route?: string,
    options?: ErrorOptions,
  ) {
    super(message, route, options);
  }
}

/**
 * The reply was refused unread because of its size: more bytes than the limit, or JSON nested deeper
 * than the limit. An upstream failure (the bot shows it as one), and never retried.
 */
export class ReplyTooLargeError extends UpstreamError {
  constructor(
    readonly measure: 'bytes' | 'depth',
    readonly limit: number,
    route?: string,
    options?: ErrorOptions,
  ) {
    super(
      measure === 'bytes'
        ? `The reply is larger than ${limit} bytes`
        : `The reply nests deeper than ${limit} levels`,
      undefined,
      route,
      options,
    );
  }
}

/** The route's time budget (or the caller's deadline) ran out. */
export class TimeoutError extends ApiError {
  readonly kind = 'timeout';
  constructor(
    message: string,
    readonly timeoutMs: number,
    route?: string,
  ) {
    super(message, route);
  }
}

export interface ReplyIssue {
  path: string;
  message: string;
}

/** The reply did not match its schema (or was not JSON at all). */
export class InvalidReplyError extends ApiError {
  readonly kind = 'invalid_reply';
  constructor(
    message: string,
    readonly issues: readonly ReplyIssue[],
    route?: string,
  ) {
    super(message, route);
  }
}

export type LocalRefusalReason = 'bad_parameter' | 'bad_token' | 'no_api_key';

/** The client refused before sending anything: a bad parameter, a bad token, no key configured. */
export class LocalRefusalError extends ApiError {
  readonly kind = 'refused_locally';
  constructor(
    message: string,
    readonly reason: LocalRefusalReason,
    /** The parameters that failed, e.g. `['page']`, or `['token']`. */
    readonly fields: readonly string[],
    route?: string,
  ) {
    super(message, route);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** An error for a log line: kind and message, never a request's headers. */
export function describeError(error: unknown): { kind: string; message: string } {
  if (error instanceof ApiError) return { kind: error.kind, message: error.message };
  if (error instanceof Error) return { kind: error.name, message: error.message };
  return { kind: 'unknown', message: String(error) };
}
