import type { PlannedSubscription } from '../../../traffic/capacity.ts';
import { CLAN_LOG_KIND, clanOf, wantsClanStats } from './model.ts';

/** A clan some active clan-log subscriptions follow: read once for all of them. */
export interface FollowedClan {
  readonly clanId: number;
  readonly clanName: string;
  /** The servers following it (each counts it in its share of the budget). */
  readonly owners: ReadonlySet<string>;
  /** Whether one of them announces the clan's rank (which costs the clan leaderboard's read). */
  readonly wantsRank: boolean;
}

/**
 * The owner in the planner's demand that stands for the clan leaderboard: read once per interval for every
 * clan whose rank a subscription announces.
 */
export const RANK_BOARD_OWNER = 'clan-log:rank-board';

/** The clans followed by these subscriptions (active clan-log ones only), once each. */
export function followedClans(subscriptions: readonly PlannedSubscription[]): Map<number, FollowedClan> {
  const clans = new Map<number, { clanName: string; owners: Set<string>; wantsRank: boolean }>();
  for (const subscription of subscriptions) {
    if (subscription.kind !== CLAN_LOG_KIND || subscription.state.status !== 'active') continue;
    const clan = clanOf(subscription);
    if (!clan) continue;
    const entry = clans.get(clan.clanId) ?? { clanName: clan.clanName, owners: new Set(), wantsRank: false };
    entry.owners.add(subscription.guildId);
    entry.wantsRank ||= wantsClanStats(subscription);
    clans.set(clan.clanId, entry);
  }
  return new Map([...clans].map(([clanId, entry]) => [clanId, { clanId, ...entry }]));
}

/**
 * Followed clans per server, for the background's plan: a clan k servers follow is read once for all of
 * them, so it counts 1/k in each (`clanIntervalOf` in `src/schedule/planner.ts` reads it at the rate those
 * parts pay for); the clan leaderboard counts as one more clan when a rank is announced.
 */
export function clansByServer(subscriptions: readonly PlannedSubscription[]): Map<string, number> {
  const counts = new Map<string, number>();
  let rank = false;
  for (const clan of followedClans(subscriptions).values()) {
    const part = 1 / clan.owners.size;
    for (const owner of clan.owners) counts.set(owner, (counts.get(owner) ?? 0) + part);
    rank ||= clan.wantsRank;
  }
  if (rank) counts.set(RANK_BOARD_OWNER, 1);
  return counts;
}
