import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, bearer, get, withKey } from '../../support/sandbox.ts';

let first: Sandbox;
let second: Sandbox;
let other: Sandbox;

beforeAll(async () => {
  const options = { now: () => FIXED_NOW, rateLimit: { limit: 10_000, windowMs: 60_000 } };
  [first, second, other] = await Promise.all([
    startSandbox({ ...options, seed: 42 }),
    startSandbox({ ...options, seed: 42 }),
    startSandbox({ ...options, seed: 43 }),
  ]);
});
afterAll(() => Promise.all([first.close(), second.close(), other.close()]));

async function bodies(sandbox: Sandbox): Promise<string[]> {
  const s = sandbox.world.samples;
  const enc = encodeURIComponent;
  const key = withKey(sandbox.keys.kpd);
  const token = bearer(sandbox.issueToken({ playerName: s.player }));
  const requests: [string, Record<string, string>][] = [
    [`${sandbox.urls.base}/api/player/${s.player}`, key],
    [`${sandbox.urls.base}/api/player/${s.rankedPlayer}/matches`, key],
    [`${sandbox.urls.base}/api/clan/${enc(s.markdownClan)}/members`, key],
    [`${sandbox.urls.base}/api/map/${enc(s.timeBoardMap)}/leaderboard`, key],
    [`${sandbox.urls.base}/api/market/skin/${s.skinIndex}?days=120`, key],
    [`${sandbox.urls.base}/api/match/${s.matchId}`, key],
    [`${sandbox.urls.base}/api/leaderboard/4`, key],
    [`${sandbox.urls.base}/api/kpd/latest-calls`, key],
    [`${sandbox.urls.base}/api/events`, key],
    [`${sandbox.urls.base}/api/skins?per_page=100`, key],
    [`${sandbox.urls.base}/territorial-wars/status`, {}],
    [`${sandbox.urls.base}/territorial-wars/leaderboards/top-performing-players`, {}],
    [`${sandbox.urls.base}/market/stats`, {}],
    [`${sandbox.urls.base}/maps/2`, {}],
    [`${sandbox.urls.base}/market/history`, token],
    [`${sandbox.urls.legacy}/match-history/me`, token],
    [`${sandbox.urls.legacy}/webhooks/general/items/prices`, {}],
    [`${sandbox.urls.matchmaker}/game-list?hostname=x`, {}],
  ];
  const texts: string[] = [];
  for (const [url, headers] of requests) {
    const reply = await get(url, headers);
    expect(reply.status, url).toBe(200);
    texts.push(reply.text);
  }
  return texts;
}

describe('determinism', () => {
  it('serves identical bodies from two sandboxes with the same seed and clock', async () => {
    expect(first.keys).toEqual(second.keys);
    expect(first.world.samples).toEqual(second.world.samples);
    expect(await bodies(first)).toEqual(await bodies(second));
    const a = first.events.publish(
      'map.featured',
      first.world.maps.find((m) => m.hidden === null && !m.featured)!.id,
    );
    const b = second.events.publish(
      'map.featured',
      second.world.maps.find((m) => m.hidden === null && !m.featured)!.id,
    );
    expect(a).toEqual(b);
  });

  it('serves a different world for another seed', async () => {
    const [mine, theirs] = await Promise.all([bodies(first), bodies(other)]);
    expect(mine).not.toEqual(theirs);
    expect(first.keys.default).not.toBe(other.keys.default);
  });
});
