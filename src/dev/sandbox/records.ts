import type { SandboxContext } from './context.ts';
import { badRequest, notFound, pageOf, pageQuery } from './http.ts';
import { wireId } from './json.ts';
import type { WorldIndex } from './lookup.ts';
import { iso, sqlTime } from './time.ts';
import { compareText } from './world/common.ts';
import type { BoardEntry, BoardType, CommunityMap, Match, Player, RankedRecord } from './world/types.ts';

// The wire records the developer and game tiers share: players, maps and their boards, matches, mods.

const MAP_BOARD_PAGE = 25;

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The profile's level: 0.03 x sqrt(score), at least 1 (spec 2.13). */
export function playerLevel(score: number): number {
  return Math.max(1, Math.floor(0.03 * Math.sqrt(score)));
}

export function findPlayer(index: WorldIndex, name: string): Player {
  const player = index.player(name);
  if (!player) throw notFound('Player');
  return player;
}

export function findMap(index: WorldIndex, name: string): CommunityMap {
  const map = index.map(name);
  if (!map) throw notFound('Map');
  return map;
}

export function mapInfo(map: CommunityMap, featured: boolean): Record<string, unknown> {
  return {
    map_id: map.id,
    name: map.name,
    description: map.description,
    creator_name: map.creatorName,
    votes: map.votes,
    gameplays: map.gameplays,
    playtime: map.playtimeMs,
    category: map.category,
    created_at: sqlTime(map.createdAtMs),
    updated_at: sqlTime(map.updatedAtMs),
    leaderboard_type: map.leaderboardType,
    leaderboard_order: map.leaderboardOrder,
    featured,
  };
}

interface BoardChoice {
  readonly type: BoardType | '';
  readonly order: 0 | 1;
  readonly typeGiven: boolean;
}

/** `type` defaults to the map's board; `order` to the map's order for its board, else by type. */
export function boardChoice(map: CommunityMap, query: URLSearchParams): BoardChoice {
  const rawType = query.get('type');
  let type: BoardType | '' = map.leaderboardType;
  const typeGiven = rawType !== null && rawType !== '';
  if (typeGiven) {
    if (rawType !== 'score' && rawType !== 'time') throw badRequest('invalid type');
    type = rawType;
  }
  const rawOrder = query.get('order');
  let order: 0 | 1;
  if (rawOrder !== null && rawOrder !== '') {
    if (rawOrder !== '0' && rawOrder !== '1') throw badRequest('invalid order');
    order = rawOrder === '0' ? 0 : 1;
  } else if (type === map.leaderboardType) {
    order = map.leaderboardOrder;
  } else {
    order = type === 'score' ? 1 : 0;
  }
  return { type, order, typeGiven };
}

/** Current standings of one board: order 0 puts the lowest value first. */
export function standings(map: CommunityMap, choice: BoardChoice): { position: number; entry: BoardEntry }[] {
  const entries = choice.type === '' ? [] : [...(map.boards[choice.type] ?? [])];
  entries.sort(
    (a, b) =>
      (choice.order === 0 ? a.value - b.value : b.value - a.value) ||
      a.dateMs - b.dateMs ||
      compareText(a.playerName, b.playerName),
  );
  return entries.map((entry, index) => ({ position: index + 1, entry }));
}

export function mapLeaderboard(map: CommunityMap, query: URLSearchParams): Record<string, unknown> {
  const page = pageQuery(query);
  const choice = boardChoice(map, query);
  return {
    page,
    per_page: MAP_BOARD_PAGE,
    map_name: map.name,
    leaderboard_type: choice.type,
    leaderboard_order: choice.order,
    entries: pageOf(standings(map, choice), page, MAP_BOARD_PAGE).map(({ position, entry }) => ({
      position,
      player_name: entry.playerName,
      value: entry.value,
      date: iso(entry.dateMs),
    })),
  };
}

export function rankedRow(record: RankedRecord): Record<string, number> {
  return {
    mmr: record.mmr,
    wins: record.wins,
    losses: record.losses,
    kills: record.kills,
    deaths: record.deaths,
    assists: record.assists,
    score: record.score,
    damage_done: record.damageDone,
  };
}

export function playerProfile(ctx: SandboxContext, player: Player): Record<string, unknown> {
  const s = player.stats;
  const clan = ctx.index.clanOf(player);
  return {
    player_id: player.id,
    player_name: player.name,
    clan: clan?.name ?? '',
    verified: player.verified,
    flag: player.flag,
    badges: [...player.badges],
    following: player.follows.length,
    followers: ctx.index.followersOf(player.id).length,
    ranked: ctx.index
      .rankedOf(player.id, ctx.world.currentSeason)
      .map((r) => ({ region: r.region, ...rankedRow(r), time_played: r.timePlayed }))
      .sort((a, b) => a.region - b.region),
    kr: player.kr,
    level: playerLevel(s.score),
    junk: player.junk,
    inventory: ctx.index.inventoryValue(player.id),
    score: s.score,
    spk: s.kills === 0 ? 0 : round2(s.score / s.kills),
    kills: s.kills,
    deaths: s.deaths,
    kdr: s.deaths === 0 ? s.kills : round2(s.kills / s.deaths),
    kpg: s.games === 0 ? 0 : round2(s.kills / s.games),
    games: s.games,
    wins: s.wins,
    losses: s.games - s.wins,
    assists: s.assists,
    melees: s.melees,
    beatdowns: s.beatdowns,
    bullseyes: s.bullseyes,
    headshots: s.headshots,
    legshots: s.legshots,
    wallbangs: s.wallbangs,
    shots: s.shots,
    hits: s.hits,
    misses: s.shots - s.hits,
    time_played: s.timePlayed,
    nukes: s.nukes,
    airdrops: s.airdrops,
    airdrops_stolen: s.airdropsStolen,
    slimes: s.slimes,
    juggernauts: s.juggernauts,
    juggernauts_killed: s.juggernautsKilled,
    warmachines: s.warmachines,
    class_stats: { ...player.classStats },
    hacker_tagged: player.hackerTagged,
    kpd: player.kpd,
    premium: player.premium,
    twitch_name: player.twitchName,
    created_at: iso(player.createdAtMs),
  };
}

export function matchDetails(match: Match): Record<string, unknown> {
  return {
    match_id: wireId(match.id),
    date: iso(match.dateMs),
    map: match.map,
    duration: match.duration,
    season: match.season,
    region: match.region,
    participants: match.participants.map((p) => ({
      player_name: p.playerName,
      kills: p.kills,
      deaths: p.deaths,
      assists: p.assists,
      score: p.score,
      damage_done: p.damageDone,
      headshots: p.headshots,
      accuracy: p.accuracy,
      objective_score: p.objectiveScore,
      victory: p.victory,
      rounds_won: p.roundsWon,
      team: p.team,
      play_time: p.playTime,
    })),
  };
}

export function modRecord(mod: {
  id: number;
  name: string;
  description: string;
  creatorName: string;
  votes: number;
  featured: boolean;
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
}): Record<string, unknown> {
  return {
    mod_id: mod.id,
    name: mod.name,
    description: mod.description,
    creator_name: mod.creatorName,
    votes: mod.votes,
    featured: mod.featured,
    version: mod.version,
    created_at: sqlTime(mod.createdAtMs),
    updated_at: sqlTime(mod.updatedAtMs),
  };
}
