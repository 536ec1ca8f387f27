import type { PlayerProfile } from '../api/schemas/index.ts';

/**
 * What a snapshot keeps of a player profile: the headline numbers that history, compare, tracking and the
 * server leaderboard draw on. Everything else of the profile is a command away.
 */
export interface RankedStanding {
  readonly region: number;
  readonly mmr: number;
  readonly wins: number;
  readonly losses: number;
  readonly kills: number;
  readonly deaths: number;
  readonly assists: number;
  readonly score: number;
}

export interface SnapshotStats {
  readonly score: number;
  readonly kills: number;
  readonly deaths: number;
  readonly games: number;
  readonly wins: number;
  readonly level: number;
  readonly kr: number;
  /** Empty without a clan. */
  readonly clan: string;
  /** The current season's standing per region (regions with placement done only). */
  readonly ranked: readonly RankedStanding[];
}

/** One player's numbers at one time. */
export interface Snapshot {
  readonly playerId: number;
  readonly playerName: string;
  /** When the profile was read (clock time, ms). */
  readonly at: number;
  readonly stats: SnapshotStats;
}

/** Regions the ranked API knows (`common:regions.*`). */
export const RANKED_REGIONS = [2, 3, 4] as const;

/** The stats a history, a compare and a server leaderboard can show. `mmr-<region>`: ranked MMR there. */
export const HISTORY_STATS = [
  'kd',
  'score',
  'kills',
  'deaths',
  'wins',
  'level',
  'kr',
  ...RANKED_REGIONS.map((region) => `mmr-${region}` as const),
] as const;
export type HistoryStat = (typeof HISTORY_STATS)[number];

export function isHistoryStat(value: unknown): value is HistoryStat {
  return typeof value === 'string' && (HISTORY_STATS as readonly string[]).includes(value);
}

/** The region of an `mmr-<region>` stat. */
export function mmrRegion(stat: HistoryStat): number | undefined {
  return stat.startsWith('mmr-') ? Number(stat.slice(4)) : undefined;
}

/** Whether a higher value is the better one (deaths: lower is better). */
export function higherIsBetter(stat: HistoryStat): boolean {
  return stat !== 'deaths';
}

function whole(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Kills per death as the game shows it: kills alone while there are no deaths. */
export function killDeathRatio(kills: number, deaths: number): number {
  return deaths > 0 ? kills / deaths : kills;
}

/** The value of a stat, or undefined where the snapshot has none (no ranked standing in that region). */
export function statValue(stats: SnapshotStats, stat: HistoryStat): number | undefined {
  switch (stat) {
    case 'kd':
      return killDeathRatio(stats.kills, stats.deaths);
    case 'score':
    case 'kills':
    case 'deaths':
    case 'wins':
    case 'level':
    case 'kr':
      return stats[stat];
    default: {
      const region = mmrRegion(stat);
      return stats.ranked.find((standing) => standing.region === region)?.mmr;
    }
  }
}

/** At most this many ranked regions are kept (a reply listing more is not trusted past them). */
const MAX_REGIONS = 16;

/** The snapshot numbers of a profile (fields the reply left out count as 0). */
export function statsOf(profile: PlayerProfile): SnapshotStats {
  return {
    score: whole(profile.score),
    kills: whole(profile.kills),
    deaths: whole(profile.deaths),
    games: whole(profile.games),
    wins: whole(profile.wins),
    level: whole(profile.level),
    kr: whole(profile.kr),
    clan: profile.clan ?? '',
    ranked: (profile.ranked ?? []).slice(0, MAX_REGIONS).map((entry) => ({
      region: entry.region,
      mmr: whole(entry.mmr),
      wins: whole(entry.wins),
      losses: whole(entry.losses),
      kills: whole(entry.kills),
      deaths: whole(entry.deaths),
      assists: whole(entry.assists),
      score: whole(entry.score),
    })),
  };
}

/** Ranked matches finished in the season so far, all regions together. */
export function rankedMatches(stats: SnapshotStats): number {
  return stats.ranked.reduce((sum, standing) => sum + standing.wins + standing.losses, 0);
}
