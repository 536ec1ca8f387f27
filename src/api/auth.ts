import { createHash } from 'node:crypto';
import { LocalRefusalError } from './errors.ts';
import type { Tier } from './route.ts';

/**
 * Credentials per tier: the developer tier sends an API key header, the game tier nothing, the token
 * tier the player's access token as a bearer. A token is checked locally first, so that one which
 * cannot work is refused before any request leaves.
 */
export interface Credentials {
  /** A key passed for this call (a guild's linked moderator key); wins over the process default. */
  readonly apiKey?: string | undefined;
  readonly token?: string | undefined;
}

export interface AuthSettings {
  readonly defaultApiKey: string | undefined;
  readonly apiKeyHeader: string;
}

export interface Authorization {
  readonly headers: Record<string, string>;
  /** Stable, non-reversible name of the credential, for rate-limit buckets and cache keys. */
  readonly identity: string;
}

export function authorize(
  tier: Tier,
  credentials: Credentials,
  settings: AuthSettings,
  nowMs: number,
  route?: string,
): Authorization {
  switch (tier) {
    case 'game':
      return { headers: {}, identity: 'anonymous' };
    case 'developer': {
      const key = credentials.apiKey ?? settings.defaultApiKey;
      if (!key) {
        throw new LocalRefusalError(
          'No API key is configured for the developer API',
          'no_api_key',
          ['apiKey'],
          route,
        );
      }
      return { headers: { [settings.apiKeyHeader]: key }, identity: `key:${fingerprint(key)}` };
    }
    case 'token': {
      const token = credentials.token;
      if (!token) {
        throw new LocalRefusalError('This call needs a player access token', 'bad_token', ['token'], route);
      }
      checkAccessToken(token, nowMs, route);
      return { headers: { authorization: `Bearer ${token}` }, identity: `token:${fingerprint(token)}` };
    }
  }
}

/** sha256 prefix: enough to tell credentials apart, useless to recover them. */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Refuses a token that is not a well-formed JWT, whose header does not say RS256, or whose `exp` has
 * passed. The signature cannot be checked here (the service's public key is not published), so this
 * only spares requests that would certainly fail. Messages never include the token.
 */
export function checkAccessToken(token: string, nowMs: number, route?: string): void {
  const refuse = (message: string): never => {
    throw new LocalRefusalError(message, 'bad_token', ['token'], route);
  };
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) {
    refuse('The access token is not a well-formed JWT');
  }
  const [headerPart = '', payloadPart = ''] = parts;
  const header = decodeSegment(headerPart);
  const payload = decodeSegment(payloadPart);
  if (!isObject(header) || !isObject(payload)) return refuse('The access token is not a well-formed JWT');
  if (header.alg !== 'RS256') refuse('The access token is not signed with RS256');
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) {
    refuse('The access token has no expiry time');
  }
  if ((payload.exp as number) * 1000 <= nowMs) refuse('The access token has expired');
}

function decodeSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
