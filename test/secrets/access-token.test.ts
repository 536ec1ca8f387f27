import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAccessToken } from '../../src/api/auth.ts';
import { accessTokenProblem, cleanPastedToken } from '../../src/secrets/access-token.ts';
import { makeJwt } from '../support/jwt.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const inAnHour = Math.floor(NOW / 1000) + 3600;

describe('accessTokenProblem', () => {
  it('accepts a well-formed RS256 token that has not expired', () => {
    expect(accessTokenProblem(makeJwt({ alg: 'RS256', typ: 'JWT' }, { exp: inAnHour }), NOW)).toBeUndefined();
  });

  it('tells apart malformed, not RS256, no expiry and expired tokens', () => {
    expect(accessTokenProblem('not a token', NOW)).toBe('malformed');
    expect(accessTokenProblem('a.b', NOW)).toBe('malformed');
    expect(accessTokenProblem('e30.e30.', NOW)).toBe('malformed');
    expect(accessTokenProblem(`${Buffer.from('[1]').toString('base64url')}.e30.c2ln`, NOW)).toBe('malformed');
    expect(accessTokenProblem(makeJwt({ alg: 'HS256' }, { exp: inAnHour }), NOW)).toBe('not_rs256');
    expect(accessTokenProblem(makeJwt({ alg: 'none' }, { exp: inAnHour }), NOW)).toBe('not_rs256');
    expect(accessTokenProblem(makeJwt({ alg: 'RS256' }, {}), NOW)).toBe('no_expiry');
    expect(accessTokenProblem(makeJwt({ alg: 'RS256' }, { exp: '2099' }), NOW)).toBe('no_expiry');
    expect(accessTokenProblem(makeJwt({ alg: 'RS256' }, { exp: Math.floor(NOW / 1000) }), NOW)).toBe(
      'expired',
    );
  });

  it('agrees with the tier client, which refuses exactly the tokens it finds a problem with', () => {
    const header = fc.record(
      { alg: fc.constantFrom('RS256', 'HS256', 'none', 'RS512') },
      { requiredKeys: [] },
    );
    const claims = fc.record(
      { exp: fc.oneof(fc.integer({ min: 0, max: 2 * inAnHour }), fc.constant('soon'), fc.double()) },
      { requiredKeys: [] },
    );
    const token = fc.oneof(
      fc.tuple(header, claims).map(([h, c]) => makeJwt(h, c)),
      fc.string(),
      fc
        .array(fc.stringMatching(/^[A-Za-z0-9_-]{0,12}$/), { minLength: 1, maxLength: 4 })
        .map((p) => p.join('.')),
    );
    fc.assert(
      fc.property(token, (value) => {
        let refused = false;
        try {
          checkAccessToken(value, NOW);
        } catch {
          refused = true;
        }
        expect(accessTokenProblem(value, NOW) !== undefined).toBe(refused);
      }),
      { numRuns: 500 },
    );
  });
});

describe('cleanPastedToken', () => {
  it('drops a Bearer prefix and whitespace that wrapping or pasting adds', () => {
    const token = makeJwt({ alg: 'RS256' }, { exp: inAnHour });
    expect(cleanPastedToken(`  Bearer ${token}\n`)).toBe(token);
    expect(cleanPastedToken(`${token.slice(0, 20)}\n${token.slice(20)}`)).toBe(token);
  });
});
