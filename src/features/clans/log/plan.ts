import type { Config } from '../../../config/index.ts';
import type { Records } from '../../../services.ts';
import type { Subscription } from '../../../announcements/model.ts';
import { followCapacity, type DemandReader } from '../../../traffic/capacity.ts';
import { TRACK_KIND, backgroundPlan } from '../../../players/follow-plan.ts';
import { CLAN_TARGET_MS, clanIntervalOf, type BackgroundPlan } from '../../../traffic/planner.ts';
import { followedClans } from './followed.ts';
import { CLAN_LOG_KIND, clanOf } from './model.ts';

export { CLAN_TARGET_MS } from '../../../traffic/planner.ts';

/** What the clan log needs of the configuration to plan (the background's capacity and its other parts). */
export type PlanConfig = Pick<Config, 'game' | 'events' | 'follow'>;

/** The background's one plan for these (active) subscriptions, as the worker makes it. */
export async function planFor(
  demand: DemandReader,
  subscriptions: readonly Subscription[],
  config: PlanConfig,
): Promise<BackgroundPlan> {
  return backgroundPlan(await demand(subscriptions), {
    settings: config.follow,
    capacityPerMinute: followCapacity(config),
  });
}

/** How often each followed clan's roster is read in this plan (the shortest of its servers' intervals). */
export function clanIntervals(
  plan: BackgroundPlan,
  subscriptions: readonly Subscription[],
): Map<number, number> {
  const intervals = new Map<number, number>();
  for (const clan of followedClans(subscriptions).values())
    intervals.set(clan.clanId, clanIntervalOf(plan, clan.owners, CLAN_TARGET_MS));
  return intervals;
}

/** What `/subscriptions` says of a clan log: the interval planned now, and the one really kept. */
export interface ClanLogStatus {
  readonly plannedMs: number;
  /** The time between the last two reads of the clan. */
  readonly keptMs?: number;
  /** When the clan was last read. */
  readonly readAt?: number;
}

/**
 * The status of these clan-log subscriptions (of one server), by subscription id, from the plan the worker
 * makes now (every active subscription of the kinds that weigh on it) and the reads stored.
 */
export async function clanLogStatus(
  records: Pick<Records, 'announcements' | 'clanRosters'>,
  demand: DemandReader,
  config: PlanConfig,
  subscriptions: readonly Subscription[],
): Promise<Map<string, ClanLogStatus>> {
  const mine = subscriptions.filter((s) => s.kind === CLAN_LOG_KIND);
  const out = new Map<string, ClanLogStatus>();
  if (mine.length === 0) return out;
  const repository = records.announcements.subscriptions;
  const active = [...(await repository.active(TRACK_KIND)), ...(await repository.active(CLAN_LOG_KIND))];
  const intervals = clanIntervals(await planFor(demand, active, config), active);
  const clanIds = mine.flatMap((s) => clanOf(s)?.clanId ?? []);
  const stored = await records.clanRosters.many(clanIds);
  for (const subscription of mine) {
    const clanId = clanOf(subscription)?.clanId;
    if (clanId === undefined) continue;
    const row = stored.get(clanId);
    out.set(subscription.id, {
      plannedMs: intervals.get(clanId) ?? CLAN_TARGET_MS,
      ...(row?.gapMs === undefined ? {} : { keptMs: row.gapMs }),
      ...(row === undefined ? {} : { readAt: row.polledAt }),
    });
  }
  return out;
}
