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
 *   alerts a third, tracking half; a group that wants less leaves the rest to the others.
 * - Within tracking, every server has an equal share: a server tracking few players keeps its target
 *   interval, and only the servers that want more than their share stretch, each by its own factor.
 *
 * A player tracked by several servers is counted in each of them (it is refreshed once, at the shortest of
 * their intervals), so the requests really made are at most the ones planned.
 */

/** What the background has to refresh. */
export interface BackgroundDemand {
  /** Tracked players per server (guild id → how many). */
  readonly trackedByServer: ReadonlyMap<string, number>;
  /** Linked players that are not tracked. */
  readonly linked: number;
  /** Skins watched by price alerts. */
  readonly skins: number;
}

/** How often each would be looked at if the budget were endless, and what one look costs. */
export interface PlanTargets {
  readonly trackedMs: number;
  readonly linkedMs: number;
  readonly alertMs: number;
  /** Requests a tracked player's refresh costs on average (the profile, and sometimes the matches page). */
  readonly requestsPerTrack: number;
}

export interface BackgroundPlan {
  readonly capacityPerMinute: number;
  /** Each tracking server's interval (ms). */
  readonly trackedMs: ReadonlyMap<string, number>;
  readonly linkedMs: number;
  readonly alertMs: number;
  /** Requests a minute planned for each part, and in all (never above `capacityPerMinute`). */
  readonly perMinute: { readonly tracked: number; readonly linked: number; readonly alerts: number };
  readonly totalPerMinute: number;
}

/** The groups' guaranteed parts of the capacity (their weights when what is left is shared again). */
export const GROUP_SHARES = { linked: 1 / 6, alerts: 1 / 3, tracking: 1 / 2 } as const;

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

/** The plan: every interval the background keeps now, and the requests a minute it plans for each part. */
export function planBackground(
  demand: BackgroundDemand,
  targets: PlanTargets,
  capacityPerMinute: number,
): BackgroundPlan {
  const perMinute = (count: number, ms: number, cost = 1) =>
    (Math.max(0, count) * cost * 60_000) / Math.max(1, ms);
  const servers = [...demand.trackedByServer].filter(([, count]) => count > 0);
  const serverDemands = servers.map(([, count]) =>
    perMinute(count, targets.trackedMs, targets.requestsPerTrack),
  );
  const wants = {
    linked: perMinute(demand.linked, targets.linkedMs),
    alerts: perMinute(demand.skins, targets.alertMs),
    tracking: serverDemands.reduce((sum, value) => sum + value, 0),
  };
  const [linked = 0, alerts = 0, tracking = 0] = waterFill(capacityPerMinute, [
    { demand: wants.linked, weight: GROUP_SHARES.linked },
    { demand: wants.alerts, weight: GROUP_SHARES.alerts },
    { demand: wants.tracking, weight: GROUP_SHARES.tracking },
  ]);
  const perServer = waterFill(
    tracking,
    serverDemands.map((value) => ({ demand: value, weight: 1 })),
  );
  const trackedMs = new Map<string, number>();
  servers.forEach(([guildId], index) => {
    trackedMs.set(guildId, stretched(targets.trackedMs, serverDemands[index] ?? 0, perServer[index] ?? 0));
  });
  const trackedPerMinute = perServer.reduce((sum, value) => sum + value, 0);
  return {
    capacityPerMinute,
    trackedMs,
    linkedMs: stretched(targets.linkedMs, wants.linked, linked),
    alertMs: stretched(targets.alertMs, wants.alerts, alerts),
    perMinute: { tracked: trackedPerMinute, linked, alerts },
    totalPerMinute: trackedPerMinute + linked + alerts,
  };
}

/** A server's planned interval: its own when it tracks players, the target otherwise. */
export function trackedIntervalOf(plan: BackgroundPlan, guildId: string, targetMs: number): number {
  return plan.trackedMs.get(guildId) ?? targetMs;
}
