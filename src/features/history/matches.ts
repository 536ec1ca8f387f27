import type { PlayerMatch, PlayerMatches } from '../../api/schemas/index.ts';
import { killDeathRatio, mmrRegion, type HistoryStat } from '../../players/stats.ts';
import type { HistoryPoint, MatchResultMark } from './chart.ts';

/**
 * What the match history gives a time-based reply before the bot has measured anything twice: one value per
 * ranked match (its K/D, kills, deaths or score, at the match's date) and its result. These need no
 * snapshots, so `/player history`, `/player compare` and the profile's "since" lines have something to show
 * on a new install; every reply says which of its numbers come from here and which were measured.
 */

/** One ranked match as the time-based replies use it: every number checked. */
export interface MatchReading {
  readonly at: number;
  readonly kills: number;
  readonly deaths: number;
  readonly score: number | undefined;
  readonly result: MatchResultMark['result'] | undefined;
  readonly region: number | undefined;
}

/** Matches read at most (a page of the match history is 10; a hostile reply gets no more than this). */
const MAX_MATCHES = 100;
/** A match's kills or deaths above this is no real match: the row is left out. */
const MAX_PER_MATCH = 100_000;
/** Dates a reader can believe: from 2000 to 9999. */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(10_000, 0, 1);

function countOf(value: number | undefined): number | undefined {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 && value <= MAX_PER_MATCH
    ? value
    : undefined;
}

/**
 * The matches with a date, kills and deaths that make sense, oldest first, the rest left out. A result is the
 * spec's convention (1 win, 0 loss, -1 draw); anything else is no result.
 */
export function matchReadings(matches: readonly PlayerMatch[]): MatchReading[] {
  const readings: MatchReading[] = [];
  for (const match of matches.slice(0, MAX_MATCHES)) {
    const at = match.date === undefined ? Number.NaN : Date.parse(match.date);
    const kills = countOf(match.kills);
    const deaths = countOf(match.deaths);
    if (!(at >= EARLIEST && at < LATEST) || kills === undefined || deaths === undefined) continue;
    const result =
      match.victory === 1 ? 'win' : match.victory === 0 ? 'loss' : match.victory === -1 ? 'draw' : undefined;
    const score = match.score !== undefined && Number.isSafeInteger(match.score) ? match.score : undefined;
    readings.push({ at, kills, deaths, score, result, region: match.region });
  }
  return readings.sort((a, b) => a.at - b.at);
}

/**
 * The per-match counterpart of a stat, when a match has one: K/D, kills, deaths or score of that match. Wins
 * and MMR have none (they show as the results strip), nor do level and KR.
 */
export function perMatchStat(stat: HistoryStat): 'kd' | 'kills' | 'deaths' | 'score' | undefined {
  return stat === 'kd' || stat === 'kills' || stat === 'deaths' || stat === 'score' ? stat : undefined;
}

/** One value per match of a per-match stat, oldest first. */
export function perMatchPoints(readings: readonly MatchReading[], stat: HistoryStat): HistoryPoint[] {
  const which = perMatchStat(stat);
  if (which === undefined) return [];
  return readings.flatMap((reading) => {
    const value =
      which === 'kd'
        ? killDeathRatio(reading.kills, reading.deaths)
        : which === 'score'
          ? reading.score
          : reading[which];
    return value === undefined ? [] : [{ at: reading.at, value }];
  });
}

/**
 * The results strip of a stat: every match, or for a region's MMR that region's matches; none for level and
 * KR, which ranked results say nothing about.
 */
export function resultMarks(readings: readonly MatchReading[], stat: HistoryStat): MatchResultMark[] {
  if (stat === 'level' || stat === 'kr') return [];
  const region = mmrRegion(stat);
  return readings.flatMap((reading) =>
    reading.result === undefined || (region !== undefined && reading.region !== region)
      ? []
      : [{ at: reading.at, result: reading.result }],
  );
}

export interface MatchSummary {
  readonly played: number;
  readonly wins: number;
  readonly losses: number;
  readonly kd: number;
}

/**
 * The ranked matches since `since`, summed, when the readings reach back that far: a full page whose oldest
 * match is newer than `since` may leave matches out, and then there is no summary (undefined) rather than
 * a wrong one. `complete` says whether the history holds no older page (fewer matches than a page).
 */
export function summarySince(
  readings: readonly MatchReading[],
  since: number,
  complete: boolean,
): MatchSummary | undefined {
  const oldest = readings[0];
  if (oldest === undefined) return undefined;
  if (!complete && oldest.at >= since) return undefined;
  const inside = readings.filter((reading) => reading.at >= since);
  if (inside.length === 0) return undefined;
  let kills = 0;
  let deaths = 0;
  for (const reading of inside) {
    kills += reading.kills;
    deaths += reading.deaths;
  }
  return {
    played: inside.length,
    wins: inside.filter((reading) => reading.result === 'win').length,
    losses: inside.filter((reading) => reading.result === 'loss').length,
    kd: killDeathRatio(kills, deaths),
  };
}

/** What reads the match history: a command's or a button's context. */
export interface MatchesReader {
  load(name: 'playerMatches', params: { playerName: string; page: number }): Promise<PlayerMatches>;
  readonly services: { readonly log: { warn(object: object, message: string): void } };
}

/**
 * The player's recent ranked matches: the first page of the match history (10, newest first; cached a
 * minute, one request). Undefined when it cannot be read: the reply then shows what was measured only.
 */
export async function readRecentMatches(
  ctx: MatchesReader,
  playerName: string,
): Promise<{ readings: MatchReading[]; complete: boolean } | undefined> {
  try {
    const page = await ctx.load('playerMatches', { playerName, page: 1 });
    return {
      readings: matchReadings(page.matches),
      complete: page.matches.length < (page.per_page ?? 10),
    };
  } catch (error) {
    ctx.services.log.warn({ err: error }, 'match history unavailable for a time-based reply');
    return undefined;
  }
}
