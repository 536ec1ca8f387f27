import type { SandboxContext } from '../context.ts';
import { badRequest, intParam, intQuery, notFound, type Route } from '../http.ts';
import { Rng, hashSeed } from '../prng.ts';
import { RAID_MAP_IDS, type Player, type PlayerStats, type World } from '../world/types.ts';
import { playerLevel, round2 } from '../records.ts';
import { BOARD_ROWS, ascending, kd, route, sortedRows } from './common.ts';

const PLAYER_BOARDS: Readonly<Record<string, (s: PlayerStats, p: Player) => number>> = {
  score: (s) => s.score,
  kills: (s) => s.kills,
  wins: (s) => s.wins,
  kdr: (s) => kd(s.kills, s.deaths),
  time_played: (s) => s.timePlayed,
  nukes: (s) => s.nukes,
  level: (s) => playerLevel(s.score),
  junk: (_s, p) => p.junk,
};

export function leaderboardRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  const seed = world.seed;
  return [
    route('/leaderboards/player_clan', ({ query }) => ({
      rows: sortedRows(
        world.clans.map((c) => ({ clan_id: c.id, clan_name: c.name, value: index.clanScore(c.id) })),
        ascending(query, false),
      ),
    })),
    route('/leaderboards/raids/{mapId}', ({ params, query }) => {
      const mapId = intParam(params['mapId'] ?? '', 'mapId');
      if (!RAID_MAP_IDS.some((id) => id === mapId)) throw badRequest('invalid raid map');
      const rng = new Rng(hashSeed(seed, 'raid', mapId));
      const players = rng.sample(
        world.players.filter((p) => !p.banned && p.stats.games > 0),
        BOARD_ROWS,
      );
      return {
        map_id: mapId,
        rows: sortedRows(
          players.map((p) => ({ player_name: p.name, value: rng.int(60_000, 900_000) })),
          ascending(query, true),
        ),
      };
    }),
    route('/leaderboards/krunkcup/players', () => {
      const rng = new Rng(hashSeed(seed, 'cup-players'));
      const players = rng.sample(
        world.players.filter((p) => !p.banned && p.stats.games > 0),
        BOARD_ROWS,
      );
      return {
        rows: sortedRows(
          players.map((p) => ({ player_name: p.name, value: rng.int(0, 5_000) })),
          false,
        ),
      };
    }),
    route('/leaderboards/krunkcup/teams', () => ({
      rows: sortedRows(
        cupTeams(world).map((t) => ({ team_id: t.id, team_name: t.name, value: t.value })),
        false,
      ),
    })),
    route('/leaderboards/krunkcup/teams/{id}/contributors', ({ params }) => {
      const id = intParam(params['id'] ?? '', 'id');
      const team = cupTeams(world).find((t) => t.id === id);
      if (!team) throw notFound('Team');
      return { team_id: team.id, rows: team.contributors };
    }),
    route('/leaderboards/{type}', ({ params, query }) => {
      const type = params['type'] ?? '';
      const valueOf = Object.hasOwn(PLAYER_BOARDS, type) ? PLAYER_BOARDS[type] : undefined;
      if (!valueOf) throw badRequest('invalid leaderboard type');
      const season =
        intQuery(query, 'season', { min: 0, fallback: world.currentSeason }) || world.currentSeason;
      const rows = world.players
        .filter((p) => !p.banned && p.stats.games > 0)
        .map((p) => {
          const base = valueOf(p.stats, p);
          const factor =
            season === world.currentSeason
              ? 1
              : new Rng(hashSeed(seed, 'season-board', season, p.id)).float(0.2, 0.9);
          return {
            player_name: p.name,
            clan: index.clanOf(p)?.name ?? '',
            value: Number.isInteger(base) ? Math.round(base * factor) : round2(base * factor),
          };
        });
      return { type, season, rows: sortedRows(rows, ascending(query, false)) };
    }),
  ];
}

interface CupTeam {
  readonly id: number;
  readonly name: string;
  readonly value: number;
  readonly contributors: { player_name: string; value: number }[];
}

function cupTeams(world: World): CupTeam[] {
  const rng = new Rng(hashSeed(world.seed, 'cup-teams'));
  return world.clans.slice(0, 16).map((clan, i) => {
    const contributors = clan.members
      .slice(0, 5)
      .map((m) => ({ player_name: m.playerName, value: rng.int(0, 2_000) }))
      .sort((a, b) => b.value - a.value);
    return {
      id: i + 1,
      name: `${clan.name} Cup`,
      value: contributors.reduce((sum, c) => sum + c.value, 0),
      contributors,
    };
  });
}
