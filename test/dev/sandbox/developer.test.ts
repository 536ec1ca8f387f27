import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, get, keysOf, rows, withKey } from '../../support/sandbox.ts';

let sandbox: Sandbox;
let api: (path: string, key?: string) => ReturnType<typeof get>;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => FIXED_NOW, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  api = (path, key = sandbox.keys.default) => get(`${sandbox.urls.base}${path}`, withKey(key));
});
afterAll(() => sandbox.close());

const enc = encodeURIComponent;

describe('developer API keys', () => {
  it('answers 403 Not allowed. without a key, with an unknown key and with a revoked key', async () => {
    for (const headers of [{}, withKey('kr_unknown'), withKey(sandbox.keys.revoked)]) {
      const reply = await get(`${sandbox.urls.base}/api/player/${sandbox.world.samples.player}`, headers);
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ data: null, error: 'Not allowed.' });
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('needs scope kpd for the latest KPD calls', async () => {
    for (const key of [sandbox.keys.default, sandbox.keys.noScopes]) {
      const refused = await api('/api/kpd/latest-calls', key);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ data: null, error: 'Missing scope: kpd' });
    }
    const reply = await api('/api/kpd/latest-calls', sandbox.keys.kpd);
    expect(reply.status).toBe(200);
    const calls = reply.body.data as {
      id: number;
      status: number;
      rating: number;
      kdf_type: number;
      date: string;
    }[];
    expect(calls).toHaveLength(50);
    expect(new Set(calls.map((c) => c.status))).toEqual(new Set([1, 2, 3]));
    expect(new Set(calls.map((c) => c.rating))).toEqual(new Set([0, 1, 2]));
    expect(new Set(calls.map((c) => c.kdf_type))).toEqual(new Set([0, 1, 2, 3]));
    const dates = calls.map((c) => Date.parse(c.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(calls.some((c) => (c as unknown as { called_name: string }).called_name === 'guest')).toBe(true);
    expect(Object.keys(calls[0]!)).not.toContain('ip');
  });
});

describe('players', () => {
  it('serves the profile in an envelope', async () => {
    const reply = await api(`/api/player/${sandbox.world.samples.player}`);
    expect(reply.status).toBe(200);
    expect(reply.body.error).toBeNull();
    const p = reply.body.data;
    expect(p.player_name).toBe(sandbox.world.samples.player);
    expect(p.clan).toBe('Vortex');
    expect(p.losses).toBe(p.games - p.wins);
    expect(p.misses).toBe(p.shots - p.hits);
    expect(p.level).toBe(Math.max(1, Math.floor(0.03 * Math.sqrt(p.score as number))));
    for (const field of ['kdr', 'spk', 'kpg', 'junk']) expect(typeof p[field]).toBe('number');
    expect(typeof p.class_stats).toBe('object');
    expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('covers the notable players: verified, hacker-tagged, zero games, unicode names', async () => {
    const s = sandbox.world.samples;
    expect((await api(`/api/player/${s.verifiedPlayer}`)).body.data.verified).toBe(true);
    expect((await api(`/api/player/${s.hackerPlayer}`)).body.data.hacker_tagged).toBe(true);
    const fresh = (await api(`/api/player/${s.zeroGamesPlayer}`)).body.data;
    expect(fresh).toMatchObject({
      games: 0,
      kills: 0,
      kdr: 0,
      kpg: 0,
      spk: 0,
      level: 1,
      clan: '',
      ranked: [],
    });
    for (const name of s.unicodePlayers) {
      const reply = await api(`/api/player/${enc(name)}`);
      expect(reply.status, name).toBe(200);
      expect(reply.body.data.player_name).toBe(name);
    }
  });

  it('lists ranked regions of the current season only with 6+ placement matches', async () => {
    const name = sandbox.world.samples.rankedPlayer;
    const p = (await api(`/api/player/${name}`)).body.data;
    const records = sandbox.world.ranked.filter(
      (r) => r.playerName === name && r.season === sandbox.world.currentSeason,
    );
    const expected = records.filter((r) => r.matches >= 6).map((r) => r.region);
    expect(p.ranked.length).toBeGreaterThan(0);
    expect(rows<{ region: number }>(p.ranked).map((r) => r.region)).toEqual(expected.sort((a, b) => a - b));
    const short = sandbox.world.ranked.find((r) => r.season === sandbox.world.currentSeason && r.matches < 6);
    expect(short).toBeDefined();
    const other = (await api(`/api/player/${enc(short!.playerName)}`)).body.data;
    expect(rows<{ region: number }>(other.ranked).map((r) => r.region)).not.toContain(short!.region);
  });

  it('answers 404 for an unknown player', async () => {
    const reply = await api('/api/player/NobodyByThisName');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ data: null, error: 'Player not found' });
  });

  it('serves inventory, listings, matches and posts', async () => {
    const name = sandbox.world.samples.player;
    const inventory = (await api(`/api/player/${name}/inventory`)).body.data;
    expect(Array.isArray(inventory)).toBe(true);
    for (const item of rows(inventory)) expect(keysOf(item)).toEqual(['count', 'skin_index']);

    const listings = await api(`/api/player/${name}/listings`);
    expect(listings.body.data).toMatchObject({ page: 1, per_page: 10 });

    const matches = await api(`/api/player/${sandbox.world.samples.rankedPlayer}/matches`);
    expect(matches.body.data).toMatchObject({ page: 1, per_page: 10 });
    expect(matches.body.data.matches).toHaveLength(10);
    expect(matches.text).toMatch(/"match_id":9007199\d{9}[,}]/);
    const dates = (matches.body.data.matches as { date: string }[]).map((m) => Date.parse(m.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const old = await api(
      `/api/player/${sandbox.world.samples.rankedPlayer}/matches?season=${sandbox.world.previousSeason}`,
    );
    for (const m of old.body.data.matches) expect(m.season).toBe(sandbox.world.previousSeason);

    const posts = await api(`/api/player/${name}/posts?page=999`);
    expect(posts.body.data).toEqual({ page: 999, per_page: 10, posts: [] });
  });

  it('shows a post written now as the newest one', async () => {
    const name = sandbox.world.samples.verifiedPlayer;
    sandbox.posts.add(name, 'KF-TEST01 is my code');
    const posts = (await api(`/api/player/${name}/posts`)).body.data.posts as Array<{ text: string }>;
    expect(posts[0]?.text).toBe('KF-TEST01 is my code');
    expect(() => sandbox.posts.add('NobodyByThisName', 'x')).toThrow();
  });
});

describe('clans', () => {
  it('serves a clan with a markdown-laden name and its members sorted by role then score', async () => {
    const clan = await api(`/api/clan/${enc(sandbox.world.samples.markdownClan)}`);
    expect(clan.status).toBe(200);
    expect(clan.body.data.name).toBe('*_~|Ghosts|~_*');
    expect(keysOf(clan.body.data)).toEqual(
      ['created_at', 'discord', 'member_count', 'name', 'owner_name', 'rank', 'score'].sort(),
    );
    const members = (await api(`/api/clan/${enc(sandbox.world.samples.markdownClan)}/members`)).body.data;
    expect(members.per_page).toBe(10);
    const rows = members.members as { role: number; score: number }[];
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1]!;
      const b = rows[i]!;
      expect(a.role > b.role || (a.role === b.role && a.score >= b.score)).toBe(true);
    }
  });

  it('answers 404 for an unknown clan and 400 for a bad page', async () => {
    expect((await api('/api/clan/NoSuchClan')).status).toBe(404);
    const bad = await api('/api/clan/Vortex/members?page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.data).toBeNull();
    expect(typeof bad.body.error).toBe('string');
  });
});

describe('maps', () => {
  it('looks maps up case-insensitively by their URL-encoded name', async () => {
    for (const name of ['Map & More', '100% Pure', '#1 Parkour', 'Why? Because', 'Café Olé']) {
      const reply = await api(`/api/map/${enc(name.toUpperCase())}`);
      expect(reply.status, name).toBe(200);
      expect(reply.body.data.name).toBe(name);
      expect(reply.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
  });

  it('answers 404 for restricted or deleted maps', async () => {
    expect((await api(`/api/map/${enc(sandbox.world.samples.hiddenMap)}`)).status).toBe(404);
  });

  it('lists featured maps newest first with a count', async () => {
    const reply = (await api('/api/maps/featured')).body.data;
    expect(reply.count).toBe(reply.maps.length);
    expect(reply.maps.length).toBeGreaterThan(0);
    expect(keysOf(reply.maps[0])).toEqual(['creator_id', 'creator_name', 'map_id', 'name']);
    const expected = sandbox.world.maps
      .filter((m) => m.featured)
      .sort((a, b) => (b.featuredAtMs ?? 0) - (a.featuredAtMs ?? 0))
      .map((m) => m.name);
    expect(rows<{ name: string }>(reply.maps).map((m) => m.name)).toEqual(expected);
  });

  it('serves map boards with the configured type and order by default, 25 per page', async () => {
    const time = (await api(`/api/map/${enc(sandbox.world.samples.timeBoardMap)}/leaderboard`)).body.data;
    expect(time).toMatchObject({ page: 1, per_page: 25, leaderboard_type: 'time', leaderboard_order: 0 });
    const values = (time.entries as { value: number; position: number }[]).map((e) => e.value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(time.entries[0].position).toBe(1);
    expect(time.entries.length).toBeLessThanOrEqual(25);

    const score = (await api(`/api/map/${enc(sandbox.world.samples.scoreBoardMap)}/leaderboard`)).body.data;
    expect(score).toMatchObject({ leaderboard_type: 'score', leaderboard_order: 1 });
    const scores = (score.entries as { value: number }[]).map((e) => e.value);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const flipped = (await api(`/api/map/${enc(sandbox.world.samples.scoreBoardMap)}/leaderboard?order=0`))
      .body.data;
    expect(flipped.entries[0].value).toBe(
      Math.min(...(flipped.entries as { value: number }[]).map((e) => e.value)),
    );

    const none = await api(`/api/map/${enc(sandbox.world.samples.noBoardMap)}/leaderboard`);
    expect(none.status).toBe(200);
    expect(none.body.data.entries).toEqual([]);
    expect(none.body.data.leaderboard_type).toBe('');

    const page2 = (await api(`/api/map/${enc(sandbox.world.samples.timeBoardMap)}/leaderboard?page=2`)).body
      .data;
    if (page2.entries.length > 0) expect(page2.entries[0].position).toBe(26);
    const past = (await api(`/api/map/${enc(sandbox.world.samples.timeBoardMap)}/leaderboard?page=50`)).body
      .data;
    expect(past.entries).toEqual([]);
  });

  it('uses the type default order when the type differs from the configured board', async () => {
    const golf = sandbox.world.maps.find((m) => m.name === 'Golf Course');
    expect(golf).toMatchObject({ leaderboardType: 'score', leaderboardOrder: 0 });
    expect((await api('/api/map/Golf%20Course/leaderboard')).body.data.leaderboard_order).toBe(0);
    expect((await api('/api/map/Golf%20Course/leaderboard?type=time')).body.data.leaderboard_order).toBe(0);
    const timeMap = enc(sandbox.world.samples.timeBoardMap);
    expect((await api(`/api/map/${timeMap}/leaderboard?type=score`)).body.data.leaderboard_order).toBe(1);
  });

  it('answers 400 for an invalid type or order', async () => {
    const map = enc(sandbox.world.samples.timeBoardMap);
    for (const query of ['type=kills', 'order=2', 'order=asc', 'page=-1', 'page=abc']) {
      const reply = await api(`/api/map/${map}/leaderboard?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.data).toBeNull();
    }
  });

  it('finds a player on a board, 404 without entry or without board', async () => {
    const map = sandbox.world.maps.find((m) => m.name === sandbox.world.samples.timeBoardMap)!;
    const entry = map.boards.time![0]!;
    const reply = await api(`/api/map/${enc(map.name)}/leaderboard/player/${enc(entry.playerName)}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      map_name: map.name,
      leaderboard_type: 'time',
      leaderboard_order: 0,
      player_name: entry.playerName,
      value: entry.value,
    });
    const board = (
      await api(`/api/map/${enc(map.name)}/leaderboard?page=${Math.ceil(reply.body.data.position / 25)}`)
    ).body.data.entries as { player_name: string; position: number }[];
    expect(board.find((e) => e.player_name === entry.playerName)?.position).toBe(reply.body.data.position);

    expect((await api(`/api/map/${enc(map.name)}/leaderboard/player/NobodyByThisName`)).status).toBe(404);
    const noBoard = enc(sandbox.world.samples.noBoardMap);
    expect((await api(`/api/map/${noBoard}/leaderboard/player/${enc(entry.playerName)}`)).status).toBe(404);
  });
});

describe('ranked leaderboard, matches, mods, skins, market', () => {
  it('serves the ranked leaderboard by mmr for the current and an older season', async () => {
    for (const region of [2, 3, 4]) {
      const board = (await api(`/api/leaderboard/${region}`)).body.data;
      expect(board).toMatchObject({ page: 1, per_page: 10, season: sandbox.world.currentSeason, region });
      expect(board.entries).toHaveLength(10);
      const mmr = (board.entries as { mmr: number }[]).map((e) => e.mmr);
      expect(mmr).toEqual([...mmr].sort((a, b) => b - a));
    }
    const older = (await api(`/api/leaderboard/3?season=${sandbox.world.previousSeason}`)).body.data;
    expect(older.season).toBe(sandbox.world.previousSeason);
    expect(older.entries.length).toBeGreaterThan(0);
    expect((await api('/api/leaderboard/3?season=0')).body.data.season).toBe(sandbox.world.currentSeason);
    expect((await api('/api/leaderboard/eu')).status).toBe(400);
    expect((await api('/api/leaderboard/-1')).status).toBe(400);
    expect((await api('/api/leaderboard/3?page=999')).body.data.entries).toEqual([]);
  });

  it('writes match ids beyond 2^53 as bare numbers with every digit', async () => {
    const id = sandbox.world.samples.matchId;
    expect(BigInt(id) > 2n ** 53n).toBe(true);
    const reply = await api(`/api/match/${id}`);
    expect(reply.status).toBe(200);
    expect(reply.text).toContain(`"match_id":${id},`);
    const participants = reply.body.data.participants as { team: number; score: number }[];
    expect(participants).toHaveLength(8);
    for (let i = 1; i < participants.length; i++) {
      const a = participants[i - 1]!;
      const b = participants[i]!;
      expect(a.team < b.team || (a.team === b.team && a.score >= b.score)).toBe(true);
    }
    expect((await api('/api/match/12abc')).status).toBe(400);
    expect((await api('/api/match/9007199254740992')).status).toBe(404);
  });

  it('lists mods by votes without deleted ones or those of banned players', async () => {
    const all: { name: string; votes: number }[] = [];
    for (let page = 1; page <= 4; page++)
      all.push(
        ...rows<{ name: string; votes: number }>((await api(`/api/mods?page=${page}`)).body.data.mods),
      );
    const votes = all.map((m) => m.votes);
    expect(votes).toEqual([...votes].sort((a, b) => b - a));
    const names = all.map((m) => m.name);
    expect(names).not.toContain(sandbox.world.samples.deletedMod);
    expect(names).not.toContain('Hacker Pack');
    expect(names).toContain(sandbox.world.samples.mod);
    expect((await api(`/api/mods/${enc(sandbox.world.samples.mod)}`)).body.data.name).toBe(
      sandbox.world.samples.mod,
    );
    expect((await api(`/api/mods/${enc(sandbox.world.samples.deletedMod)}`)).status).toBe(404);
  });

  it('pages skin definitions with a season filter', async () => {
    const page = (await api('/api/skins?per_page=20&page=2')).body.data;
    expect(page).toMatchObject({ page: 2, per_page: 20 });
    expect(page.skins[0].skin_index).toBe(20);
    const season = (await api('/api/skins?season=3&per_page=100')).body.data.skins as { season: number }[];
    expect(season.length).toBeGreaterThan(0);
    for (const skin of season) expect(skin.season).toBe(3);
    expect((await api('/api/skins?per_page=0')).status).toBe(400);
  });

  it('serves a market skin: listings by price, owners, daily history within days', async () => {
    const index = sandbox.world.samples.skinIndex;
    const m = (await api(`/api/market/skin/${index}`)).body.data;
    expect(m.skin_index).toBe(index);
    expect(m.listings).toHaveLength(10);
    const prices = (m.listings as { price: number }[]).map((l) => l.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(m.lowest_price).toBe(prices[0]);
    expect(m.owners.length).toBeLessThanOrEqual(100);
    const since = Date.parse(new Date(FIXED_NOW).toISOString().slice(0, 10)) - 30 * 86_400_000;
    for (const day of rows<{ date: string; sales: number }>(m.price_history)) {
      expect(day.date).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(day.sales).toBeGreaterThan(0);
      expect(Date.parse(day.date)).toBeGreaterThan(since);
    }
    const longer = (await api(`/api/market/skin/${index}?days=120`)).body.data;
    expect(rows(longer.price_history).length).toBeGreaterThanOrEqual(rows(m.price_history).length);
    for (const query of ['days=0', 'days=121', 'page=0']) {
      expect((await api(`/api/market/skin/${index}?${query}`)).status, query).toBe(400);
    }
    expect((await api('/api/market/skin/99999')).status).toBe(404);
    const empty = sandbox.world.market.find((x) => x.listings.length === 0);
    if (empty) expect((await api(`/api/market/skin/${empty.skinIndex}`)).body.data.lowest_price).toBe(0);
  });

  it('lists at most 100 owners and never a banned one', async () => {
    const crowded = sandbox.world.market.find((x) => x.holders.filter((h) => !h.banned).length > 100);
    expect(crowded).toBeDefined();
    const m = (await api(`/api/market/skin/${crowded!.skinIndex}`)).body.data;
    expect(m.owners).toHaveLength(100);
    const banned = new Set(sandbox.world.players.filter((p) => p.banned).map((p) => p.name));
    for (const owner of rows<{ player_name: string }>(m.owners))
      expect(banned.has(owner.player_name)).toBe(false);
  });

  it('answers 404 with an envelope for an unknown path', async () => {
    const reply = await api('/api/nothing/here');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ data: null, error: 'Not found' });
  });
});
