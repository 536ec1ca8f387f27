import { describe, expect, it } from 'vitest';
import { paramKeys } from '../../src/api/params.ts';
import type { RouteDef } from '../../src/api/route.ts';
import { developerRoutes } from '../../src/api/routes/developer.ts';
import { gameRoutes } from '../../src/api/routes/game.ts';
import { routes } from '../../src/api/routes/index.ts';
import { tokenRoutes } from '../../src/api/routes/token.ts';

const table: [string, RouteDef][] = Object.entries(routes);

function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? '');
}

function named(tier: RouteDef['tier']): string[] {
  return table.filter(([, route]) => route.tier === tier).map(([name]) => name);
}

const minute = 60_000;
const hour = 60 * minute;

describe('route table', () => {
  it.each([
    ['developer', developerRoutes],
    ['game', gameRoutes],
    ['token', tokenRoutes],
  ] as const)('the %s table holds exactly the routes of its tier', (tier, part) => {
    expect(Object.keys(part).sort()).toEqual(named(tier).sort());
  });

  it('no route name is defined in two tables', () => {
    const parts = [developerRoutes, gameRoutes, tokenRoutes].map((part) => Object.keys(part).length);
    expect(parts.reduce((sum, count) => sum + count, 0)).toBe(table.length);
  });

  it.each(table)('%s: every placeholder is a params key and every params key is sent', (_, route) => {
    const keys = paramKeys(route.params);
    const inPath = placeholders(route.path);
    const inQuery = Object.keys(route.query ?? {});
    for (const placeholder of inPath) expect(keys).toContain(placeholder);
    for (const key of inQuery) expect(keys).toContain(key);
    expect(inPath.filter((key) => inQuery.includes(key))).toEqual([]);
    expect([...inPath, ...inQuery].sort()).toEqual([...keys].sort());
    expect(new Set(Object.values(route.query ?? {})).size).toBe(inQuery.length);
  });

  it.each(table)('%s: camelCase keys, a clean path, and unknown params refused', (name, route) => {
    expect(name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    for (const key of paramKeys(route.params)) expect(key).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(route.path).toMatch(/^(\/([a-z0-9_-]+|\{[a-z][a-zA-Z0-9]*\}))+$/);
    expect(route.params.safeParse({ notAParameter: 1 }).success).toBe(false);
  });

  it('has one route per host and path', () => {
    const seen = new Set(table.map(([, route]) => `${route.host} ${route.path}`));
    expect(seen.size).toBe(table.length);
  });

  it('counts the routes of each tier and host', () => {
    const counts: Record<string, number> = {};
    for (const [, route] of table)
      counts[`${route.tier}/${route.host}`] = (counts[`${route.tier}/${route.host}`] ?? 0) + 1;
    expect(counts).toEqual({
      'developer/base': 19,
      'game/base': 51,
      'game/legacy': 3,
      'game/matchmaker': 1,
      'token/base': 29,
      'token/legacy': 8,
    });
  });

  it('names every developer endpoint of the spec', () => {
    expect(named('developer').sort()).toEqual(
      [
        'clan',
        'clanMembers',
        'events',
        'featuredMaps',
        'kpdLatestCalls',
        'map',
        'mapLeaderboard',
        'mapLeaderboardPlayer',
        'marketSkin',
        'match',
        'mod',
        'mods',
        'player',
        'playerInventory',
        'playerListings',
        'playerMatches',
        'playerPosts',
        'rankedLeaderboard',
        'skins',
      ].sort(),
    );
  });

  it('puts the developer tier under /api/ on the base host, and nothing else there', () => {
    for (const [name, route] of table) {
      const underApi = route.path.startsWith('/api/');
      expect(underApi, name).toBe(route.tier === 'developer');
      if (route.tier === 'developer') expect(route.host, name).toBe('base');
    }
  });

  it('never caches the token tier, the events or the KPD calls', () => {
    for (const name of [...named('token'), 'events', 'kpdLatestCalls']) {
      expect(routes[name as keyof typeof routes], name).not.toHaveProperty('cache');
    }
  });

  it('caches every other route with one of the agreed policies', () => {
    const agreed = [30_000, minute, 10 * minute, 6 * hour];
    for (const [name, route] of table) {
      if (route.tier === 'token' || name === 'events' || name === 'kpdLatestCalls') continue;
      expect(route.cache, name).toBeDefined();
      if (name === 'marketSkin') continue;
      expect(agreed, name).toContain(route.cache?.ttlMs);
      expect(route.cache?.staleMs, name).toBeUndefined();
    }
  });

  it('applies the per-route settings of the brief', () => {
    expect(routes.marketSkin.cache).toEqual({ ttlMs: 15 * minute, staleMs: 6 * hour });
    expect(routes.marketSkin.timeoutMs).toBe(30_000);
    expect(routes.turfTopPerformingPlayers.timeoutMs).toBe(20_000);
    expect(routes.wildOffer.soft).toBe(true);
    expect(routes.events.ownWindow).toEqual({ limit: 6, windowMs: minute });
    expect(routes.lobbies.cache).toEqual({ ttlMs: 30_000 });
    expect(routes.lobbies.host).toBe('matchmaker');
    for (const name of [
      'player',
      'clan',
      'clanMembers',
      'playerMatches',
      'rankedLeaderboard',
      'turfStatus',
    ] as const) {
      expect(routes[name].cache.ttlMs, name).toBe(minute);
    }
    for (const name of ['map', 'mod', 'mods', 'match'] as const)
      expect(routes[name].cache.ttlMs, name).toBe(10 * minute);
    for (const name of [
      'skins',
      'officialMaps',
      'titles',
      'itemPrices',
      'shopDisplays',
      'spinWheels',
    ] as const) {
      expect(routes[name].cache.ttlMs, name).toBe(6 * hour);
    }
    const timed = table.filter(([, route]) => route.timeoutMs !== undefined).map(([name]) => name);
    expect(timed.sort()).toEqual(['marketSkin', 'turfTopPerformingPlayers']);
    expect(table.filter(([, route]) => route.soft === true).map(([name]) => name)).toEqual(['wildOffer']);
    expect(table.filter(([, route]) => route.ownWindow !== undefined).map(([name]) => name)).toEqual([
      'events',
    ]);
  });

  it('requires the hostname on the matchmaker lobby list', () => {
    expect(routes.lobbies.params.safeParse({}).success).toBe(false);
    expect(routes.lobbies.params.safeParse({ hostname: '' }).success).toBe(false);
    expect(routes.lobbies.params.parse({ hostname: 'krunker.io' })).toEqual({ hostname: 'krunker.io' });
  });

  it('keeps the match id a string and sends the events filters comma-joined under their wire names', () => {
    expect(routes.match.params.parse({ matchId: '9007199254740993' })).toEqual({
      matchId: '9007199254740993',
    });
    expect(routes.match.params.safeParse({ matchId: 5 }).success).toBe(false);
    expect(routes.events.query).toEqual({
      after: 'after',
      types: 'types',
      targetType: 'target_type',
      targetId: 'target_id',
      limit: 'limit',
    });
    expect(routes.events.params.parse({ targetType: 'map', targetId: [1, 2] })).toEqual({
      targetType: 'map',
      targetId: '1,2',
    });
  });

  it('splits each optional region segment into two routes', () => {
    expect(routes.rankedProfile.path).toBe('/player-profile/me/season/{season}');
    expect(routes.rankedProfileRegion.path).toBe('/player-profile/me/season/{season}/region/{region}');
    expect(routes.rankings.path).toBe('/leaderboards/rankings/season/{season}');
    expect(routes.rankingsRegion.path).toBe('/leaderboards/rankings/season/{season}/region/{region}');
    for (const name of ['rankedProfile', 'rankedProfileRegion', 'rankings', 'rankingsRegion'] as const) {
      expect(routes[name].host).toBe('legacy');
      expect(routes[name].tier).toBe('token');
    }
  });

  it('leaves the writes of 4.6 out', () => {
    const writes = [/^\/market\/(list|purchase|unlist)$/, /^\/trades\/(create|\{[^}]+\}\/(accept|cancel))$/];
    for (const [name, route] of table) {
      for (const write of writes) expect(route.path, name).not.toMatch(write);
    }
  });
});
