import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, bearer, get, withKey } from '../../support/sandbox.ts';

let sandbox: Sandbox;
let playerPath: string;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => FIXED_NOW, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  playerPath = `/api/player/${sandbox.world.samples.player}`;
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.faults.clear();
  sandbox.requests.clear();
});

const player = () => get(`${sandbox.urls.base}${playerPath}`, withKey(sandbox.keys.default));

describe('faults', () => {
  it('status: answers that status with the host error shape, `times` times', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'status', status: 503, times: 2 });
    for (let i = 0; i < 2; i++) {
      const reply = await player();
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ data: null, error: 'Service Unavailable' });
    }
    expect((await player()).status).toBe(200);
    sandbox.faults.inject({ match: '/game-list', kind: 'status', status: 502, times: 1 });
    const plain = await get(`${sandbox.urls.matchmaker}/game-list?hostname=x`);
    expect(plain.status).toBe(502);
    expect(plain.body).toEqual({ error: 'Bad Gateway' });
  });

  it('rateLimit: a 429 with the real body and headers', async () => {
    sandbox.faults.inject({ match: '/api/', kind: 'rateLimit', retryAfterSec: 45, times: 1 });
    const reply = await player();
    expect(reply.status).toBe(429);
    expect(reply.body).toEqual({ data: null, error: 'Rate limit exceeded', retry_after: 45 });
    expect(reply.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(reply.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil(FIXED_NOW / 1000) + 45));
    expect((await player()).status).toBe(200);
  });

  it('delay: answers normally after the delay', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'delay', ms: 30, times: 1 });
    const reply = await player();
    expect(reply.status).toBe(200);
    expect(reply.body.data.player_name).toBe(sandbox.world.samples.player);
  });

  it('delay: a client that gives up sees its request aborted', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'delay', ms: 5_000, times: 1 });
    const aborted = fetch(`${sandbox.urls.base}${playerPath}`, {
      headers: withKey(sandbox.keys.default),
      signal: AbortSignal.timeout(50),
    });
    await expect(aborted).rejects.toThrow();
  });

  it('malformed: 200 with a body that is not JSON', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'malformed', times: 1 });
    const reply = await player();
    expect(reply.status).toBe(200);
    expect(() => JSON.parse(reply.text) as unknown).toThrow();
  });

  it('extraFields: every object of data gets unknown fields', async () => {
    sandbox.faults.inject({ match: /^\/api\/clan\/[^/]+\/members$/, kind: 'extraFields', times: 1 });
    const reply = await get(`${sandbox.urls.base}/api/clan/Vortex/members`, withKey(sandbox.keys.default));
    expect(reply.status).toBe(200);
    expect(reply.body.error).toBeNull();
    expect(reply.body.data).toHaveProperty('x_sandbox_extra');
    for (const member of reply.body.data.members) {
      expect(member).toHaveProperty('x_sandbox_extra', 'unexpected');
      expect(member).toHaveProperty('player_name');
    }
    const lobbies = await (async () => {
      sandbox.faults.inject({ match: '/game-list', kind: 'extraFields', times: 1 });
      return get(`${sandbox.urls.matchmaker}/game-list?hostname=x`);
    })();
    expect(lobbies.body).toHaveProperty('x_sandbox_extra');
    expect(lobbies.body.games[0][4]).toHaveProperty('x_sandbox_extra');
  });

  it('wrongType: that field, anywhere in data, gets a value of the wrong type', async () => {
    sandbox.faults.inject({ match: '/api/clan/Vortex/members', kind: 'wrongType', field: 'score', times: 1 });
    const members = await get(`${sandbox.urls.base}/api/clan/Vortex/members`, withKey(sandbox.keys.default));
    for (const member of members.body.data.members) expect(typeof member.score).toBe('string');
    sandbox.faults.inject({ match: playerPath, kind: 'wrongType', field: 'player_name', times: 1 });
    const profile = await player();
    expect(typeof profile.body.data.player_name).toBe('number');
    expect(typeof (await player()).body.data.player_name).toBe('string');
  });

  it('reset: destroys the socket without an answer', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'reset', times: 1 });
    await expect(
      fetch(`${sandbox.urls.base}${playerPath}`, { headers: withKey(sandbox.keys.default) }),
    ).rejects.toThrow();
    expect(sandbox.requests.entries().at(-1)?.status).toBe(0);
    expect((await player()).status).toBe(200);
  });

  it('applies the first armed matching fault, and clear() disarms them all', async () => {
    sandbox.faults.inject({ match: playerPath, kind: 'status', status: 500, times: 1 });
    sandbox.faults.inject({ match: '/api/', kind: 'status', status: 502 });
    expect((await player()).status).toBe(500);
    expect((await player()).status).toBe(502);
    expect((await get(`${sandbox.urls.base}/api/mods`, withKey(sandbox.keys.default))).status).toBe(502);
    expect((await get(`${sandbox.urls.base}/titles`)).status).toBe(200);
    sandbox.faults.clear();
    expect((await player()).status).toBe(200);
    expect(() => sandbox.faults.inject({ match: '/', kind: 'reset', times: 0 })).toThrow(RangeError);
  });
});

describe('request log', () => {
  it('records host, method, path, query, credentials presence and status, never their values', async () => {
    const token = sandbox.issueToken({ playerName: sandbox.world.samples.player });
    await get(`${sandbox.urls.base}/api/events?after=5&limit=3`, withKey(sandbox.keys.default));
    await get(`${sandbox.urls.legacy}/daily-spin/progress`, bearer(token));
    await get(`${sandbox.urls.matchmaker}/game-list?hostname=krunker.io`);
    await fetch(`${sandbox.urls.base}/titles`, { method: 'POST' });
    const entries = sandbox.requests.entries();
    expect(entries.map(({ at: _at, ...rest }) => rest)).toEqual([
      {
        host: 'base',
        method: 'GET',
        path: '/api/events',
        query: { after: '5', limit: '3' },
        keyPresent: true,
        bearerPresent: false,
        status: 200,
      },
      {
        host: 'legacy',
        method: 'GET',
        path: '/daily-spin/progress',
        query: {},
        keyPresent: false,
        bearerPresent: true,
        status: 200,
      },
      {
        host: 'matchmaker',
        method: 'GET',
        path: '/game-list',
        query: { hostname: 'krunker.io' },
        keyPresent: false,
        bearerPresent: false,
        status: 200,
      },
      {
        host: 'base',
        method: 'POST',
        path: '/titles',
        query: {},
        keyPresent: false,
        bearerPresent: false,
        status: 405,
      },
    ]);
    for (const entry of entries) expect(entry.at).toBe(FIXED_NOW);
    const dump = JSON.stringify(entries);
    expect(dump).not.toContain(sandbox.keys.default);
    expect(dump).not.toContain(token);
    expect(sandbox.requests.count()).toBe(4);
    expect(sandbox.requests.count('/api/events')).toBe(1);
    expect(sandbox.requests.count('/api/')).toBe(1);
    expect(sandbox.requests.count('/api')).toBe(0);
    expect(sandbox.requests.count(/^\/(titles|game-list)$/)).toBe(2);
    sandbox.requests.clear();
    expect(sandbox.requests.count()).toBe(0);
  });
});

describe('request line', () => {
  it('answers only GET (405 otherwise) and 404 for unknown paths in each host shape', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await fetch(`${sandbox.urls.base}/market/list`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      expect(await res.json()).toEqual({ data: null, error: 'Method not allowed' });
    }
    const legacy = await get(`${sandbox.urls.legacy}/nothing`);
    expect(legacy.status).toBe(404);
    expect(legacy.body).toEqual({ error: 'Not found' });
    const base = await get(`${sandbox.urls.base}/nothing`);
    expect(base.body).toEqual({ data: null, error: 'Not found' });
    const badEscape = await get(`${sandbox.urls.base}/api/player/%E0%A4%A`, withKey(sandbox.keys.default));
    expect(badEscape.status).toBe(404);
  });
});
