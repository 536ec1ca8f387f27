import { createSign, createVerify, generateKeyPair, generateKeyPairSync, type KeyObject } from 'node:crypto';

export type Role = 'moderator' | 'kpd_reviewer';

export interface TokenClaims {
  readonly sub: string;
  readonly name: string;
  readonly roles: readonly Role[];
  readonly iat: number;
  readonly exp: number;
}

export type VerifyResult =
  | { readonly ok: true; readonly claims: TokenClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'signature' | 'expired' };

interface KeyPair {
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

// A 2048-bit key takes about 200 ms to make, more than a sandbox takes to start. One key serves every
// sandbox of the process: it is made in the background at import, and only if a token is signed or
// checked before that finishes is it made on the spot instead.
let background: KeyPair | undefined;
let chosen: KeyPair | undefined;

generateKeyPair('rsa', { modulusLength: 2048 }, (error, publicKey, privateKey) => {
  if (!error) background = { publicKey, privateKey };
});

function processKeyPair(): KeyPair {
  chosen ??= background ?? generateKeyPairSync('rsa', { modulusLength: 2048 });
  return chosen;
}

function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isClaims(value: unknown): value is TokenClaims {
  if (typeof value !== 'object' || value === null) return false;
  const claims = value as Record<string, unknown>;
  return (
    typeof claims['sub'] === 'string' &&
    typeof claims['name'] === 'string' &&
    Array.isArray(claims['roles']) &&
    typeof claims['iat'] === 'number' &&
    typeof claims['exp'] === 'number'
  );
}

/** Signs and checks the players' access tokens (JWT, RS256) with the sandbox's own key pair. */
export class TokenSigner {
  get #keys(): KeyPair {
    return processKeyPair();
  }

  sign(claims: TokenClaims): string {
    const head = `${encodeJson({ alg: 'RS256', typ: 'JWT' })}.${encodeJson(claims)}`;
    const signature = createSign('RSA-SHA256').update(head).sign(this.#keys.privateKey, 'base64url');
    return `${head}.${signature}`;
  }

  verify(token: string, nowSec: number): VerifyResult {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, reason: 'malformed' };
    const [header, payload, signature] = parts as [string, string, string];
    const head = decodeJson(header);
    if (typeof head !== 'object' || head === null || (head as Record<string, unknown>)['alg'] !== 'RS256') {
      return { ok: false, reason: 'malformed' };
    }
    const valid = createVerify('RSA-SHA256')
      .update(`${header}.${payload}`)
      .verify(this.#keys.publicKey, Buffer.from(signature, 'base64url'));
    if (!valid) return { ok: false, reason: 'signature' };
    const claims = decodeJson(payload);
    if (!isClaims(claims)) return { ok: false, reason: 'malformed' };
    if (claims.exp <= nowSec) return { ok: false, reason: 'expired' };
    return { ok: true, claims };
  }
}
