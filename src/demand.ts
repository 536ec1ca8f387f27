import type { Database } from './db/index.ts';
import { AlertRepository } from './features/alerts/store.ts';
import { clansByServer } from './features/clans/log/followed.ts';
import { trackedPlayers } from './players/follow-plan.ts';
import { FollowedPlayers } from './players/followed.ts';
import type { DemandReader } from './traffic/capacity.ts';

/**
 * What the background has to refresh now: the tracked players of the (active) subscriptions per server,
 * the other followed players (linked ones), the skins price alerts watch, and the clans clan logs follow
 * per server. The one place that knows
 * every feature that polls: features are handed this reader and never read each other's tables.
 */
export function demandReader(db: Database): DemandReader {
  const followedPlayers = new FollowedPlayers(db);
  const alerts = new AlertRepository(db);
  return async (subscriptions) => {
    const tracked = trackedPlayers(subscriptions);
    const trackedByServer = new Map<string, number>();
    for (const entry of tracked.values())
      for (const owner of entry.owners) trackedByServer.set(owner, (trackedByServer.get(owner) ?? 0) + 1);
    const followed = await followedPlayers.count();
    const skins = (await alerts.watchedSkins()).length;
    return {
      trackedByServer,
      linked: Math.max(0, followed - tracked.size),
      skins,
      clansByServer: clansByServer(subscriptions),
    };
  };
}
