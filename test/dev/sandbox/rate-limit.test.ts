import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, get, withKey } from '../../support/sandbox.ts';
import { ManualClock } from '../../support/clock.ts';

const clock = new ManualClock(FIXED_NOW);
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    now: () => clock.now(),
    rateLimit: { limit: 5, windowMs: 60_000 },
    eventsRateLimit: { limit: 2, windowMs: 30_000 },
  });
});
afterAll(() => sandbox.close());

function headerNumbers(headers: Headers): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(headers.get('x-ratelimit-limit')),
    remaining: Number(headers.get('x-ratelimit-remaining')),
    reset: Number(headers.get('x-ratelimit-reset')),
  };
}

describe('general per-key window', () => {
  it('counts down on every developer reply and answers 429 past the limit, until the window resets', async () => {
    clock.set(FIXED_NOW + 123);
    const key = sandbox.keys.default;
    const url = `${sandbox.urls.base}/api/clan/Vortex`;
    const resetAt = Math.ceil((FIXED_NOW + 123 + 60_000) / 1000);
    for (let i = 1; i <= 5; i++) {
      // Errors count and carry the headers too.
      const reply = await get(i === 3 ? `${sandbox.urls.base}/api/clan/Nope` : url, withKey(key));
      expect(reply.status).toBe(i === 3 ? 404 : 200);
      expect(headerNumbers(reply.headers)).toEqual({ limit: 5, remaining: 5 - i, reset: resetAt });
      await clock.advance(1_000);
    }
    const refused = await get(url, withKey(key));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ data: null, error: 'Rate limit exceeded', retry_after: 55 });
    expect(headerNumbers(refused.headers)).toEqual({ limit: 5, remaining: 0, reset: resetAt });

    // Another key has its own window.
    expect((await get(url, withKey(sandbox.keys.kpd))).status).toBe(200);

    clock.set(FIXED_NOW + 123 + 60_000);
    const again = await get(url, withKey(key));
    expect(again.status).toBe(200);
    expect(headerNumbers(again.headers)).toEqual({
      limit: 5,
      remaining: 4,
      reset: Math.ceil((FIXED_NOW + 123 + 120_000) / 1000),
    });
  });

  it('puts no rate headers on game-tier replies and does not count them', async () => {
    const reply = await get(`${sandbox.urls.base}/territorial-wars/status`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('answers 403 without counting for a bad key', async () => {
    const reply = await get(`${sandbox.urls.base}/api/clan/Vortex`, withKey('kr_nope'));
    expect(reply.status).toBe(403);
    expect(reply.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('events window', () => {
  it('has its own window on top of the general one, and its replies describe it', async () => {
    clock.set(FIXED_NOW + 10 * 60_000);
    const key = sandbox.keys.kpd;
    const events = `${sandbox.urls.base}/api/events`;
    const first = await get(events, withKey(key));
    expect(first.status).toBe(200);
    expect(headerNumbers(first.headers)).toMatchObject({ limit: 2, remaining: 1 });
    const second = await get(events, withKey(key));
    expect(headerNumbers(second.headers)).toMatchObject({ limit: 2, remaining: 0 });
    await clock.advance(10_000);
    const third = await get(events, withKey(key));
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ data: null, error: 'Rate limit exceeded', retry_after: 20 });
    expect(headerNumbers(third.headers)).toMatchObject({ limit: 2, remaining: 0 });

    // The two events calls used the general window too: 3 of 5 left.
    const other = await get(`${sandbox.urls.base}/api/clan/Vortex`, withKey(key));
    expect(headerNumbers(other.headers)).toMatchObject({ limit: 5, remaining: 2 });

    await clock.advance(20_000);
    expect((await get(events, withKey(key))).status).toBe(200);
  });

  it('is refused by the general window even when the events window has room', async () => {
    clock.set(FIXED_NOW + 60 * 60_000);
    const key = sandbox.keys.noScopes;
    for (let i = 0; i < 5; i++)
      expect((await get(`${sandbox.urls.base}/api/mods`, withKey(key))).status).toBe(200);
    const refused = await get(`${sandbox.urls.base}/api/events`, withKey(key));
    expect(refused.status).toBe(429);
    expect(headerNumbers(refused.headers)).toMatchObject({ limit: 5, remaining: 0 });
  });
});
