import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorize, checkAccessToken, fingerprint } from '../../src/api/auth.ts';
import { LocalRefusalError } from '../../src/api/errors.ts';
import { makeJwt } from '../support/jwt.ts';

const NOW = Date.UTC(2026, 10, 21);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const valid = makeJwt({ alg: 'RS256', typ: 'JWT' }, { sub: '1', exp: NOW / 1000 + 3600 });
const settings = { defaultApiKey: 'kr_default_key_123456', apiKeyHeader: 'X-Developer-API-Key' };

function refusal(fn: () => unknown): LocalRefusalError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LocalRefusalError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkAccessToken', () => {
  it('accepts a well-formed, unexpired RS256 token', () => {
    expect(() => checkAccessToken(valid, NOW)).not.toThrow();
  });

  it.each([
    ['two parts', 'abc.def'],
    ['four parts', `${valid}.x`],
    ['an empty part', `${b64({ alg: 'RS256' })}..sig`],
    ['non base64url characters', `${b64({ alg: 'RS256' })}.${b64({ exp: 9e9 })}.si+g/=`],
    ['a header that is not JSON', `bm90IGpzb24.${b64({ exp: 9e9 })}.sig`],
    ['a payload that is an array', `${b64({ alg: 'RS256' })}.${b64([1])}.sig`],
    ['alg HS256', makeJwt({ alg: 'HS256' }, { exp: NOW / 1000 + 60 })],
    ['alg none', makeJwt({ alg: 'none' }, { exp: NOW / 1000 + 60 })],
    ['no exp', makeJwt({ alg: 'RS256' }, { sub: '1' })],
    ['exp as a string', makeJwt({ alg: 'RS256' }, { exp: String(NOW / 1000 + 60) })],
    ['an expired exp', makeJwt({ alg: 'RS256' }, { exp: NOW / 1000 - 1 })],
    ['exp exactly now', makeJwt({ alg: 'RS256' }, { exp: NOW / 1000 })],
  ])('refuses a token with %s, without echoing it', (_, token) => {
    const error = refusal(() => checkAccessToken(token, NOW));
    expect(error.reason).toBe('bad_token');
    expect(error.message).not.toContain(token);
  });

  it('never throws anything but a refusal, whatever the string', () => {
    fc.assert(
      fc.property(fc.string(), (token) => {
        try {
          checkAccessToken(token, NOW);
        } catch (error) {
          return error instanceof LocalRefusalError;
        }
        return true;
      }),
    );
  });
});

describe('authorize', () => {
  it('sends nothing on the game tier', () => {
    expect(authorize('game', {}, settings, NOW).headers).toEqual({});
  });

  it('sends the default key on the developer tier, or the key passed for the call', () => {
    expect(authorize('developer', {}, settings, NOW).headers).toEqual({
      'X-Developer-API-Key': settings.defaultApiKey,
    });
    const linked = authorize('developer', { apiKey: 'kr_linked_key_999999' }, settings, NOW);
    expect(linked.headers).toEqual({ 'X-Developer-API-Key': 'kr_linked_key_999999' });
    expect(linked.identity).toBe(`key:${fingerprint('kr_linked_key_999999')}`);
    expect(linked.identity).not.toContain('kr_linked');
  });

  it('refuses the developer tier without any key', () => {
    const error = refusal(() => authorize('developer', {}, { ...settings, defaultApiKey: undefined }, NOW));
    expect(error.reason).toBe('no_api_key');
  });

  it('sends the token as a bearer on the token tier, after checking it', () => {
    expect(authorize('token', { token: valid }, settings, NOW).headers).toEqual({
      authorization: `Bearer ${valid}`,
    });
    expect(refusal(() => authorize('token', {}, settings, NOW)).reason).toBe('bad_token');
    expect(refusal(() => authorize('token', { token: 'nope' }, settings, NOW)).reason).toBe('bad_token');
  });
});
