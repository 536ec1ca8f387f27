import { createSign, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, bearer, get, keysOf, rows } from '../../support/sandbox.ts';
import { ManualClock } from '../../support/clock.ts';

const clock = new ManualClock(FIXED_NOW);
let sandbox: Sandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock.now() });
  token = sandbox.issueToken({ playerName: sandbox.world.samples.player });
});
afterAll(() => sandbox.close());

function segment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function forged(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const [header, payload] = token.split('.') as [string, string];
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(privateKey, 'base64url');
  return `${header}.${payload}.${signature}`;
}

const TOKEN_PATHS = [
  '/player/me',
  '/player/wallet',
  '/account/usernames',
  '/email/preferences',
  '/discord/status',
  '/guest/profile',
  '/market/listings',
  '/market/history',
  '/market/sales',
  '/market/black-market',
  '/market/black-market/rank',
  '/skins',
  '/trades/history',
  '/clans/my-applications',
  '/studios/mine',
  '/studios/invites',
];

describe('tokens', () => {
  it('signs RS256 JWTs with sub, name, roles, iat and exp', () => {
    const [header, payload] = token.split('.') as [string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const player = sandbox.world.players.find((p) => p.name === sandbox.world.samples.player)!;
    expect(claims).toEqual({
      sub: String(player.id),
      name: player.name,
      roles: [],
      iat: Math.floor(FIXED_NOW / 1000),
      exp: Math.floor(FIXED_NOW / 1000) + 86_400,
    });
    expect(() => sandbox.issueToken({ playerName: 'NobodyByThisName' })).toThrow(/no player/);
  });

  it('answers 401 in the envelope without a token, with a bad one and with an expired one', async () => {
    const url = `${sandbox.urls.base}/player/wallet`;
    const cases: [Record<string, string>, string][] = [
      [{}, 'Access token required'],
      [bearer('not-a-jwt'), 'Invalid token'],
      [bearer(forged()), 'Invalid token'],
      [bearer(`${segment({ alg: 'none' })}.${token.split('.')[1]}.`), 'Invalid token'],
      [
        bearer(sandbox.issueToken({ playerName: sandbox.world.samples.player, expiresInSec: 0 })),
        'Token expired',
      ],
      [{ Authorization: `Basic ${token}` }, 'Access token required'],
    ];
    for (const [headers, error] of cases) {
      const reply = await get(url, headers);
      expect(reply.status, error).toBe(401);
      expect(reply.body).toEqual({ data: null, error });
    }
  });

  it('expires tokens by the sandbox clock', async () => {
    const short = sandbox.issueToken({ playerName: sandbox.world.samples.player, expiresInSec: 60 });
    expect((await get(`${sandbox.urls.base}/player/wallet`, bearer(short))).status).toBe(200);
    await clock.advance(61_000);
    expect((await get(`${sandbox.urls.base}/player/wallet`, bearer(short))).status).toBe(401);
    clock.set(FIXED_NOW);
  });
});

describe('token API on the base host', () => {
  it('answers every own-account path with a valid token', async () => {
    for (const path of TOKEN_PATHS) {
      const reply = await get(`${sandbox.urls.base}${path}`, bearer(token));
      expect(reply.status, path).toBe(200);
      expect(reply.body.error, path).toBeNull();
    }
  });

  it('serves the player blob, wallet and market with bare big market ids', async () => {
    const me = (await get(`${sandbox.urls.base}/player/me`, bearer(token))).body.data;
    expect(JSON.parse(Buffer.from(me.blob as string, 'base64').toString()).name).toBe(
      sandbox.world.samples.player,
    );
    const wallet = (await get(`${sandbox.urls.base}/player/wallet`, bearer(token))).body.data;
    expect(wallet.currencies.length).toBeGreaterThan(0);
    const listings = await get(`${sandbox.urls.base}/market/listings?sort=price_asc`, bearer(token));
    expect(listings.text).toMatch(/"market_id":9007199\d{9},/);
    expect(listings.body.data.listings).toHaveLength(50);
    expect(typeof listings.body.data.cursor).toBe('string');
    const next = await get(
      `${sandbox.urls.base}/market/listings?cursor=${listings.body.data.cursor}`,
      bearer(token),
    );
    expect(next.body.data.listings[0].price).toBeGreaterThanOrEqual(
      listings.body.data.listings[49].price as number,
    );
    const trades = (await get(`${sandbox.urls.base}/trades/history?open=1&limit=100`, bearer(token))).body
      .data;
    const closed = (await get(`${sandbox.urls.base}/trades/history`, bearer(token))).body.data;
    expect(rows<{ st: number }>(closed.trades).every((t) => t.st !== 0)).toBe(true);
    expect(rows(trades.trades).length).toBeGreaterThanOrEqual(rows(closed.trades).length);
    const other = sandbox.world.players.find((p) => p.name === sandbox.world.samples.verifiedPlayer)!;
    const both = (await get(`${sandbox.urls.base}/trades/inventory/${other.id}`, bearer(token))).body.data;
    expect(keysOf(both)).toEqual(['mine', 'theirs']);
    const search = await get(
      `${sandbox.urls.base}/trades/player-search?name=${encodeURIComponent(other.name)}`,
      bearer(token),
    );
    expect(search.body.data).toEqual({ player_id: other.id, player_name: other.name });
  });

  it('answers map versions only for the owner, empty otherwise', async () => {
    const map = sandbox.world.maps.find((m) => m.hidden === null)!;
    const owner = sandbox.issueToken({ playerName: map.creatorName });
    const own = (await get(`${sandbox.urls.base}/maps/${map.id}/versions`, bearer(owner))).body.data;
    expect(own).toHaveLength(map.versions);
    const stranger = sandbox.world.players.find((p) => p.id !== map.creatorId && p.stats.games > 0)!;
    const theirs = await get(
      `${sandbox.urls.base}/maps/${map.id}/versions`,
      bearer(sandbox.issueToken({ playerName: stranger.name })),
    );
    expect(theirs.body.data).toEqual([]);
    const data = (await get(`${sandbox.urls.base}/maps/${map.id}/data`, bearer(owner))).body.data;
    expect(data).toMatchObject({ map_id: map.id, player: map.creatorName });
  });

  it('gates staff reads by role', async () => {
    const target = encodeURIComponent(sandbox.world.samples.hackerPlayer);
    const staff: [string, 'moderator' | 'kpd_reviewer', string][] = [
      [`/moderation/players/${target}/chat-ban`, 'moderator', 'insufficient permissions'],
      [`/moderation/players/${target}/reports`, 'moderator', 'not authorized'],
      ['/kpd/demos?off=0&q=a', 'kpd_reviewer', 'insufficient permissions'],
      [`/kpd/demos/${sandbox.world.kpdCalls[0]!.id}?ct=ticket`, 'kpd_reviewer', 'insufficient permissions'],
      ['/kpd/reviewers', 'kpd_reviewer', 'insufficient permissions'],
    ];
    const player = sandbox.world.samples.player;
    for (const [path, role, message] of staff) {
      const refused = await get(`${sandbox.urls.base}${path}`, bearer(token));
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toEqual({ data: null, error: message });
      const other = role === 'moderator' ? 'kpd_reviewer' : 'moderator';
      const wrongRole = sandbox.issueToken({ playerName: player, roles: [other] });
      expect((await get(`${sandbox.urls.base}${path}`, bearer(wrongRole))).status, path).toBe(403);
      const allowed = sandbox.issueToken({ playerName: player, roles: [role] });
      const reply = await get(`${sandbox.urls.base}${path}`, bearer(allowed));
      expect(reply.status, path).toBe(200);
      expect(reply.body.error).toBeNull();
    }
    const mod = sandbox.issueToken({ playerName: player, roles: ['moderator'] });
    const ban = (await get(`${sandbox.urls.base}/moderation/players/${target}/chat-ban`, bearer(mod))).body
      .data;
    expect(ban).toMatchObject({ player_name: sandbox.world.samples.hackerPlayer, banned: true });
  });
});

describe('ranked system on the legacy host', () => {
  const paths = [
    '/ranked/me/connection',
    '/match-history/me?limit=5&offset=0',
    '/player-profile/me/season/0',
    '/leaderboards/rankings/season/0',
    '/leaderboards/rankings/season/0/region/3?limit=10',
    '/daily-spin/progress',
    '/streams/top',
  ];

  it('answers 401 Access token required without a bearer, even for the public leaderboard', async () => {
    for (const path of paths) {
      const reply = await get(`${sandbox.urls.legacy}${path}`);
      expect(reply.status, path).toBe(401);
      expect(reply.body, path).toEqual({ error: 'Access token required' });
    }
    const bad = await get(`${sandbox.urls.legacy}/daily-spin/progress`, bearer('x.y.z'));
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ error: 'Invalid token' });
  });

  it('answers {data} without an error field with a valid bearer', async () => {
    const ranked = sandbox.issueToken({ playerName: sandbox.world.samples.rankedPlayer });
    for (const path of paths) {
      const reply = await get(`${sandbox.urls.legacy}${path}`, bearer(ranked));
      expect(reply.status, path).toBe(200);
      expect(keysOf(reply.body), path).toEqual(['data']);
    }
    const history = await get(`${sandbox.urls.legacy}/match-history/me?limit=5`, bearer(ranked));
    expect(history.body.data.matches).toHaveLength(5);
    expect(history.body.data.total).toBeGreaterThan(5);
    expect(history.text).toMatch(/"match_id":9007199\d{9},/);
    const rankings = await get(
      `${sandbox.urls.legacy}/leaderboards/rankings/season/0/region/3?limit=10`,
      bearer(ranked),
    );
    expect(rankings.body.data.rows).toHaveLength(10);
    for (const row of rankings.body.data.rows) expect(row.region).toBe(3);
    const profile = await get(`${sandbox.urls.legacy}/player-profile/me/season/0`, bearer(ranked));
    const region = profile.body.data.regions[0].region;
    const one = await get(
      `${sandbox.urls.legacy}/player-profile/me/season/0/region/${region}`,
      bearer(ranked),
    );
    expect(one.body.data).toEqual({ season: sandbox.world.currentSeason, ...profile.body.data.regions[0] });
    const none = await get(`${sandbox.urls.legacy}/player-profile/me/season/0/region/99`, bearer(ranked));
    expect(none.status).toBe(404);
  });
});
