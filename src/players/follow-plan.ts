import { nameKey } from './snapshots.ts';
import type { FollowedPlayer } from './followed.ts';
import { ALERT_TARGET_MS, type PlannedSubscription } from '../traffic/capacity.ts';
import { planBackground, type BackgroundDemand, type BackgroundPlan } from '../traffic/planner.ts';

/** The subscription kind whose subscriptions name the tracked players (`kinds/track.ts`). */
export const TRACK_KIND = 'track';

/**
 * Requests a refresh costs on average: the profile, and the matches page when it shows new ranked matches
 * (the tracking benchmark measured 1.46 with players playing every 30 to 90 minutes).
 */
export const REQUESTS_PER_REFRESH = 1.5;

export interface FollowSettings {
  readonly trackMinutes: number;
  readonly linkedHours: number;
}

export interface Tracked {
  readonly name: string;
  readonly owners: Set<string>;
}

/** Tracked players of these subscriptions, by lower-case name, with the servers tracking each. */
export function trackedPlayers(subscriptions: readonly PlannedSubscription[]): Map<string, Tracked> {
  const tracked = new Map<string, Tracked>();
  for (const subscription of subscriptions) {
    if (subscription.kind !== TRACK_KIND || subscription.state.status !== 'active') continue;
    const name = subscription.options.playerName;
    if (typeof name !== 'string' || name === '') continue;
    const entry = tracked.get(nameKey(name)) ?? { name, owners: new Set<string>() };
    entry.owners.add(subscription.guildId);
    tracked.set(nameKey(name), entry);
  }
  return tracked;
}

export interface Task {
  readonly player: FollowedPlayer;
  readonly owners: readonly string[];
  readonly tracked: boolean;
}

/**
 * Tasks in a fair order: one of each owner in turn (owners in the order of their longest-waiting task),
 * each owner's own tasks longest-waiting first; a task of several owners is done once, at its first turn.
 */
export function fairOrder(tasks: readonly Task[]): Task[] {
  const waited = (task: Task) => task.player.refreshedAt ?? -Infinity;
  const byOwner = new Map<string, Task[]>();
  for (const task of [...tasks].sort((a, b) => waited(a) - waited(b))) {
    for (const owner of task.owners) {
      const queue = byOwner.get(owner) ?? [];
      queue.push(task);
      byOwner.set(owner, queue);
    }
  }
  const ordered: Task[] = [];
  const taken = new Set<string>();
  const cursors = new Map<string, number>();
  // Each round gives every owner one task; every round takes at least one, so this ends.
  while (ordered.length < tasks.length) {
    let progressed = false;
    for (const [owner, queue] of byOwner) {
      let at = cursors.get(owner) ?? 0;
      while (at < queue.length && taken.has(queue[at]?.player.key ?? '')) at += 1;
      const task = queue[at];
      cursors.set(owner, at + 1);
      if (!task) continue;
      taken.add(task.player.key);
      ordered.push(task);
      progressed = true;
    }
    if (!progressed) break;
  }
  return ordered;
}

export interface PlanOptions {
  readonly settings: FollowSettings;
  /** What the background may count on per minute (`followCapacity`). */
  readonly capacityPerMinute: number;
  readonly alertTargetMs?: number | undefined;
}

/**
 * The background's plan for what it has to refresh now: the one the players feed, the price alerts and
 * `/track list` all use (`src/traffic/planner.ts`).
 */
export function backgroundPlan(demand: BackgroundDemand, options: PlanOptions): BackgroundPlan {
  return planBackground(demand, planTargets(options), options.capacityPerMinute);
}

/** The targets of the plan, from the settings. */
export function planTargets(options: Omit<PlanOptions, 'capacityPerMinute'>) {
  return {
    trackedMs: options.settings.trackMinutes * 60_000,
    linkedMs: options.settings.linkedHours * 3_600_000,
    alertMs: options.alertTargetMs ?? ALERT_TARGET_MS,
    requestsPerTrack: REQUESTS_PER_REFRESH,
  };
}
