import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJwt } from '../support/jwt.ts';
import { startHarness, type Harness } from '../support/secrets.ts';

/** `/me` through the real bot, the Discord stand-in and the sandbox. */
const USER = { userId: '330000000000000001' };
let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  token = h.sandbox.issueToken({ playerName: h.sandbox.world.samples.rankedPlayer });
}, 60_000);
afterAll(async () => h.close());

const description = (message: { embeds: Array<{ description?: string }> }) =>
  message.embeds[0]?.description ?? '';
const bearerCalls = () => h.sandbox.requests.entries().filter((entry) => entry.bearerPresent);
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('/me', () => {
  it('asks for the token in a modal when none is kept, without deferring first', async () => {
    for (const sub of ['wallet', 'market-history', 'listings', 'trades', 'ranked', 'matches']) {
      const pending = h.command('me', sub, {}, USER);
      const shown = await pending.response();
      expect(shown.type).toBe(9);
      const modal = shown.data as {
        custom_id: string;
        title: string;
        components: Array<{ component: { custom_id: string } }>;
      };
      expect(modal.custom_id.startsWith(`me:${sub}`)).toBe(true);
      expect(modal.components[0]?.component.custom_id).toBe('secret');
      // Remembering is opt-in: the second input is the choice, "no" by default.
      expect(modal.components[1]?.component).toMatchObject({ custom_id: 'remember', type: 3 });
    }
  });

  it('reads with the token and answers ephemerally, passing the page on', async () => {
    const before = bearerCalls().length;
    const reply = await h.throughModal('me', 'matches', token, { page: 3 }, USER);
    expect(reply.embeds[0]?.title).toBe('Your match history');
    expect(reply.flags & 64).toBe(64);
    const calls = bearerCalls().slice(before);
    expect(calls.map((call) => [call.host, call.path, call.query['offset']])).toEqual([
      ['legacy', '/match-history/me', '20'],
    ]);
  });

  it('refuses tokens that cannot work, saying why, with no request sent', async () => {
    const player = h.sandbox.world.samples.rankedPlayer;
    const cases: Array<[string, string]> = [
      ['abc.def', 'not an access token'],
      [makeJwt({ alg: 'HS256' }, { exp: inAnHour() }), 'RS256'],
      [makeJwt({ alg: 'RS256' }, { sub: player }), 'no expiry time'],
      [h.sandbox.issueToken({ playerName: player, expiresInSec: -60 }), 'has expired'],
    ];
    const before = bearerCalls().length;
    for (const [value, expected] of cases) {
      const reply = await h.throughModal('me', 'wallet', value, {}, USER);
      expect(description(reply)).toContain(expected);
      expect(reply.flags & 64).toBe(64);
    }
    expect(bearerCalls().length).toBe(before);
  });

  it('explains a 401 from the game', async () => {
    const forged = makeJwt({ alg: 'RS256' }, { exp: inAnHour() });
    const reply = await h.throughModal('me', 'listings', forged, {}, USER);
    expect(description(reply)).toContain('refused the access token');
  });

  it('says when there is no ranked profile for the season and region asked', async () => {
    const player = h.sandbox.world.samples.zeroGamesPlayer;
    const fresh = h.sandbox.issueToken({ playerName: player });
    const reply = await h.throughModal('me', 'ranked', fresh, { season: 1, region: 2 }, USER);
    expect(reply.embeds[0]).toMatchObject({
      title: 'That did not work',
      description: 'No ranked profile for that season and region.',
    });
  });
});
