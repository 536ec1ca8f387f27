import type { PlayerMatch } from '../../api/schemas/index.ts';
import { isSaneTime } from '../../announcements/model.ts';
import { nameKey, type SnapshotStore } from '../../players/snapshots.ts';
import type { Snapshot } from '../../players/stats.ts';

/** A change larger than this between two readings is no single match's (a reset, a bad reading): none. */
const MAX_CHANGE = 1_000;

function matchTime(match: PlayerMatch, now: number): number | undefined {
  const at = match.date === undefined ? Number.NaN : Date.parse(match.date);
  return isSaneTime(at, now) ? at : undefined;
}

function standing(snapshot: Snapshot, region: number) {
  return snapshot.stats.ranked.find((kept) => kept.region === region);
}

/**
 * The MMR each match changed, by match id, where the snapshots kept tell it: the API's match rows carry no
 * MMR. A match's change is known when a reading of its region before it and one after it are exactly one
 * ranked match of that region apart (wins plus losses up by one): the difference of their MMR is that
 * match's. Elsewhere (no reading on one side, or several matches between) the match has none.
 */
export function mmrChanges(
  matches: readonly PlayerMatch[],
  history: readonly Snapshot[],
  now: number,
): Map<string, number> {
  const changes = new Map<string, number>();
  const sorted = [...history].sort((a, b) => a.at - b.at);
  for (const match of matches) {
    const at = matchTime(match, now);
    if (at === undefined || match.region === undefined) continue;
    const region = match.region;
    const readings = sorted.flatMap((point) => {
      const kept = standing(point, region);
      return kept ? [{ at: point.at, ...kept }] : [];
    });
    const was = readings.filter((reading) => reading.at < at).at(-1);
    const is = readings.find((reading) => reading.at > at);
    if (!was || !is) continue;
    if (is.wins + is.losses - (was.wins + was.losses) !== 1) continue;
    const change = is.mmr - was.mmr;
    if (Number.isSafeInteger(change) && Math.abs(change) <= MAX_CHANGE) changes.set(match.match_id, change);
  }
  return changes;
}

/** The snapshots that can tell the MMR change of these matches of `playerName` (none kept: an empty map). */
export async function readMmrChanges(
  snapshots: Pick<SnapshotStore, 'latestByNames' | 'history'>,
  playerName: string,
  matches: readonly PlayerMatch[],
  now: number,
): Promise<Map<string, number>> {
  const times = matches.flatMap((match) => matchTime(match, now) ?? []);
  if (times.length === 0) return new Map();
  const known = (await snapshots.latestByNames([playerName])).get(nameKey(playerName));
  if (!known) return new Map();
  return mmrChanges(matches, await snapshots.history(known.playerId, Math.min(...times) - 86_400_000), now);
}
