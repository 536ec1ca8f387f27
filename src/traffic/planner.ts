/**
 * One plan for the background's budget: the players feed (tracked players per server, linked players) and
 * the price alerts (watched skins) are planned together here, so that together they never plan more
 * requests a minute than the background can count on (`backgroundCapacity`).
 *
 * The budget is split by owner with weighted max-min fairness (water-filling): every claim gets what it
 * wants when that is less than its fair share, and what those leave is shared again among the rest. Two
 * levels:
 *
 * - The groups: linked players (whose refreshes drive roles) are guaranteed a sixth of the capacity, price
 *   alerts a third, and the servers' own followings half: tracking a third, clan logs a sixth (what one of
 *   the two leaves goes to the other first); a group that wants less leaves the rest to the others.
 * - Within tracking, and within clan logs, every server has an equal share: a server tracking few players
 *   (or following few clans) keeps its target interval, and only the servers that want more than their
 *   share stretch, each by its own factor.
 *
 * A player tracked by several servers is counted in each of them (it is refreshed once, at the shortest of
 * their intervals), so the requests really made are at most the ones planned. A clan several servers
 * follow is shared instead: each counts its part, and the clan is read at the rate those parts pay for
 * ({@link clanIntervalOf}), so the reads made are the ones planned.
 */

/** What the background has to refresh. */
export interface BackgroundDemand {
  /** Tracked players per server (guild id → how many). */
  readonly trackedByServer: ReadonlyMap<string, number>;
  /** Linked players that are not tracked. */
  readonly linked: number;
  /** Skins watched by price alerts. */
  readonly skins: number;
  /**
   * Clans followed by clan logs per server (guild id → how many; `src/features/clans/log`): one roster read
   * per clan and interval, a clan k servers follow counting 1/k in each (see {@link clanIntervalOf}).
   * Absent: none.
   */
  readonly clansByServer?: ReadonlyMap<string, number>;
}

/** How often each would be looked at if the budget were endless, and what one look costs. */
export interface PlanTargets {
  readonly trackedMs: number;
  readonly linkedMs: number;
  readonly alertMs: number;
  /** Requests a tracked player's refresh costs on average (the profile, and sometimes the matches page). */
  readonly requestsPerTrack: number;
  /** How often a followed clan's roster would be read; default {@link CLAN_TARGET_MS}. */
  readonly clanMs?: number;
}

/** A followed clan's roster is read every 5 minutes when the budget allows. */
export const CLAN_TARGET_MS = 5 * 60_000;

export interface BackgroundPlan {
  readonly capacityPerMinute: number;
  /** Each tracking server's interval (ms). */
  readonly trackedMs: ReadonlyMap<string, number>;
  readonly linkedMs: number;
  readonly alertMs: number;
  /** Each clan-following server's interval (ms) between two reads of a clan's roster. */
  readonly clanMs: ReadonlyMap<string, number>;
  /** Requests a minute planned for each part, and in all (never above `capacityPerMinute`). */
  readonly perMinute: {
    readonly tracked: number;
    readonly linked: number;
    readonly alerts: number;
    readonly clans: number;
  };
  readonly totalPerMinute: number;
}

/** The groups' guaranteed parts of the capacity (their weights when what is left is shared again). */
export const GROUP_SHARES = { linked: 1 / 6, alerts: 1 / 3, tracking: 1 / 3, clans: 1 / 6 } as const;

export interface Claim {
  /** Requests a minute wanted. */
  readonly demand: number;
  readonly weight: number;
}

/**
 * Weighted max-min fair shares of `capacity`: each claim gets at most its demand; a claim that wants less
 * than its weighted share leaves the difference to the others. The shares sum to at most `capacity`.
 * Each round settles at least one claim, so it takes at most `claims.length` rounds.
 */
export function waterFill(capacity: number, claims: readonly Claim[]): number[] {
  const given = claims.map(() => 0);
  let open = claims.flatMap((claim, index) =>
    claim.demand > 0 && claim.weight > 0 && Number.isFinite(claim.demand) ? [index] : [],
  );
  let left = Math.max(0, capacity);
  while (open.length > 0 && left > 1e-12) {
    const weights = open.reduce((sum, index) => sum + (claims[index]?.weight ?? 0), 0);
    const satisfied = open.filter((index) => {
      const claim = claims[index];
      return claim !== undefined && claim.demand <= (left * claim.weight) / weights;
    });
    if (satisfied.length === 0) {
      for (const index of open) given[index] = (left * (claims[index]?.weight ?? 0)) / weights;
      return given;
    }
    for (const index of satisfied) {
      const demand = claims[index]?.demand ?? 0;
      given[index] = demand;
      left -= demand;
    }
    open = open.filter((index) => !satisfied.includes(index));
  }
  return given;
}

/** An interval that costs at most `given` requests a minute, `demand` being the cost at `targetMs`. */
function stretched(targetMs: number, demand: number, given: number): number {
  if (demand <= 0) return targetMs;
  return Math.ceil(targetMs * Math.max(1, demand / Math.max(1e-9, given)));
}

/** Requests a minute that `count` looks every `ms` cost, at `cost` requests a look. */
function perMinute(count: number, ms: number, cost = 1): number {
  return (Math.max(0, count) * cost * 60_000) / Math.max(1, ms);
}

/** A group shared by servers: what each server wants at the target, and its stretched interval once given. */
interface PerServer {
  readonly servers: ReadonlyArray<readonly [string, number]>;
  readonly demands: readonly number[];
  readonly total: number;
}

function perServerDemand(byServer: ReadonlyMap<string, number>, targetMs: number, cost: number): PerServer {
  const servers = [...byServer].filter(([, count]) => count > 0);
  const demands = servers.map(([, count]) => perMinute(count, targetMs, cost));
  return { servers, demands, total: demands.reduce((sum, value) => sum + value, 0) };
}

/** Each server's equal share of what its group was given, as an interval; and what they use in all. */
function perServerIntervals(
  group: PerServer,
  given: number,
  targetMs: number,
): { readonly intervals: Map<string, number>; readonly used: number } {
  const shares = waterFill(
    given,
    group.demands.map((value) => ({ demand: value, weight: 1 })),
  );
  const intervals = new Map<string, number>();
  group.servers.forEach(([guildId], index) => {
    intervals.set(guildId, stretched(targetMs, group.demands[index] ?? 0, shares[index] ?? 0));
  });
  return { intervals, used: shares.reduce((sum, value) => sum + value, 0) };
}

/** The plan: every interval the background keeps now, and the requests a minute it plans for each part. */
export function planBackground(
  demand: BackgroundDemand,
  targets: PlanTargets,
  capacityPerMinute: number,
): BackgroundPlan {
  const clanTargetMs = targets.clanMs ?? CLAN_TARGET_MS;
  const tracking = perServerDemand(demand.trackedByServer, targets.trackedMs, targets.requestsPerTrack);
  const clans = perServerDemand(demand.clansByServer ?? new Map<string, number>(), clanTargetMs, 1);
  const wants = {
    linked: perMinute(demand.linked, targets.linkedMs),
    alerts: perMinute(demand.skins, targets.alertMs),
  };
  // The servers' part (tracking and clan logs) is one claim beside linked players and alerts, then split
  // between the two: with no clan followed, tracking keeps its half as before clan logs existed.
  const [linked = 0, alerts = 0, servers = 0] = waterFill(capacityPerMinute, [
    { demand: wants.linked, weight: GROUP_SHARES.linked },
    { demand: wants.alerts, weight: GROUP_SHARES.alerts },
    { demand: tracking.total + clans.total, weight: GROUP_SHARES.tracking + GROUP_SHARES.clans },
  ]);
  const [trackingGiven = 0, clansGiven = 0] = waterFill(servers, [
    { demand: tracking.total, weight: GROUP_SHARES.tracking },
    { demand: clans.total, weight: GROUP_SHARES.clans },
  ]);
  const tracked = perServerIntervals(tracking, trackingGiven, targets.trackedMs);
  const followed = perServerIntervals(clans, clansGiven, clanTargetMs);
  return {
    capacityPerMinute,
    trackedMs: tracked.intervals,
    linkedMs: stretched(targets.linkedMs, wants.linked, linked),
    alertMs: stretched(targets.alertMs, wants.alerts, alerts),
    clanMs: followed.intervals,
    perMinute: { tracked: tracked.used, linked, alerts, clans: followed.used },
    totalPerMinute: tracked.used + linked + alerts + followed.used,
  };
}

/** A server's planned interval: its own when it tracks players, the target otherwise. */
export function trackedIntervalOf(plan: BackgroundPlan, guildId: string, targetMs: number): number {
  return plan.trackedMs.get(guildId) ?? targetMs;
}

/**
 * How often a clan followed by these servers is read. Each of them pays its part of the one read (the
 * demand counts the clan as 1/k in each of its k servers), at its own interval: the clan is read as often
 * as those parts together pay for, the harmonic mean of their intervals. So the reads made are exactly
 * the ones planned, and a server that stretches does not make a clan it shares wait as long as its own.
 */
export function clanIntervalOf(plan: BackgroundPlan, guildIds: Iterable<string>, targetMs: number): number {
  let owners = 0;
  let rate = 0;
  for (const guildId of guildIds) {
    owners += 1;
    rate += 1 / Math.max(1, plan.clanMs.get(guildId) ?? targetMs);
  }
  return owners === 0 ? targetMs : Math.ceil(owners / rate);
}
