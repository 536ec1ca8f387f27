import type { Rng } from './prng.ts';
import { RANKED_MAPS } from './world/matches.ts';
import { RANKED_REGIONS, type Participant, type Player } from './world/types.ts';

// One ranked match of the activity log: its seeded draws and the participants' lines. Every draw is
// made whether or not an option overrides it, so fixing one value never shifts the rest of the match.

/** What a test may fix about the player's side of a match; everything else is drawn from the seed. */
export interface PlayOptions {
  readonly kills?: number;
  readonly deaths?: number;
  readonly assists?: number;
  readonly score?: number;
  /** 1 win, 0 loss, -1 draw. */
  readonly victory?: 1 | 0 | -1;
  readonly map?: number;
  /** Ranked region 2, 3 or 4; default the player's home region. */
  readonly region?: number;
  /** The player's mmr change; default +10..30 for a win, -10..30 for a loss, 0 for a draw. */
  readonly mmrChange?: number;
  /** Up to 7 other participants (the first 3 are teammates); the rest are drawn from the region. */
  readonly others?: readonly string[];
}

export const PARTICIPANTS = 8;
export const RANKED_MODE = 2;
const TEAM_SIZE = 4;

/** The seeded side of one participant's line. */
interface LineDraw {
  readonly kills: number;
  readonly deaths: number;
  readonly assists: number;
  readonly scorePerKill: number;
  readonly scoreExtra: number;
  readonly damagePerKill: number;
  readonly damageExtra: number;
  readonly headshotShare: number;
  readonly accuracy: number;
  readonly objectiveScore: number;
  readonly playTimeCut: number;
  readonly krShare: number;
  readonly mmrStep: number;
  readonly shotsPerKill: number;
}

export interface MatchDraws {
  readonly duration: number;
  readonly isDraw: boolean;
  readonly firstTeamWins: boolean;
  readonly winnerRounds: number;
  readonly loserRounds: number;
  readonly map: number;
  /** The playing player's team (1 or 2). */
  readonly team: number;
  /** How far this match's id lies past the previous one. */
  readonly idGap: bigint;
  readonly lines: readonly LineDraw[];
}

/** A participant's line and what the match does to them beyond it. */
export interface Seat {
  readonly player: Player;
  readonly participant: Participant;
  readonly mmrChange: number;
  readonly shotsPerKill: number;
}

function countOption(value: number | undefined, name: string): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
    throw new RangeError(`${name} must be a non-negative integer`);
}

export function checkPlayOptions(options: PlayOptions): void {
  countOption(options.kills, 'kills');
  countOption(options.deaths, 'deaths');
  countOption(options.assists, 'assists');
  countOption(options.score, 'score');
  countOption(options.map, 'map');
  if (options.victory !== undefined && ![1, 0, -1].includes(options.victory))
    throw new RangeError('victory must be 1, 0 or -1');
  if (options.region !== undefined && !RANKED_REGIONS.some((r) => r === options.region))
    throw new RangeError(`region must be one of ${RANKED_REGIONS.join(', ')}`);
  if (options.mmrChange !== undefined && !Number.isSafeInteger(options.mmrChange))
    throw new RangeError('mmrChange must be an integer');
  if (options.others !== undefined && options.others.length > PARTICIPANTS - 1)
    throw new RangeError(`at most ${PARTICIPANTS - 1} others`);
}

function drawLine(rng: Rng): LineDraw {
  return {
    kills: rng.int(3, 38),
    deaths: rng.int(4, 32),
    assists: rng.int(0, 16),
    scorePerKill: rng.int(90, 140),
    scoreExtra: rng.int(0, 900),
    damagePerKill: rng.int(80, 120),
    damageExtra: rng.int(0, 2_000),
    headshotShare: rng.next(),
    accuracy: rng.int(12, 58),
    objectiveScore: rng.int(0, 4_000),
    playTimeCut: rng.int(0, 40),
    krShare: rng.next(),
    mmrStep: rng.int(10, 30),
    shotsPerKill: rng.int(8, 14),
  };
}

/** The same ranges as the seeded world's matches (world/matches.ts). */
export function drawMatch(rng: Rng): MatchDraws {
  const duration = rng.int(300, 900);
  const isDraw = rng.chance(0.05);
  const firstTeamWins = rng.chance(0.5);
  const winnerRounds = rng.int(3, 4);
  return {
    duration,
    isDraw,
    firstTeamWins,
    winnerRounds,
    loserRounds: rng.int(0, winnerRounds - 1),
    map: rng.pick(RANKED_MAPS),
    team: rng.int(1, 2),
    idGap: BigInt(rng.int(1, 5_000)),
    lines: Array.from({ length: PARTICIPANTS }, () => drawLine(rng)),
  };
}

/**
 * The lines of `players` (the playing player first, then teammates, then opponents); the options fix the
 * first line. The result decides each team's victory, rounds and kr, and the default mmr change.
 */
export function seatPlayers(draws: MatchDraws, players: readonly Player[], options: PlayOptions): Seat[] {
  const { team } = draws;
  const victory = options.victory ?? (draws.isDraw ? -1 : draws.firstTeamWins ? 1 : 0);
  const winner = victory === 1 ? team : 3 - team;
  return players.map((player, slot): Seat => {
    const d = draws.lines[slot % PARTICIPANTS] as LineDraw;
    const seatTeam = slot < TEAM_SIZE ? team : 3 - team;
    const result: 1 | 0 | -1 = victory === -1 ? -1 : seatTeam === winner ? 1 : 0;
    const own = slot === 0 ? options : {};
    const kills = own.kills ?? d.kills;
    const participant: Participant = {
      playerId: player.id,
      playerName: player.name,
      kills,
      deaths: own.deaths ?? d.deaths,
      assists: own.assists ?? d.assists,
      score: own.score ?? kills * d.scorePerKill + d.scoreExtra,
      damageDone: kills * d.damagePerKill + d.damageExtra,
      headshots: Math.floor(d.headshotShare * (kills + 1)),
      accuracy: d.accuracy,
      objectiveScore: d.objectiveScore,
      victory: result,
      roundsWon: result === 0 ? draws.loserRounds : draws.winnerRounds,
      team: seatTeam,
      playTime: draws.duration - d.playTimeCut,
      // rng.int(5, max) from the same share: 5..80 KR for a win, 5..30 otherwise.
      kr: 5 + Math.floor(d.krShare * ((result === 1 ? 80 : 30) - 4)),
      result,
    };
    const step = result === 1 ? d.mmrStep : result === 0 ? -d.mmrStep : 0;
    return { player, participant, mmrChange: own.mmrChange ?? step, shotsPerKill: d.shotsPerKill };
  });
}
