import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ForbiddenError,
  InvalidReplyError,
  NotFoundError,
  RateLimitedError,
  ReplyTooLargeError,
  UnauthorizedError,
  UpstreamError,
} from '../../src/api/errors.ts';
import { DEFAULT_MAX_JSON_DEPTH, JsonTooDeepError, parseJson } from '../../src/api/json.ts';
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

  it('reads floats with long fractions and exponents as numbers', () => {
    const text =
      '{"a": 0.12345678901234567890, "b": -1.5e-12345678901234567, "c": [12345678901234567890.5, 2E+20]}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('agrees with JSON.parse on any JSON without unsafe integers', () => {
    fc.assert(
      // Long digit runs outside strings may be unsafe integers, which the next property covers.
      fc.property(
        fc.json().filter((text) => !/\d{16}/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, ''))),
        (text) => {
          expect(parseJson(text, 1000)).toEqual(JSON.parse(text));
        },
      ),
    );
  });

  it('turns every unsafe integer, wherever it stands, into its exact digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }), fc.boolean(), (big, negative) => {
        const digits = `${negative ? '-' : ''}${big}`;
        expect(parseJson(`{"x":[${digits},{"y":${digits}}],"s":"${digits}"}`)).toEqual({
          x: [digits, { y: digits }],
          s: digits,
        });
      }),
    );
  });

  it('leaves long digit runs inside strings alone and safe integers as numbers', () => {
    expect(parseJson('{"s": "12345678901234567890", "n": 1234567890123456}')).toEqual({
      s: '12345678901234567890',
      n: 1234567890123456,
    });
  });
});

describe('nesting depth', () => {
  const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

  it('reads JSON nested exactly to the limit and refuses one level more, with either parser', () => {
    expect(parseJson(nested(5), 5)).toEqual([[[[[]]]]]);
    expect(() => parseJson(nested(6), 5)).toThrow(JsonTooDeepError);
    const long = `{"a":${'['.repeat(5)}9007199254740993${']'.repeat(5)}}`;
    expect(() => parseJson(long, 5)).toThrow(JsonTooDeepError);
    expect(parseJson(long, 6)).toEqual({ a: [[[[['9007199254740993']]]]] });
  });

  it('counts brackets outside strings only, escaped quotes included', () => {
    const text = JSON.stringify({ a: '[[[[[[{{{{{{', b: 'say "[[[[[[" \\ [[[[' });
    expect(parseJson(text, 1)).toEqual(JSON.parse(text));
  });

  it('has a default that reads real replies and refuses 100,000 levels', () => {
    expect(() => parseJson(nested(DEFAULT_MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJson(nested(100_000))).toThrow(JsonTooDeepError);
    expect(() => parseJson(nested(100_000, '{"a":', '}'))).toThrow(JsonTooDeepError);
  });

  it('turns a too-deep success reply into the typed upstream error; an error status keeps its own', () => {
    const deep = `{"data":${nested(200)},"error":null}`;
    expect(() => readReply(reply(200, deep), base)).toThrow(ReplyTooLargeError);
    expect(() => readReply(reply(200, deep), { ...base, maxDepth: 300 })).not.toThrow();
    const error = (() => {
      try {
        readReply(reply(503, `{"error":${nested(200)}}`), base);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).not.toBeInstanceOf(ReplyTooLargeError);
    expect(error).toMatchObject({ status: 503 });
  });
});
