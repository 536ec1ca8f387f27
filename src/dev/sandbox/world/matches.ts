import { NOTABLE, type WorldContext } from './common.ts';
import {
  CURRENT_SEASON,
  FIRST_MATCH_ID,
  PREVIOUS_SEASON,
  RANKED_REGIONS,
  type Match,
  type Participant,
  type Player,
  type RankedRecord,
} from './types.ts';

/** Official maps of the ranked rotation. */
export const RANKED_MAPS: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 16, 17];

/** Ranked matches per season and region, oldest first. */
export function makeMatches({ rng, daysAgo }: WorldContext, players: readonly Player[]): Match[] {
  const matches: Match[] = [];
  const seasonSpan: Readonly<Record<number, readonly [number, number]>> = {
    [PREVIOUS_SEASON]: [150, 61],
    [CURRENT_SEASON]: [60, 0],
  };
  const raw: Omit<Match, 'id'>[] = [];
  for (const season of [PREVIOUS_SEASON, CURRENT_SEASON]) {
    const [fromDay, toDay] = seasonSpan[season] ?? [0, 0];
    for (const region of RANKED_REGIONS) {
      const regionPool = players.filter((p) => p.rankedPool && p.homeRegion === region);
      for (let m = 0; m < 100; m++) {
        const dateMs = daysAgo(rng.int(toDay, fromDay));
        const duration = rng.int(300, 900);
        const draw = rng.chance(0.05);
        const winner = rng.int(1, 2);
        const winnerRounds = rng.int(3, 4);
        const loserRounds = draw ? winnerRounds : rng.int(0, winnerRounds - 1);
        const chosen = rng.sample(regionPool, 8);
        const participants: Participant[] = chosen.map((p, slot) => {
          const team = slot < 4 ? 1 : 2;
          const won = !draw && team === winner;
          const kills = rng.int(3, 38);
          return {
            playerId: p.id,
            playerName: p.name,
            kills,
            deaths: rng.int(4, 32),
            assists: rng.int(0, 16),
            score: kills * rng.int(90, 140) + rng.int(0, 900),
            damageDone: kills * rng.int(80, 120) + rng.int(0, 2_000),
            headshots: rng.int(0, kills),
            accuracy: rng.int(12, 58),
            objectiveScore: rng.int(0, 4_000),
            victory: draw ? -1 : won ? 1 : 0,
            roundsWon: draw ? winnerRounds : won ? winnerRounds : loserRounds,
            team,
            playTime: duration - rng.int(0, 40),
            kr: rng.int(5, won ? 80 : 30),
            result: draw ? -1 : won ? 1 : 0,
          };
        });
        participants.sort((a, b) => a.team - b.team || b.score - a.score);
        raw.push({ dateMs, map: rng.pick(RANKED_MAPS), mode: 2, duration, season, region, participants });
      }
    }
  }
  raw.sort((a, b) => a.dateMs - b.dateMs);
  let nextMatchId = FIRST_MATCH_ID;
  for (const match of raw) {
    matches.push({ id: nextMatchId.toString(), ...match });
    nextMatchId += BigInt(rng.int(1, 5_000));
  }
  return matches;
}

/** A ranked record's totals with one more match of the participant counted in. */
export function withMatch(
  previous: RankedRecord | undefined,
  p: Participant,
): Omit<RankedRecord, 'season' | 'region' | 'playerId' | 'playerName' | 'mmr'> {
  return {
    matches: (previous?.matches ?? 0) + 1,
    wins: (previous?.wins ?? 0) + (p.result === 1 ? 1 : 0),
    losses: (previous?.losses ?? 0) + (p.result === 0 ? 1 : 0),
    kills: (previous?.kills ?? 0) + p.kills,
    deaths: (previous?.deaths ?? 0) + p.deaths,
    assists: (previous?.assists ?? 0) + p.assists,
    score: (previous?.score ?? 0) + p.score,
    damageDone: (previous?.damageDone ?? 0) + p.damageDone,
    timePlayed: (previous?.timePlayed ?? 0) + p.playTime,
  };
}

/** The ranked records, derived from the matches. */
export function makeRanked({ rng }: WorldContext, matches: readonly Match[]): RankedRecord[] {
  const rankedTotals = new Map<string, RankedRecord>();
  for (const match of matches) {
    for (const p of match.participants) {
      const key = `${match.season}:${match.region}:${p.playerId}`;
      const previous = rankedTotals.get(key);
      rankedTotals.set(key, {
        season: match.season,
        region: match.region,
        playerId: p.playerId,
        playerName: p.playerName,
        mmr: 0,
        ...withMatch(previous, p),
      });
    }
  }
  const ranked: RankedRecord[] = [...rankedTotals.values()].map((record) => ({
    ...record,
    mmr: Math.max(
      0,
      1_200 +
        (record.wins - record.losses) * 35 +
        rng.int(-300, 900) +
        (record.playerName === NOTABLE.verified ? 1_500 : 0),
    ),
  }));
  ranked.sort(
    (a, b) => a.season - b.season || a.region - b.region || b.mmr - a.mmr || a.playerId - b.playerId,
  );
  return ranked;
}
