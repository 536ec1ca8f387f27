import { describe, expect, it } from 'vitest';
import {
  callWithFallback,
  KeyRefusals,
  REFUSED_KEY_HOLD_MS,
  keyRefused,
  parsePackedStats,
  playerFromGame,
  membersFromGame,
  skinFromGame,
} from '../../src/api/fallback.ts';
import {
  ForbiddenError,
  LocalRefusalError,
  NotFoundError,
  UnauthorizedError,
  UpstreamError,
} from '../../src/api/errors.ts';
import type { CallOptions, RouteName } from '../../src/api/client.ts';
import { withSourceNote } from '../../src/render/source.ts';
import { translators } from '../support/render.ts';

/** A `call` that refuses the developer routes with `refusal` and answers the game ones from `game`. */
function fakeCall(refusal: Error, game: Record<string, unknown>) {
  const calls: Array<{ name: string; params: unknown; options: CallOptions | undefined }> = [];
  const call = ((name: RouteName, params: unknown, options?: CallOptions) => {
    calls.push({ name, params, options });
    if (name in game) return Promise.resolve(game[name]);
    return Promise.reject(refusal);
  }) as Parameters<typeof callWithFallback>[0];
  return { call, calls };
}

const GAME_PLAYER = {
  player_id: 7,
  player_name: 'Sniper',
  clan: 'VOR',
  verified: true,
  stats: JSON.stringify({ s: 5000, k: 100, d: 50, g: 10, w: 4, sh: 200, h: 50, tp: 3600 }),
};

describe('callWithFallback', () => {
  const refusals: Array<[string, Error]> = [
    ['no key configured', new LocalRefusalError('no key', 'no_api_key', ['apiKey'], 'player')],
    ['401', new UnauthorizedError('refused', 'player')],
    ['403', new ForbiddenError('Not allowed.', 'invalid_key', 'player')],
  ];

  it.each(refusals)('answers the profile from the game tier when %s', async (_label, refusal) => {
    const { call, calls } = fakeCall(refusal, { gamePlayer: GAME_PLAYER });
    const answered = await callWithFallback(
      call,
      'player',
      { playerName: 'sniper' },
      { priority: 'interactive' },
    );
    expect(answered.source).toBe('game');
    expect(calls.map((c) => c.name)).toEqual(['player', 'gamePlayer']);
    expect(calls[1]?.options?.priority).toBe('interactive');
    expect(answered.value).toMatchObject({
      player_name: 'Sniper',
      score: 5000,
      kills: 100,
      kdr: 2,
      losses: 6,
    });
  });

  it.each([
    ['a 404', new NotFoundError('no such player', 'player')],
    ['a 5xx', new UpstreamError('down', 503, 'player')],
    ['another local refusal', new LocalRefusalError('bad page', 'bad_parameter', ['page'], 'player')],
  ])('passes %s through, unasked of the game tier', async (_label, error) => {
    const { call, calls } = fakeCall(error, { gamePlayer: GAME_PLAYER });
    await expect(callWithFallback(call, 'player', { playerName: 'x' })).rejects.toBe(error);
    expect(calls).toHaveLength(1);
  });

  it('does not redirect a route the game tier cannot stand in for, nor a call with its own key', async () => {
    const refusal = new LocalRefusalError('no key', 'no_api_key', ['apiKey'], 'match');
    const { call } = fakeCall(refusal, { gamePlayer: GAME_PLAYER });
    await expect(callWithFallback(call, 'match', { matchId: '1' })).rejects.toBe(refusal);
    const forbidden = new ForbiddenError('Not allowed.', 'invalid_key', 'player');
    const own = fakeCall(forbidden, { gamePlayer: GAME_PLAYER });
    await expect(callWithFallback(own.call, 'player', { playerName: 'x' }, { apiKey: 'kr_x' })).rejects.toBe(
      forbidden,
    );
  });

  it('pages the clan members the game tier lists at once', async () => {
    const members = Array.from({ length: 23 }, (_, i) => ({ n: `M${i}`, r: 0, s: i }));
    const { call } = fakeCall(new UnauthorizedError('x'), {
      clanByName: { clan_id: 1, name: 'VOR', members },
    });
    const page3 = await callWithFallback(call, 'clanMembers', { clanName: 'VOR', page: 3 });
    expect(page3.value.members.map((m) => m.player_name)).toEqual(['M20', 'M21', 'M22']);
  });

  it('tells the key failures from the others', () => {
    expect(keyRefused(new ForbiddenError('x', 'missing_scope'))).toBe(true);
    expect(keyRefused(new NotFoundError('x'))).toBe(false);
    expect(keyRefused(new Error('x'))).toBe(false);
  });
});

describe('a key the service refused', () => {
  it('is not tried again for a fallback route until its hold has passed', async () => {
    let now = 1_000;
    const refusals = new KeyRefusals({ now: () => now });
    const refused = new ForbiddenError('Not allowed.', 'invalid_key', 'player');
    const { call, calls } = fakeCall(refused, {
      gamePlayer: GAME_PLAYER,
      clanByName: { clan_id: 1, name: 'V' },
    });
    await callWithFallback(call, 'player', { playerName: 'a' }, {}, refusals);
    await callWithFallback(call, 'clan', { clanName: 'V' }, {}, refusals);
    expect(calls.map((c) => c.name)).toEqual(['player', 'gamePlayer', 'clanByName']);
    now += REFUSED_KEY_HOLD_MS;
    await callWithFallback(call, 'player', { playerName: 'a' }, {}, refusals);
    expect(calls.map((c) => c.name).slice(3)).toEqual(['player', 'gamePlayer']);
  });

  it('is still tried for a route the game tier cannot answer, and a missing scope is no refused key', async () => {
    const refusals = new KeyRefusals({ now: () => 0 });
    refusals.remember(new ForbiddenError('no scope', 'missing_scope', 'events'));
    expect(refusals.refused).toBe(false);
    refusals.remember(new UnauthorizedError('refused'));
    expect(refusals.refused).toBe(true);
    const { call, calls } = fakeCall(new UnauthorizedError('refused'), {});
    await expect(callWithFallback(call, 'match', { matchId: '1' }, {}, refusals)).rejects.toThrow('refused');
    expect(calls.map((c) => c.name)).toEqual(['match']);
  });
});

describe('the packed stats', () => {
  it('degrades a drifted or hostile value to an unknown line, keeping the rest', () => {
    const stats = parsePackedStats(JSON.stringify({ s: 10, k: 'many', d: -3, g: 1e300, w: 2 }));
    expect(stats).toEqual({ s: 10, w: 2 });
    const profile = playerFromGame({ ...GAME_PLAYER, stats: JSON.stringify({ s: 10, k: 'many', d: 5 }) });
    expect(profile.score).toBe(10);
    expect(profile.kills).toBeUndefined();
    expect(profile.kdr).toBeUndefined();
    expect(profile.deaths).toBe(5);
  });

  it('reads an unreadable blob as no stats, not as a failure', () => {
    expect(parsePackedStats('not json')).toEqual({});
    expect(parsePackedStats('[1,2]')).toEqual({});
    expect(parsePackedStats(undefined)).toEqual({});
    expect(playerFromGame({ player_id: 1, player_name: 'A', stats: '{' })).toEqual({
      player_id: 1,
      player_name: 'A',
    });
  });

  it('never derives losses or misses from counts that contradict each other', () => {
    const profile = playerFromGame({
      ...GAME_PLAYER,
      stats: JSON.stringify({ g: 3, w: 5, sh: 1, h: 4, d: 0 }),
    });
    expect(profile.losses).toBeUndefined();
    expect(profile.misses).toBeUndefined();
    expect(profile.kdr).toBeUndefined();
  });

  it('pages past the end as an empty page', () => {
    expect(membersFromGame({ clan_id: 1, name: 'A' }, 4).members).toEqual([]);
  });
});

describe('a market skin from the item pages', () => {
  const view = {
    skin_index: 5,
    listings: [
      { market_id: '1', price: 300, seller_name: 'C' },
      { market_id: '2', price: 100, seller_name: 'A' },
      { market_id: '3', seller_name: 'NoPrice' },
      ...Array.from({ length: 10 }, (_, i) => ({
        market_id: `x${i}`,
        price: 1000 + i,
        seller_name: `S${i}`,
      })),
    ],
  };
  const statistics = {
    days: [
      { date: '2026-05-03', average_price: 40, sales: 1 },
      { date: '2026-05-01', average_price: 10, sales: 3 },
      { date: '2026-05-02', average_price: 20, sales: 1 },
    ],
  };

  it('sorts the book cheapest first, pages it, and weighs the average by sales over the days asked', () => {
    const skin = skinFromGame(view, statistics, { circulating: 77, top_owner_ids: [1, 2] }, 1, 2);
    expect(skin.total_listings).toBe(12);
    expect(skin.lowest_price).toBe(100);
    expect(skin.listings?.map((l) => l.seller_name).slice(0, 3)).toEqual(['A', 'C', 'S0']);
    expect(skin.listings).toHaveLength(10);
    expect(skin.price_history?.map((d) => d.date)).toEqual(['2026-05-02', '2026-05-03']);
    expect(skin.average_price).toBe(30);
    expect(skin.total_circulating).toBe(77);
    expect(skin.owners).toBeUndefined();
    const page2 = skinFromGame(view, statistics, {}, 2, 30);
    expect(page2.listings?.map((l) => l.seller_name)).toEqual(['S8', 'S9']);
    expect(page2.average_price).toBe(18);
  });

  it('has no average without sales, and the ask low when nothing is listed', () => {
    const skin = skinFromGame({ skin_index: 5 }, { days: [] }, { ask_low: 9 }, 1, 30);
    expect(skin.average_price).toBeUndefined();
    expect(skin.lowest_price).toBe(9);
    expect(skin.total_listings).toBe(0);
  });
});

describe('the source note', () => {
  it.each(Object.entries(translators))('is added to the last footer in %s', (_lng, t) => {
    const payload = { embeds: [{ title: 'a' }, { title: 'b', footer: { text: 'Page 1' } }] };
    const noted = withSourceNote(payload, t, new Set(['game']));
    const note = t.t('common:source.game');
    expect(note).not.toBe('source.game');
    expect(noted.embeds?.[1]?.footer?.text).toBe(`Page 1 · ${note}`);
    expect(noted.embeds?.[0]).toEqual({ title: 'a' });
    expect(withSourceNote({ content: 'hi' }, t, new Set(['game'])).content).toBe(`hi\n-# ${note}`);
  });

  it('leaves a reply the developer API answered alone as it was', () => {
    const payload = { embeds: [{ title: 'b', footer: { text: 'Page 1' } }] };
    expect(withSourceNote(payload, translators.en, new Set(['developer']))).toBe(payload);
  });
});
