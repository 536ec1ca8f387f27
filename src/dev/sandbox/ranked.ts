import type { SandboxContext } from './context.ts';
import {
  badRequest,
  intParam,
  intQuery,
  notFound,
  optionalIntQuery,
  type Route,
  type RouteRequest,
} from './http.ts';
import { wireId } from './json.ts';
import { Rng, hashSeed } from './prng.ts';
import { DAY_MS, iso } from './time.ts';
import { tokenPlayer } from './token.ts';
import type { Player } from './world/types.ts';

export function rankedRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  const route = (pattern: string, handler: (player: Player, request: RouteRequest) => unknown): Route => ({
    pattern,
    tier: 'ranked',
    handler: (request) => handler(tokenPlayer(ctx, request), request),
  });
  const seasonParam = (raw: string | undefined): number => {
    const season = intParam(raw ?? '', 'season');
    return season === 0 ? world.currentSeason : season;
  };
  const rankings = (season: number, request: RouteRequest, pathRegion?: number) => {
    const limit = intQuery(request.query, 'limit', { min: 1, max: 100, fallback: 50 });
    const offset = intQuery(request.query, 'offset', { min: 0, fallback: 0 });
    const region = pathRegion ?? optionalIntQuery(request.query, 'region', 0);
    const regions = region === undefined ? [2, 3, 4] : [region];
    const rows = regions
      .flatMap((r) => index.rankedBoard(season, r))
      .sort((a, b) => b.mmr - a.mmr || a.playerId - b.playerId)
      .map((r, i) => ({ position: i + 1, player_name: r.playerName, region: r.region, mmr: r.mmr }));
    return { season, rows: rows.slice(offset, offset + limit) };
  };
  const regionRow = (r: {
    region: number;
    mmr: number;
    wins: number;
    losses: number;
    kills: number;
    deaths: number;
  }) => ({
    region: r.region,
    mmr: r.mmr,
    wins: r.wins,
    losses: r.losses,
    kills: r.kills,
    deaths: r.deaths,
  });
  return [
    route('/ranked/me/connection', (player) => ({
      connected: player.rankedPool,
      region: player.homeRegion,
      season: world.currentSeason,
      queue: null,
    })),
    route('/match-history/me', (player, { query }) => {
      const limit = intQuery(query, 'limit', { min: 1, max: 100, fallback: 20 });
      const offset = intQuery(query, 'offset', { min: 0, fallback: 0 });
      const mode = optionalIntQuery(query, 'mode', 0);
      const region = optionalIntQuery(query, 'region', 0);
      const rankedFlag = query.get('ranked');
      if (rankedFlag !== null && !['0', '1', 'true', 'false'].includes(rankedFlag))
        throw badRequest('invalid ranked');
      const wantRanked = rankedFlag === null ? undefined : rankedFlag === '1' || rankedFlag === 'true';
      const matches = index
        .matchesOf(player.id)
        .filter(
          (m) =>
            (mode === undefined || m.mode === mode) &&
            (region === undefined || m.region === region) &&
            (wantRanked === undefined || wantRanked),
        );
      return {
        total: matches.length,
        matches: matches.slice(offset, offset + limit).map((m) => {
          const p = m.participants.find((x) => x.playerId === player.id);
          return {
            match_id: wireId(m.id),
            date: iso(m.dateMs),
            map: m.map,
            region: m.region,
            ranked: true,
            result: p?.result ?? 0,
            kills: p?.kills ?? 0,
            deaths: p?.deaths ?? 0,
            score: p?.score ?? 0,
          };
        }),
      };
    }),
    route('/player-profile/me/season/{season}', (player, { params }) => {
      const season = seasonParam(params['season']);
      return {
        season,
        regions: index
          .rankedOf(player.id, season)
          .map(regionRow)
          .sort((a, b) => a.region - b.region),
      };
    }),
    route('/player-profile/me/season/{season}/region/{region}', (player, { params }) => {
      const season = seasonParam(params['season']);
      const region = intParam(params['region'] ?? '', 'region');
      const record = index.rankedOf(player.id, season).find((r) => r.region === region);
      if (!record) throw notFound('Ranked profile');
      return { season, ...regionRow(record) };
    }),
    route('/leaderboards/rankings/season/{season}', (_player, request) =>
      rankings(seasonParam(request.params['season']), request),
    ),
    route('/leaderboards/rankings/season/{season}/region/{region}', (_player, request) =>
      rankings(
        seasonParam(request.params['season']),
        request,
        intParam(request.params['region'] ?? '', 'region'),
      ),
    ),
    route('/daily-spin/progress', (player, { nowMs }) => {
      const day = Math.floor(nowMs / DAY_MS);
      const used = new Rng(hashSeed(world.seed, 'spins', player.id, day)).int(0, 3);
      return { day, spins_used: used, spins_left: 3 - used, next_reset: iso((day + 1) * DAY_MS) };
    }),
    route('/streams/top', () => {
      const rng = new Rng(hashSeed(world.seed, 'streams'));
      return world.players
        .filter((p) => p.twitchName !== '')
        .slice(0, 10)
        .map((p) => ({
          name: p.twitchName,
          player_name: p.name,
          viewers: rng.int(0, 4_000),
          title: 'ranked grind',
        }))
        .sort((a, b) => b.viewers - a.viewers);
    }),
  ];
}
