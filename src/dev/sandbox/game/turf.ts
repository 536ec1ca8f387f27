import type { SandboxContext } from '../context.ts';
import { badRequest, optionalIntQuery, type Route } from '../http.ts';
import type { TurfTotals } from '../turf.ts';
import { TURF_MAP_IDS } from '../world/types.ts';
import { BOARD_ROWS, clanById, kd, playerById, route } from './common.ts';

function turfRow(row: TurfTotals, position: number): Record<string, unknown> {
  return {
    position,
    points: row.points,
    kills: row.kills,
    deaths: row.deaths,
    kd: kd(row.kills, row.deaths),
  };
}

function payoutRow(p: { playerId: number; playerName: string; kr: number }): Record<string, unknown> {
  return { player_id: p.playerId, player_name: p.playerName, kr: p.kr };
}

function turfMap(query: URLSearchParams): number | undefined {
  const mapId = optionalIntQuery(query, 'map_id', 0);
  if (mapId !== undefined && !TURF_MAP_IDS.some((id) => id === mapId)) throw badRequest('invalid map_id');
  return mapId;
}

function turfDay(query: URLSearchParams): number | undefined {
  return optionalIntQuery(query, 'day', 0);
}

/** Territorial wars. */
export function turfRoutes(ctx: SandboxContext): Route[] {
  const { index, turf } = ctx;
  return [
    route('/territorial-wars/status', ({ nowMs }) => {
      const day = turf.dayOf(nowMs);
      return {
        day,
        maps: TURF_MAP_IDS.map((mapId) => {
          const owner = turf.owner(day, mapId);
          return {
            map_id: mapId,
            owner: owner ? { clan_id: owner.id, clan_name: owner.name } : null,
            top_clans: turf
              .clanStandings([day], mapId)
              .slice(0, 5)
              .map((row, i) => ({
                position: i + 1,
                clan_id: row.id,
                clan_name: row.name,
                points: row.points,
              })),
          };
        }),
      };
    }),
    route('/territorial-wars/clan/{id}', ({ params, nowMs }) => {
      const clan = clanById(index, params['id']);
      const day = turf.dayOf(nowMs);
      const standing = turf.clanStandings([day]);
      const position = standing.findIndex((row) => row.id === clan.id);
      return {
        clan_id: clan.id,
        clan_name: clan.name,
        position: position === -1 ? null : position + 1,
        points: standing[position]?.points ?? 0,
        maps_owned: TURF_MAP_IDS.filter((mapId) => turf.owner(day, mapId)?.id === clan.id),
      };
    }),
    route('/territorial-wars/clan/{id}/earnings', ({ params, nowMs }) => {
      const clan = clanById(index, params['id']);
      return {
        clan_id: clan.id,
        days: turf
          .finishedDays(turf.dayOf(nowMs))
          .map((day) => ({ day, kr: turf.clanEarnings(clan.id, day) })),
      };
    }),
    route('/territorial-wars/clan/{id}/payouts', ({ params, query, nowMs }) => {
      const clan = clanById(index, params['id']);
      const day = turfDay(query);
      const today = turf.dayOf(nowMs);
      if (day !== undefined) {
        return {
          clan_id: clan.id,
          day,
          payouts: day < today ? turf.payouts(clan.id, day).map(payoutRow) : [],
        };
      }
      const sums = new Map<number, { playerId: number; playerName: string; kr: number }>();
      for (const finished of turf.finishedDays(today)) {
        for (const payout of turf.payouts(clan.id, finished)) {
          const sum = sums.get(payout.playerId);
          if (sum) sum.kr += payout.kr;
          else sums.set(payout.playerId, { ...payout });
        }
      }
      return {
        clan_id: clan.id,
        day: null,
        payouts: [...sums.values()].sort((a, b) => b.kr - a.kr).map(payoutRow),
      };
    }),
    route('/territorial-wars/clan/{id}/players', ({ params, query, nowMs }) => {
      const clan = clanById(index, params['id']);
      const day = turfDay(query) ?? turf.dayOf(nowMs);
      const mapId = turfMap(query);
      return {
        clan_id: clan.id,
        day,
        players: turf.playerStandings([day], mapId, clan.id).map((row) => ({
          player_id: row.id,
          player_name: row.name,
          points: row.points,
          kills: row.kills,
          deaths: row.deaths,
        })),
      };
    }),
    route('/territorial-wars/player/{id}', ({ params }) => {
      const player = playerById(index, params['id']);
      const clan = index.clanOf(player);
      return {
        player_id: player.id,
        player_name: player.name,
        clan_id: clan?.id ?? null,
        clan_name: clan?.name ?? null,
      };
    }),
    route('/territorial-wars/player/{id}/contributions', ({ params, query, nowMs }) => {
      const player = playerById(index, params['id']);
      const day = turfDay(query);
      const days = day === undefined ? turf.seasonDays(turf.dayOf(nowMs)) : [day];
      const contributions = days.flatMap((d) =>
        turf
          .clanDays(d)
          .flatMap((row) =>
            row.players
              .filter((p) => p.playerId === player.id)
              .map((p) => ({ day: d, map_id: row.mapId, points: p.points, kills: p.kills })),
          ),
      );
      return { player_id: player.id, contributions };
    }),
    route('/territorial-wars/player/{id}/earnings', ({ params, nowMs }) => {
      const player = playerById(index, params['id']);
      const earnings: { day: number; kr: number }[] = [];
      if (player.clanId !== null) {
        for (const day of turf.finishedDays(turf.dayOf(nowMs))) {
          const kr = turf.payouts(player.clanId, day).find((p) => p.playerId === player.id)?.kr ?? 0;
          if (kr > 0) earnings.push({ day, kr });
        }
      }
      return { player_id: player.id, earnings };
    }),
    route('/territorial-wars/leaderboards/top-performing-clans', ({ query, nowMs }) => {
      const day = turfDay(query) ?? turf.dayOf(nowMs);
      const mapId = turfMap(query);
      const clanName = query.get('clan_name');
      const rows = turf
        .clanStandings([day], mapId)
        .slice(0, BOARD_ROWS)
        .map((row, i) => ({ ...turfRow(row, i + 1), clan_id: row.id, clan_name: row.name }))
        .filter((row) => clanName === null || row.clan_name === clanName);
      return { rows };
    }),
    route('/territorial-wars/leaderboards/top-grossing-clans', ({ query, nowMs }) => {
      const clanName = query.get('clan_name');
      const rows = turf
        .grossing(turf.dayOf(nowMs))
        .slice(0, BOARD_ROWS)
        .map((row, i) => ({ position: i + 1, clan_id: row.clanId, clan_name: row.clanName, kr: row.kr }))
        .filter((row) => clanName === null || row.clan_name === clanName);
      return { rows };
    }),
    route('/territorial-wars/leaderboards/top-performing-players', async ({ query, nowMs }) => {
      const mapId = turfMap(query);
      const playerName = query.get('player_name');
      const rows = turf
        .playerStandings(turf.seasonDays(turf.dayOf(nowMs)), mapId)
        .slice(0, BOARD_ROWS)
        .map((row, i) => {
          const player = index.playerById(row.id);
          return {
            ...turfRow(row, i + 1),
            player_id: row.id,
            player_name: row.name,
            clan_name: player ? (index.clanOf(player)?.name ?? '') : '',
          };
        })
        .filter((row) => playerName === null || row.player_name === playerName);
      await ctx.sleep(ctx.latency.topPlayersMs);
      return { rows };
    }),
  ];
}
