/**
 * Why a player's access token cannot work, told apart so the reply can say what to do. The tier
 * client refuses the same tokens again before any request (`checkAccessToken` in src/api/auth.ts);
 * this only picks the words. It reads the token's header and claims, never prints them.
 */
export type TokenProblem = 'malformed' | 'not_rs256' | 'no_expiry' | 'expired';

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function segment(part: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Undefined when the token is a well-formed RS256 JWT that has not expired at `nowMs`. */
export function accessTokenProblem(token: string, nowMs: number): TokenProblem | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => SEGMENT.test(part))) return 'malformed';
  const header = segment(parts[0] ?? '');
  const claims = segment(parts[1] ?? '');
  if (!header || !claims) return 'malformed';
  if (header.alg !== 'RS256') return 'not_rs256';
  const exp = claims.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return 'no_expiry';
  return exp * 1000 <= nowMs ? 'expired' : undefined;
}

/** Whitespace a paste may bring around the token (and inside, from wrapped lines) is not part of it. */
export function cleanPastedToken(value: string): string {
  return value
    .trim()
    .replace(/^bearer\s+/i, '')
    .replace(/\s+/g, '');
}
