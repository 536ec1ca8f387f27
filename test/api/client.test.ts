import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryBackend, type CacheBackend } from '../../src/api/cache.ts';
import { TierClient } from '../../src/api/client.ts';
import {
  ForbiddenError,
  InvalidReplyError,
  LocalRefusalError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UpstreamError,
} from '../../src/api/errors.ts';
import { degradations } from '../../src/api/schemas/tolerant.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { ManualClock } from '../support/clock.ts';
import { makeJwt } from '../support/jwt.ts';

let sandbox: Sandbox;
const clients: TierClient[] = [];
const fastRetries = { serverErrorDelayMs: 10, jitterMs: 10, random: () => 0 };

function client(options: Partial<ConstructorParameters<typeof TierClient>[0]> = {}): TierClient {
  const made = new TierClient({
    urls: sandbox.urls,
    apiKey: sandbox.keys.default,
    retryPolicy: fastRetries,
    ...options,
  });
  clients.push(made);
  return made;
}

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
});

afterEach(async () => {
  sandbox.faults.clear();
  sandbox.requests.clear();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await sandbox.close();
});

const playerPath = /^\/api\/player\//;

describe('fault matrix: what is retried, with exact call counts', () => {
  it('retries a 5xx once and succeeds', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'status', status: 502, times: 1 });
    let attempts = 0;
    const profile = await client().api.player(
      { playerName: sandbox.world.samples.player },
      { onAttempt: () => (attempts += 1) },
    );
    expect(profile.player_name).toBe(sandbox.world.samples.player);
    expect(sandbox.requests.count(playerPath)).toBe(2);
    expect(attempts).toBe(2);
  });

  it('gives up after the one retry of a persistent 5xx', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'status', status: 503 });
    await expect(client().api.player({ playerName: 'x' })).rejects.toBeInstanceOf(UpstreamError);
    expect(sandbox.requests.count(playerPath)).toBe(2);
  });

  it('retries a 429 once after its wait, and succeeds', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'rateLimit', retryAfterSec: 1, times: 1 });
    const clock = new ManualClock(Date.now());
    let attempts = 0;
    const profile = client({ clock }).api.player(
      { playerName: sandbox.world.samples.player },
      { onAttempt: () => (attempts += 1) },
    );
    // The 429 has arrived once the client waits on its clock: at least the second it asked for (longer
    // when its window resets later), and not a moment less.
    await clock.whenSleeping();
    const waitMs = clock.nextWake! - clock.now();
    expect(waitMs).toBeGreaterThanOrEqual(1_000);
    await clock.advance(waitMs - 1);
    expect(attempts).toBe(1);
    await clock.advance(1);
    expect((await profile).player_id).toBeGreaterThan(0);
    expect(attempts).toBe(2);
    expect(sandbox.requests.count(playerPath)).toBe(2);
  });

  it('does not wait for a 429 whose wait passes the deadline', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'rateLimit', retryAfterSec: 45 });
    const error = await client()
      .api.player({ playerName: 'x' }, { deadlineMs: 5_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThanOrEqual(44_000);
    expect(sandbox.requests.count(playerPath)).toBe(1);
  });

  it('never retries a timeout', async () => {
    // The first request is never answered while this file runs (the sandbox logs a request when it
    // answers, so no later test counts it); a retry would be answered at once, and logged.
    sandbox.faults.inject({ match: playerPath, kind: 'delay', ms: 3_600_000, times: 1 });
    const fast = client({ defaultTimeoutMs: 100 });
    let attempts = 0;
    await expect(
      fast.api.player({ playerName: 'x' }, { onAttempt: () => (attempts += 1) }),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(attempts).toBe(1);
    expect(sandbox.requests.count(playerPath)).toBe(0);
  });

  it('never retries a connection reset', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'reset' });
    const error = await client()
      .api.player({ playerName: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBeUndefined();
    expect(sandbox.requests.count(playerPath)).toBe(1);
  });

  it('never retries a 404, and maps it to NotFoundError', async () => {
    await expect(client().api.player({ playerName: 'no-such-player-anywhere' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(sandbox.requests.count(playerPath)).toBe(1);
  });

  it('a 5xx then a 429: each retried once, three calls in all', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'status', status: 500, times: 1 });
    sandbox.faults.inject({ match: playerPath, kind: 'rateLimit', retryAfterSec: 1, times: 1 });
    const clock = new ManualClock(Date.now());
    const profile = client({ clock }).api.player({ playerName: sandbox.world.samples.player });
    for (let retry = 0; retry < 2; retry += 1) {
      await clock.whenSleeping();
      await clock.advance(clock.nextWake! - clock.now());
    }
    await profile;
    expect(sandbox.requests.count(playerPath)).toBe(3);
  });
});

describe('replies', () => {
  it('fails a malformed body as an invalid reply, without retrying', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'malformed' });
    await expect(client().api.player({ playerName: 'x' })).rejects.toBeInstanceOf(InvalidReplyError);
    expect(sandbox.requests.count(playerPath)).toBe(1);
  });

  it('tolerates extra fields and degrades a field of the wrong type to absent', async () => {
    degradations.reset();
    sandbox.faults.inject({ match: playerPath, kind: 'extraFields', times: 1 });
    const withExtras = await client().api.player({ playerName: sandbox.world.samples.player });
    expect(withExtras.kills).toBeTypeOf('number');
    sandbox.faults.inject({ match: playerPath, kind: 'wrongType', field: 'kills', times: 1 });
    const degraded = await client().api.player({ playerName: sandbox.world.samples.player });
    expect(degraded.kills).toBeUndefined();
    expect(degraded.deaths).toBeTypeOf('number');
    expect(degradations.seen()).toContain('PlayerProfile.kills');
  });

  it('returns and caches only the fields the schemas declare, at every depth', async () => {
    const stored: unknown[] = [];
    const backend = memoryBackend();
    const cache: CacheBackend = {
      get: (key) => backend.get(key),
      set: (key, value, ttlMs) => {
        stored.push(value);
        return backend.set(key, value, ttlMs);
      },
    };
    sandbox.faults.inject({ match: '/api/', kind: 'extraFields', times: 2 });
    const api = client({ cache }).api;
    const profile = await api.player({ playerName: sandbox.world.samples.player });
    const members = await api.clanMembers({ clanName: sandbox.world.samples.clan });
    expect(sandbox.requests.count('/api/')).toBe(2);
    expect(profile.kills).toBeTypeOf('number');
    expect(members.members.length).toBeGreaterThan(0);
    expect(stored).toHaveLength(2);
    for (const value of [profile, members, ...stored]) {
      expect(JSON.stringify(value)).not.toContain('x_sandbox_extra');
    }
  });

  it('returns a soft refusal as a typed refused result', async () => {
    const offer = await client().api.wildOffer();
    if (offer.refused) expect(offer.message).toBe('No offer available');
    else expect(offer.value).toMatchObject({ available: true });
    // The sandbox alternates days; check both shapes through the reader directly.
    expect(typeof offer.refused).toBe('boolean');
  });

  it('keeps match ids beyond 2^53 as exact strings', async () => {
    const id = sandbox.world.samples.matchId;
    expect(BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const match = await client().api.match({ matchId: id });
    expect(match.match_id).toBe(id);
  });
});

describe('local refusal: nothing is sent', () => {
  it.each([
    ['an empty name', 'player', { playerName: '' }],
    ['a numeric match id', 'match', { matchId: 123 }],
    ['a match id with letters', 'match', { matchId: '123abc' }],
    ['page 0', 'clanMembers', { clanName: 'c', page: 0 }],
    ['days 121', 'marketSkin', { skinIndex: 1, days: 121 }],
    ['a negative region', 'rankedLeaderboard', { region: -1 }],
    ['a map board type', 'mapLeaderboard', { mapName: 'm', type: 'kills' }],
    ['order 2', 'mapLeaderboard', { mapName: 'm', order: 2 }],
    ['events limit 101', 'events', { limit: 101 }],
    ['target ids without a target type', 'events', { targetId: [1] }],
    ['101 target ids', 'events', { targetType: 'map', targetId: Array.from({ length: 101 }, (_, i) => i) }],
  ] as const)('refuses %s', async (_, route, params) => {
    await expect(client().call(route, params)).rejects.toBeInstanceOf(LocalRefusalError);
    expect(sandbox.requests.count()).toBe(0);
  });

  it.each([
    ['not a JWT', 'abc'],
    ['HS256', makeJwt({ alg: 'HS256' }, { exp: Date.now() / 1000 + 600 })],
    ['expired', makeJwt({ alg: 'RS256' }, { exp: Date.now() / 1000 - 1 })],
  ])('refuses a token that is %s', async (_, token) => {
    const error = await client()
      .api.wallet(undefined, { token })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalRefusalError);
    expect((error as LocalRefusalError).reason).toBe('bad_token');
    expect(sandbox.requests.count()).toBe(0);
  });

  it('refuses the developer tier without a key', async () => {
    await expect(client({ apiKey: undefined }).api.player({ playerName: 'x' })).rejects.toMatchObject({
      reason: 'no_api_key',
    });
    expect(sandbox.requests.count()).toBe(0);
  });
});

describe('tiers and credentials', () => {
  it('sends the key on the developer tier only, and the bearer on the token tier only', async () => {
    const c = client();
    await c.api.turfStatus();
    await c.api.player({ playerName: sandbox.world.samples.player });
    const token = sandbox.issueToken({ playerName: sandbox.world.samples.player });
    await c.api.wallet(undefined, { token });
    const [game, dev, tok] = sandbox.requests.entries();
    expect(game).toMatchObject({ keyPresent: false, bearerPresent: false });
    expect(dev).toMatchObject({ keyPresent: true, bearerPresent: false });
    expect(tok).toMatchObject({ keyPresent: false, bearerPresent: true });
  });

  it('uses a key passed for the call instead of the default (a guild-linked KPD key)', async () => {
    const c = client();
    await expect(c.api.kpdLatestCalls()).rejects.toMatchObject({ reason: 'missing_scope' });
    const calls = await c.api.kpdLatestCalls(undefined, { apiKey: sandbox.keys.kpd });
    expect(calls.length).toBeGreaterThan(0);
  });

  it('maps a revoked key to ForbiddenError invalid_key and a missing role to insufficient_permissions', async () => {
    await expect(
      client({ apiKey: sandbox.keys.revoked }).api.player({ playerName: 'x' }),
    ).rejects.toMatchObject({
      reason: 'invalid_key',
    });
    const token = sandbox.issueToken({ playerName: sandbox.world.samples.player });
    const error = await client()
      .api.kpdReviewers(undefined, { token })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).reason).toBe('insufficient_permissions');
  });

  it('maps the legacy host without a token to UnauthorizedError', async () => {
    const token = sandbox.issueToken({ playerName: sandbox.world.samples.player, expiresInSec: 3600 });
    // A token the sandbox did not sign passes the local check but is rejected upstream.
    const forged = `${token.split('.').slice(0, 2).join('.')}.AAAA`;
    await expect(client().api.rankedConnection(undefined, { token: forged })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });
});

describe('cache and single flight over HTTP', () => {
  it('sends one request for 100 concurrent identical lookups', async () => {
    const c = client();
    const name = sandbox.world.samples.verifiedPlayer;
    const replies = await Promise.all(Array.from({ length: 100 }, () => c.api.player({ playerName: name })));
    expect(new Set(replies.map((r) => r.player_id)).size).toBe(1);
    expect(sandbox.requests.count(playerPath)).toBe(1);
    await c.api.player({ playerName: name });
    expect(sandbox.requests.count(playerPath)).toBe(1);
    expect(await c.peek('player', { playerName: name })).toMatchObject({ player_name: name });
  });

  it('peeks from memory with the key a call caches under, and refuses what a call would refuse', async () => {
    const c = client();
    const name = sandbox.world.samples.verifiedPlayer;
    expect(c.peekMemory('player', { playerName: name })).toBeUndefined();
    await c.api.player({ playerName: name });
    // Twice each: the second time the key is the one kept from the first.
    for (let round = 0; round < 2; round += 1) {
      expect(c.peekMemory('player', { playerName: name })?.value).toMatchObject({ player_name: name });
      // The parameters as checked: the name is trimmed, as a call would send it.
      expect(c.peekMemory('player', { playerName: ` ${name} ` })?.value).toMatchObject({ player_name: name });
      expect(await c.peek('player', { playerName: ` ${name} ` })).toMatchObject({ player_name: name });
      // Refused parameters find nothing, even beside ones that do: an unknown key, an empty name.
      const extra = { playerName: name, page: undefined } as unknown as { playerName: string };
      expect(c.peekMemory('player', extra)).toEqual({ value: undefined });
      expect(await c.peek('player', extra)).toBeUndefined();
      expect(c.peekMemory('player', { playerName: '' })).toEqual({ value: undefined });
    }
    // A route that is never cached answers nothing from memory either.
    expect(c.peekMemory('wallet', {})).toEqual({ value: undefined });
  });

  it('never caches the token tier', async () => {
    const c = client();
    const token = sandbox.issueToken({ playerName: sandbox.world.samples.player });
    await c.api.wallet(undefined, { token });
    await c.api.wallet(undefined, { token });
    expect(sandbox.requests.count(/^\/player\/wallet/)).toBe(2);
  });
});

describe('rate limits', () => {
  it('learns the window and queues instead of drawing a 429', async () => {
    const small = await startSandbox({ rateLimit: { limit: 5, windowMs: 2_000 }, seed: 2 });
    try {
      const c = client({
        urls: small.urls,
        apiKey: small.keys.default,
        generalLimit: { limit: 60, windowMs: 60_000 },
      });
      const names = small.world.players.slice(0, 9).map((p) => p.name);
      await Promise.all(names.map((playerName) => c.api.player({ playerName }, { deadlineMs: 10_000 })));
      const statuses = small.requests.entries().map((e) => e.status);
      // The first reply teaches the limit of 5; at most the requests already in flight can draw a 429.
      expect(statuses.filter((s) => s === 200).length).toBe(9);
    } finally {
      await small.close();
    }
  });

  it('keeps the events endpoint within its own window', async () => {
    const c = client();
    const calls = Array.from({ length: 8 }, (_, i) =>
      c.api.events({ after: i }, { priority: 'background', deadlineMs: 20_000 }).then(
        () => 'ok',
        (e: unknown) => (e instanceof RateLimitedError ? 'waited' : 'error'),
      ),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r === 'ok')).toHaveLength(6);
    expect(results.filter((r) => r === 'waited')).toHaveLength(2);
    expect(sandbox.requests.count('/api/events')).toBe(6);
    expect(sandbox.requests.entries().every((e) => e.status === 200)).toBe(true);
  });
});
