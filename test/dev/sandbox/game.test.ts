import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURF_EPOCH_MS, startSandbox, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, get, keysOf, rows, type Reply } from '../../support/sandbox.ts';
import { ManualClock } from '../../support/clock.ts';

const DAY = 86_400_000;
const clock = new ManualClock(FIXED_NOW);
let sandbox: Sandbox;
const enc = encodeURIComponent;

async function game(path: string): Promise<Reply['body']> {
  const reply = await get(`${sandbox.urls.base}${path}`);
  expect(reply.status, path).toBe(200);
  expect(reply.body.error, path).toBeNull();
  return reply.body.data;
}

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock.now() });
});
afterAll(() => sandbox.close());

describe('game API on the base host', () => {
  it('needs no key and answers in the envelope', async () => {
    const s = sandbox.world.samples;
    const profile = await game(`/players/${s.player}`);
    expect(profile).toMatchObject({ player_name: s.player, clan: 'Vortex', verified: false });
    expect(typeof profile.stats).toBe('string');
    expect(JSON.parse(profile.stats as string)).toHaveProperty('k');
    const search = await game('/players/search?q=killfeed');
    expect(rows<{ player_name: string }>(search.players).map((p) => p.player_name)).toContain(s.player);
    expect((await get(`${sandbox.urls.base}/players/search`)).status).toBe(400);
    const followers = await game(`/players/${s.player}/followers`);
    const api = (
      await get(`${sandbox.urls.base}/api/player/${s.player}`, {
        'X-Developer-API-Key': sandbox.keys.default,
      })
    ).body.data;
    expect(followers.players).toHaveLength(api.followers as number);
    expect((await game(`/players/${s.player}/following`)).players).toHaveLength(api.following as number);
    for (const sale of (await game(`/players/${s.player}/sales`)).sales) {
      expect(keysOf(sale)).toEqual(['count', 'date', 'funds']);
    }
    const feed = await game(`/players/${s.player}/feed`);
    for (const post of rows(feed.posts)) expect(keysOf(post)).toEqual(['c', 'd', 'id', 't', 'v']);
    expect((await get(`${sandbox.urls.base}/players/NobodyByThisName`)).status).toBe(404);
  });

  it('serves clans by name and id with short member keys, and the recruitment board', async () => {
    const byName = await game(`/clans/by-name/${enc(sandbox.world.samples.markdownClan)}`);
    const byId = await game(`/clans/${byName.clan_id}/profile`);
    expect(byId).toEqual(byName);
    expect(keysOf(byName.members[0])).toEqual(['n', 'r', 's']);
    expect(typeof (await game(`/clans/${byName.clan_id}/motd`)).motd).toBe('string');
    expect(await game(`/clans/${byName.clan_id}/loot-config`)).toHaveProperty('clan_id', byName.clan_id);
    const board = await game('/clans/recruitment?limit=5&language=en');
    expect(board).toMatchObject({ page: 1, limit: 5 });
    for (const clan of board.clans) expect(clan.language).toBe('en');
    expect((await get(`${sandbox.urls.base}/clans/999999/profile`)).status).toBe(404);
  });

  it('serves the player, clan, raid and cup boards', async () => {
    const kills = await game('/leaderboards/kills');
    expect(kills.type).toBe('kills');
    expect(kills.rows).toHaveLength(100);
    expect(kills.rows[0].value).toBeGreaterThanOrEqual(kills.rows[99].value as number);
    const asc = await game('/leaderboards/kills?sort=asc');
    expect(asc.rows[0].value).toBeLessThanOrEqual(asc.rows[99].value as number);
    for (const board of ['bogus', 'constructor', 'toString']) {
      expect((await get(`${sandbox.urls.base}/leaderboards/${board}`)).status, board).toBe(400);
    }
    expect((await game('/leaderboards/player_clan')).rows[0]).toHaveProperty('clan_name');
    const raid = await game('/leaderboards/raids/31');
    expect(raid.map_id).toBe(31);
    expect(raid.rows).toHaveLength(100);
    const bad = await get(`${sandbox.urls.base}/leaderboards/raids/0`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ data: null, error: 'invalid raid map' });
    const teams = await game('/leaderboards/krunkcup/teams');
    const contributors = await game(`/leaderboards/krunkcup/teams/${teams.rows[0].team_id}/contributors`);
    expect(contributors.team_id).toBe(teams.rows[0].team_id);
    expect((await game('/leaderboards/krunkcup/players')).rows.length).toBeGreaterThan(0);
  });

  it('serves official maps, community maps, map files and mods', async () => {
    const maps = await game('/maps');
    rows<{ id: number }>(maps).forEach((m, i) => expect(m.id).toBe(i));
    expect(maps[0].name).toBe('Burg');
    const file = await get(`${sandbox.urls.base}/maps/0`);
    expect(file.text.length).toBeGreaterThan(100_000);
    const community = await game(`/maps/by-name/${enc(sandbox.world.samples.featuredMap.toLowerCase())}`);
    expect(community).toMatchObject({ name: sandbox.world.samples.featuredMap, featured: true });
    const board = await game(`/maps/by-name/${enc(sandbox.world.samples.timeBoardMap)}/leaderboard?page=1`);
    expect(board).toMatchObject({ per_page: 25, leaderboard_type: 'time' });
    expect((await game(`/maps/${community.map_id}`)).name).toBe(community.name);
    expect(
      (await get(`${sandbox.urls.base}/maps/by-name/${enc(sandbox.world.samples.hiddenMap)}`)).status,
    ).toBe(404);
    expect((await game(`/mods/by-name/${enc(sandbox.world.samples.mod)}`)).name).toBe(
      sandbox.world.samples.mod,
    );
  });

  it('serves item pages and market statistics, with market ids as bare big numbers', async () => {
    const index = sandbox.world.samples.skinIndex;
    const market = sandbox.world.market[index]!;
    const view = await get(`${sandbox.urls.base}/items/${index}/view`);
    expect(view.body.data.listings).toHaveLength(market.listings.length);
    expect(view.text).toContain(`"market_id":${market.listings[0]!.marketId},`);
    const instances = (await game(`/items/${index}/instances`)).instances;
    expect(instances).toHaveLength(market.totalCirculating);
    expect((await game(`/items/${index}/sales`)).sales).toHaveLength(market.priceHistory.length);
    const stats = await game('/market/stats?sort=rarity');
    expect(stats.rows).toHaveLength(50);
    expect(typeof stats.cursor).toBe('string');
    const next = await game(`/market/stats?sort=rarity&cursor=${stats.cursor}`);
    expect(next.rows[0].skin_index).not.toBe(stats.rows[0].skin_index);
    const unknownSort = await game('/market/stats?sort=whatever');
    expect(unknownSort.rows[0].skin_index).toBe(0);
    const unlisted = sandbox.world.market.find((m) => m.listings.length === 0)!;
    const unlistedSales = await game(`/market/items/${unlisted.skinIndex}/sales`);
    expect(unlistedSales).not.toHaveProperty('ask_low');
    const listedSales = await game(`/market/items/${index}/sales`);
    expect(listedSales.ask_low).toBe(market.listings[0]!.price);
    expect((await game(`/market/items/${index}/sales-statistics`)).days).toHaveLength(
      market.priceHistory.length,
    );
    expect((await get(`${sandbox.urls.base}/market/stats?cursor=garbage`)).status).toBe(400);
  });

  it('serves social, shop and menu data, with the wild offer soft error on odd UTC days', async () => {
    const feed = await game('/social/feed?tab=global');
    expect(feed.posts.length).toBeGreaterThan(0);
    expect(await game(`/social/post/${feed.posts[0].id}`)).toEqual(feed.posts[0]);
    expect((await game('/social/news')).posts.length).toBeGreaterThan(0);
    expect(await game('/shop/displays')).toHaveProperty('displays');
    for (const path of ['/ranked/shop', '/spins/wheels', '/titles', '/creators/events']) {
      expect(Array.isArray(await game(path)), path).toBe(true);
    }
    expect(await game('/lottery/1')).toHaveProperty('id', 1);
    expect(await game('/krunkcup/wristband')).toHaveProperty('tiers');
    const day = Math.floor(FIXED_NOW / DAY);
    clock.set((day % 2 === 1 ? day : day + 1) * DAY);
    expect(await game('/shop/wild-offer')).toEqual({ available: false, error: 'No offer available' });
    await clock.advance(DAY);
    expect(await game('/shop/wild-offer')).toMatchObject({ available: true });
    clock.set(FIXED_NOW);
  });

  it('lists every lobby on /game-list without needing a hostname', async () => {
    const list = await game('/game-list');
    expect(list.games).toHaveLength(sandbox.world.lobbies.length);
    const [id, region, players, max, options, left] = list.games[0];
    expect(typeof id).toBe('string');
    expect(typeof region).toBe('string');
    expect(players).toBeLessThanOrEqual(max as number);
    expect(options).toMatchObject({ i: expect.any(String), g: expect.any(Number), c: expect.any(Number) });
    expect(typeof left).toBe('number');
  });
});

describe('turf wars', () => {
  const today = Math.floor((FIXED_NOW - TURF_EPOCH_MS) / DAY);

  it('shows every turf map with its owner and top 5 clans for today', async () => {
    const status = await game('/territorial-wars/status');
    expect(status.day).toBe(today);
    expect(rows<{ map_id: number }>(status.maps).map((m) => m.map_id)).toEqual([0, 2, 3]);
    for (const map of status.maps) {
      expect(map.top_clans).toHaveLength(5);
      expect(rows<{ position: number }>(map.top_clans).map((c) => c.position)).toEqual([1, 2, 3, 4, 5]);
      expect(map.owner).toEqual({ clan_id: expect.any(Number), clan_name: expect.any(String) });
    }
    const yesterday = await game(
      `/territorial-wars/leaderboards/top-performing-clans?day=${today - 1}&map_id=0`,
    );
    expect(status.maps[0].owner.clan_id).toBe(yesterday.rows[0].clan_id);
  });

  it('has no owners on the first day of a turf season', async () => {
    clock.set(TURF_EPOCH_MS + 56 * DAY + 3_600_000);
    const status = await game('/territorial-wars/status');
    expect(status.day).toBe(56);
    for (const map of status.maps) expect(map.owner).toBeNull();
    clock.set(FIXED_NOW);
  });

  it('filters the clan and player boards by day, map and exact name', async () => {
    const all = await game('/territorial-wars/leaderboards/top-performing-clans');
    expect(all.rows.length).toBeGreaterThan(0);
    expect(all.rows.length).toBeLessThanOrEqual(100);
    const kdRow = all.rows[0];
    expect(kdRow.kd).toBe(
      kdRow.deaths === 0 ? kdRow.kills : Math.round((kdRow.kills / kdRow.deaths) * 100) / 100,
    );
    const third = all.rows[2];
    const one = await game(
      `/territorial-wars/leaderboards/top-performing-clans?clan_name=${enc(third.clan_name as string)}`,
    );
    expect(one.rows).toEqual([third]);
    const none = await game(
      `/territorial-wars/leaderboards/top-performing-clans?clan_name=${enc(`${third.clan_name as string}x`)}`,
    );
    expect(none.rows).toEqual([]);
    const map2 = await game('/territorial-wars/leaderboards/top-performing-clans?map_id=2');
    expect(map2.rows[0].points).toBeLessThanOrEqual(all.rows[0].points as number);
    expect(
      (await get(`${sandbox.urls.base}/territorial-wars/leaderboards/top-performing-clans?map_id=1`)).status,
    ).toBe(400);
    expect(
      (await get(`${sandbox.urls.base}/territorial-wars/leaderboards/top-performing-clans?day=x`)).status,
    ).toBe(400);

    const grossing = await game('/territorial-wars/leaderboards/top-grossing-clans');
    expect(grossing.rows[0].kr).toBeGreaterThan(0);
    const named = await game(
      `/territorial-wars/leaderboards/top-grossing-clans?clan_name=${enc(grossing.rows[1].clan_name as string)}`,
    );
    expect(named.rows).toEqual([grossing.rows[1]]);

    const players = await game('/territorial-wars/leaderboards/top-performing-players?map_id=3');
    expect(players.rows).toHaveLength(100);
    const first = players.rows[0];
    const filtered = await game(
      `/territorial-wars/leaderboards/top-performing-players?map_id=3&player_name=${enc(first.player_name as string)}`,
    );
    expect(filtered.rows).toEqual([first]);
  });

  it('serves a clan, its earnings, payouts and players, and a player with contributions and earnings', async () => {
    const top = (await game('/territorial-wars/leaderboards/top-grossing-clans')).rows[0];
    const clan = await game(`/territorial-wars/clan/${top.clan_id}`);
    expect(clan).toMatchObject({ clan_id: top.clan_id, clan_name: top.clan_name });
    const earnings = await game(`/territorial-wars/clan/${top.clan_id}/earnings`);
    const days = rows<{ day: number; kr: number }>(earnings.days);
    expect(days.reduce((sum, d) => sum + d.kr, 0)).toBe(top.kr);
    const season = await game(`/territorial-wars/clan/${top.clan_id}/payouts`);
    expect(season.day).toBeNull();
    expect(season.payouts.length).toBeGreaterThan(0);
    const paidDay = days.find((d) => d.kr > 0)!.day;
    const oneDay = await game(`/territorial-wars/clan/${top.clan_id}/payouts?day=${paidDay}`);
    expect(oneDay.day).toBe(paidDay);
    expect(rows<{ kr: number }>(oneDay.payouts).reduce((sum, p) => sum + p.kr, 0)).toBeLessThanOrEqual(
      days.find((d) => d.day === paidDay)!.kr,
    );
    const players = await game(`/territorial-wars/clan/${top.clan_id}/players?day=${paidDay}&map_id=0`);
    expect(players.day).toBe(paidDay);
    const todayPlayers = await game(`/territorial-wars/clan/${top.clan_id}/players`);
    expect(todayPlayers.day).toBe(today);

    const earner = season.payouts[0];
    const player = await game(`/territorial-wars/player/${earner.player_id}`);
    expect(player).toEqual({
      player_id: earner.player_id,
      player_name: earner.player_name,
      clan_id: top.clan_id,
      clan_name: top.clan_name,
    });
    const paid = await game(`/territorial-wars/player/${earner.player_id}/earnings`);
    expect(rows<{ kr: number }>(paid.earnings).reduce((sum, e) => sum + e.kr, 0)).toBe(earner.kr);
    const contributions = await game(`/territorial-wars/player/${earner.player_id}/contributions`);
    expect(contributions.contributions.length).toBeGreaterThan(0);
    const day = contributions.contributions[0].day;
    const oneDayContributions = await game(
      `/territorial-wars/player/${earner.player_id}/contributions?day=${day}`,
    );
    for (const c of oneDayContributions.contributions) expect(c.day).toBe(day);

    const clanless = sandbox.world.players.find((p) => p.clanId === null)!;
    expect(await game(`/territorial-wars/player/${clanless.id}`)).toMatchObject({
      clan_id: null,
      clan_name: null,
    });
    expect((await get(`${sandbox.urls.base}/territorial-wars/player/1`)).status).toBe(404);
  });
});

describe('matchmaker and legacy hosts', () => {
  it('answers the lobby list as plain JSON and needs a hostname', async () => {
    const refused = await get(`${sandbox.urls.matchmaker}/game-list`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'hostname required' });
    const reply = await get(`${sandbox.urls.matchmaker}/game-list?hostname=krunker.io`);
    expect(reply.status).toBe(200);
    expect(keysOf(reply.body)).toEqual(['games']);
    expect(reply.body.games).toHaveLength(sandbox.world.lobbies.length);
    const missing = await get(`${sandbox.urls.matchmaker}/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not found' });
  });

  it('serves the token-free legacy browsers and prices as {data}', async () => {
    const prices = await get(`${sandbox.urls.legacy}/webhooks/general/items/prices`);
    expect(prices.status).toBe(200);
    expect(keysOf(prices.body)).toEqual(['data']);
    expect(Object.values(prices.body.data as Record<string, unknown>)).toContain(null);
    const maps = await get(`${sandbox.urls.legacy}/webhooks/general/maps/list?index=0&pos=0`);
    expect(maps.body.data.maps).toHaveLength(20);
    const votes = rows<{ votes: number }>(maps.body.data.maps).map((m) => m.votes);
    expect(votes).toEqual([...votes].sort((a: number, b: number) => b - a));
    const page2 = await get(`${sandbox.urls.legacy}/webhooks/general/maps/list?index=0&pos=1`);
    expect(page2.body.data.maps[0].map_id).not.toBe(maps.body.data.maps[0].map_id);
    const featured = await get(`${sandbox.urls.legacy}/webhooks/general/maps/list?index=2`);
    expect(featured.body.data.maps.length).toBe(sandbox.world.maps.filter((m) => m.featured).length);
    const mods = await get(`${sandbox.urls.legacy}/webhooks/general/mods/list?index=1&pos=0`);
    expect(mods.body.data.mods.length).toBeGreaterThan(0);
    expect((await get(`${sandbox.urls.legacy}/webhooks/general/mods/list?index=9`)).status).toBe(400);
  });
});
