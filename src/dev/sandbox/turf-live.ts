import { Rng, hashSeed } from './prng.ts';
import { HOUR_MS } from './time.ts';

/**
 * Today's turf standings as they stand at the sandbox clock's time: each player plays a map in a window
 * of the UTC day (seeded per day, map and player: starting 0 to 16 hours in, lasting 2 to 8), and their
 * points, kills and deaths grow through it, so positions change over the day and the full day's figures
 * are reached by its end. A player whose window has not begun is absent; so is a clan none of whose
 * players has begun. Finished days are never touched.
 */
interface PlayerDay {
  readonly playerId: number;
  readonly points: number;
  readonly kills: number;
  readonly deaths: number;
}

interface ClanDay<P extends PlayerDay> {
  readonly day: number;
  readonly mapId: number;
  readonly points: number;
  readonly kills: number;
  readonly deaths: number;
  readonly players: readonly P[];
}

/** How much of their day a player has played by `msIntoDay`: 0 before their window, 1 after it. */
export function fractionPlayed(
  seed: number,
  day: number,
  mapId: number,
  playerId: number,
  msIntoDay: number,
): number {
  const rng = new Rng(hashSeed(seed, 'turf-window', day, mapId, playerId));
  // Ends by midnight at the latest (16 h + 8 h), so a day is whole when it is finished.
  const start = rng.int(0, 16 * 60) * 60_000;
  const length = rng.int(2, 8) * HOUR_MS;
  return Math.min(1, Math.max(0, (msIntoDay - start) / length));
}

function sum(players: readonly PlayerDay[], key: 'points' | 'kills' | 'deaths'): number {
  return players.reduce((total, p) => total + p[key], 0);
}

export function liveClanDays<P extends PlayerDay, C extends ClanDay<P>>(
  rows: readonly C[],
  seed: number,
  msIntoDay: number,
): C[] {
  const live: C[] = [];
  for (const row of rows) {
    const players: P[] = [];
    for (const player of row.players) {
      const played = fractionPlayed(seed, row.day, row.mapId, player.playerId, msIntoDay);
      if (played <= 0) continue;
      players.push({
        ...player,
        points: Math.floor(player.points * played),
        kills: Math.floor(player.kills * played),
        deaths: Math.floor(player.deaths * played),
      });
    }
    if (players.length === 0) continue;
    players.sort((a, b) => b.points - a.points || a.playerId - b.playerId);
    live.push({
      ...row,
      players,
      points: sum(players, 'points'),
      kills: sum(players, 'kills'),
      deaths: sum(players, 'deaths'),
    });
  }
  return live;
}
