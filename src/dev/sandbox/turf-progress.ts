import { Rng, hashSeed } from './prng.ts';
import { DAY_MS } from './time.ts';
import type { TurfClanDay, TurfPlayerDay } from './turf.ts';

/**
 * Today's turf standings as they grow: each player of a clan's map-day plays a stretch of the UTC day of
 * their own (a start and a length drawn from the seed) and earns their points, kills and deaths evenly over
 * it. A player whose stretch has not begun is not there yet; a clan with nobody there is not on the map
 * yet. So the boards of today move while the sandbox runs (leaders change, clans appear), and at midnight
 * they are exactly the finished day the model gives for any past day.
 */
function stretchOf(seed: number, row: TurfClanDay, player: TurfPlayerDay): { start: number; length: number } {
  const rng = new Rng(hashSeed(seed, 'turf-progress', row.day, row.mapId, player.playerId));
  const start = rng.float(0, 0.7, 4);
  const length = rng.float(0.15, 1 - start, 4);
  return { start, length: Math.max(0.0001, Math.min(length, 1 - start)) };
}

/** The share of a player's day done at `fraction` of the day (0..1). */
function done(stretch: { start: number; length: number }, fraction: number): number {
  return Math.min(1, Math.max(0, (fraction - stretch.start) / stretch.length));
}

/** A day's rows as they stand at `nowMs` of that day (rows of a finished day come back as they are). */
export function rowsSoFar(
  seed: number,
  rows: readonly TurfClanDay[],
  dayStartMs: number,
  nowMs: number,
): TurfClanDay[] {
  const fraction = (nowMs - dayStartMs) / DAY_MS;
  if (fraction >= 1) return [...rows];
  const out: TurfClanDay[] = [];
  for (const row of rows) {
    const players: TurfPlayerDay[] = [];
    for (const player of row.players) {
      const share = done(stretchOf(seed, row, player), fraction);
      if (share <= 0) continue;
      players.push({
        ...player,
        points: Math.floor(player.points * share),
        kills: Math.floor(player.kills * share),
        deaths: Math.floor(player.deaths * share),
      });
    }
    if (players.length === 0) continue;
    players.sort((a, b) => b.points - a.points || a.playerId - b.playerId);
    out.push({
      ...row,
      points: players.reduce((sum, p) => sum + p.points, 0),
      kills: players.reduce((sum, p) => sum + p.kills, 0),
      deaths: players.reduce((sum, p) => sum + p.deaths, 0),
      players,
    });
  }
  return out;
}
