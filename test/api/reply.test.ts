import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ForbiddenError,
  InvalidReplyError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UpstreamError,
} from '../../src/api/errors.ts';
import { parseJson } from '../../src/api/json.ts';
import { readReply, softRefusal, type ReplyContext } from '../../src/api/reply.ts';

const NOW = 1_800_000_000_000;
const base: ReplyContext = { host: 'base', tier: 'developer', route: 'player', nowMs: NOW };
const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers,
  text: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('readReply', () => {
  it('unwraps the envelope on the base host', () => {
    expect(readReply(reply(200, { data: { a: 1 }, error: null }), base)).toEqual({ a: 1 });
  });

  it('unwraps {data} on the legacy host and passes plain JSON on the matchmaker', () => {
    expect(readReply(reply(200, { data: [1, 2] }), { ...base, host: 'legacy' })).toEqual([1, 2]);
    expect(readReply(reply(200, { games: [] }), { ...base, host: 'matchmaker' })).toEqual({ games: [] });
  });

  it('refuses a body without the envelope, or that is not JSON', () => {
    expect(() => readReply(reply(200, { a: 1 }), base)).toThrow(InvalidReplyError);
    expect(() => readReply(reply(200, '<html>'), base)).toThrow(InvalidReplyError);
    expect(() => readReply(reply(200, { a: 1 }), { ...base, host: 'legacy' })).toThrow(InvalidReplyError);
  });

  it.each([
    [400, { data: null, error: 'invalid type' }, BadRequestError],
    [401, { error: 'Access token required' }, UnauthorizedError],
    [404, { data: null, error: 'Player not found' }, NotFoundError],
    [500, { data: null, error: 'boom' }, UpstreamError],
    [503, '<html>bad gateway</html>', UpstreamError],
  ])('maps status %i to its error class', (status, body, type) => {
    expect(() => readReply(reply(status, body), base)).toThrow(type);
  });

  it('tells the reasons of a 403 apart', () => {
    const reason = (message: string, tier: ReplyContext['tier'] = 'developer') => {
      try {
        readReply(reply(403, { data: null, error: message }), { ...base, tier });
      } catch (error) {
        return (error as ForbiddenError).reason;
      }
      return undefined;
    };
    expect(reason('Not allowed.')).toBe('invalid_key');
    expect(reason('Missing scope: kpd')).toBe('missing_scope');
    expect(reason('insufficient permissions', 'token')).toBe('insufficient_permissions');
    expect(reason('not authorized', 'token')).toBe('not_authorized');
  });

  it('computes the wait of a 429 from retry_after and the window reset, the larger', () => {
    const wait = (body: object, reset: number) => {
      try {
        readReply(reply(429, body, { 'x-ratelimit-reset': String(reset) }), base);
      } catch (error) {
        return (error as RateLimitedError).retryAfterMs;
      }
      return undefined;
    };
    expect(wait({ data: null, error: 'Rate limit exceeded', retry_after: 45 }, NOW / 1000 + 10)).toBe(45_000);
    expect(wait({ data: null, error: 'Rate limit exceeded', retry_after: 5 }, NOW / 1000 + 30)).toBe(30_000);
  });

  it('treats an error inside a success envelope as an upstream fault', () => {
    expect(() => readReply(reply(200, { data: null, error: 'odd' }), base)).toThrow(UpstreamError);
  });
});

describe('softRefusal', () => {
  it('recognises a refusal inside data', () => {
    expect(softRefusal({ available: false, error: 'No offer available' })).toBe('No offer available');
    expect(softRefusal({ available: false })).toBe('Not available');
    expect(softRefusal({ id: 3, items: [] })).toBeUndefined();
    expect(softRefusal([1])).toBeUndefined();
  });
});

describe('parseJson', () => {
  it('keeps integers beyond 2^53 as their exact digits', () => {
    const parsed = parseJson(
      '{"match_id": 9007199254740993, "small": 12, "f": 1.5, "neg": -9007199254740995}',
    );
    expect(parsed).toEqual({ match_id: '9007199254740993', small: 12, f: 1.5, neg: '-9007199254740995' });
  });

  it('leaves long digit runs inside strings alone and safe integers as numbers', () => {
    expect(parseJson('{"s": "12345678901234567890", "n": 1234567890123456}')).toEqual({
      s: '12345678901234567890',
      n: 1234567890123456,
    });
  });
});
