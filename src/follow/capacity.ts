import type { Config } from '../config/index.ts';
import type { Database } from '../db/index.ts';
import type { Subscription } from '../announcements/model.ts';
import { AlertRepository } from '../alerts/store.ts';
import { FollowedPlayers } from '../history/followed.ts';
import { backgroundCapacity } from '../schedule/scheduler.ts';
import { planBackground, type BackgroundDemand, type BackgroundPlan } from '../schedule/planner.ts';
import { REQUESTS_PER_REFRESH, trackedPlayers, type FollowSettings } from './plan.ts';
import { TURF_CLAN_READS } from '../features/turf-digest/reads.ts';

/** The key's window, as the tier client counts it (60 a minute, 10 kept for commands). */
export const KEY_WINDOW = { limit: 60, reserve: 10, windowMs: 60_000 } as const;
/** The events feed's own budget a minute (it is polled only with an API key). */
const EVENTS_PER_MINUTE = 6;
/** How often a watched skin is looked at, at most; stretched when the budget is short. */
export const ALERT_TARGET_MS = 2 * 60_000;

/** What the daily digest and the turf reminders read a minute at most (their shared budget). */
const TURF_CLAN_READS_PER_MINUTE = (TURF_CLAN_READS.limit * 60_000) / TURF_CLAN_READS.windowMs;

/**
 * Requests a minute the background can count on (the players feed and the price alerts together): the
 * key's window less the commands' reserve, less what the events feed, the turf poll and the turf clan
 * reads (digest and reminders) take at most.
 */
export function followCapacity(config: Pick<Config, 'game' | 'events'>): number {
  const feeds =
    (config.game.apiKey === undefined ? 0 : EVENTS_PER_MINUTE) +
    60 / config.events.pollSeconds +
    TURF_CLAN_READS_PER_MINUTE;
  return backgroundCapacity({ ...KEY_WINDOW, feedsPerMinute: feeds });
}

/**
 * What the background has to refresh now: the tracked players of these (active) subscriptions per server,
 * the other followed players (linked ones), and the skins price alerts watch.
 */
export async function backgroundDemand(
  db: Database,
  subscriptions: readonly Subscription[],
): Promise<BackgroundDemand> {
  const tracked = trackedPlayers(subscriptions);
  const trackedByServer = new Map<string, number>();
  for (const entry of tracked.values())
    for (const owner of entry.owners) trackedByServer.set(owner, (trackedByServer.get(owner) ?? 0) + 1);
  const followed = await new FollowedPlayers(db).count();
  const skins = (await new AlertRepository(db).watchedSkins()).length;
  return { trackedByServer, linked: Math.max(0, followed - tracked.size), skins };
}

export interface PlanOptions {
  readonly settings: FollowSettings;
  /** What the background may count on per minute (`followCapacity`). */
  readonly capacityPerMinute: number;
  readonly alertTargetMs?: number | undefined;
}

/**
 * The background's plan now, read from the store: the one the players feed, the price alerts and `/track
 * list` all use (`src/schedule/planner.ts`).
 */
export async function backgroundPlan(
  db: Database,
  subscriptions: readonly Subscription[],
  options: PlanOptions,
): Promise<BackgroundPlan> {
  return planBackground(
    await backgroundDemand(db, subscriptions),
    planTargets(options),
    options.capacityPerMinute,
  );
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
