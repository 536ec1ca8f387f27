import type { Config } from '../config/index.ts';
import { backgroundCapacity } from './scheduler.ts';
import type { BackgroundDemand } from './planner.ts';

/** The key's window, as the tier client counts it (60 a minute, 10 kept for commands). */
export const KEY_WINDOW = { limit: 60, reserve: 10, windowMs: 60_000 } as const;
/** The events feed's own budget a minute (it is polled only with an API key). */
const EVENTS_PER_MINUTE = 6;
/** How often a watched skin is looked at, at most; stretched when the budget is short. */
export const ALERT_TARGET_MS = 2 * 60_000;

/**
 * The reads of the daily digest and of the turf reminders (`src/features/turf-digest`,
 * `src/features/reminders`): one budget the two share, counted in the shared limits, which
 * `followCapacity` subtracts from what the players feed, the price alerts and the clan logs plan.
 */
export const TURF_CLAN_READS = { limit: 6, windowMs: 60_000 } as const;
const TURF_CLAN_READS_PER_MINUTE = (TURF_CLAN_READS.limit * 60_000) / TURF_CLAN_READS.windowMs;

/**
 * The reads of the published names (the map and mod browsers, the clan boards: `src/search/catalog.ts`):
 * a budget of their own, one read a minute and the room for its retry, which `followCapacity` subtracts.
 */
export const NAME_CATALOG_READS = { limit: 2, windowMs: 60_000 } as const;
const NAME_CATALOG_READS_PER_MINUTE = (NAME_CATALOG_READS.limit * 60_000) / NAME_CATALOG_READS.windowMs;

/**
 * Requests a minute the background can count on (the players feed and the price alerts together): the
 * key's window less the commands' reserve, less what the events feed, the turf poll, the turf clan reads
 * and the published names' reads take at most.
 */
export function followCapacity(config: Pick<Config, 'game' | 'events'>): number {
  const feeds =
    (config.game.apiKey === undefined ? 0 : EVENTS_PER_MINUTE) +
    60 / config.events.pollSeconds +
    TURF_CLAN_READS_PER_MINUTE +
    NAME_CATALOG_READS_PER_MINUTE;
  return backgroundCapacity({ ...KEY_WINDOW, feedsPerMinute: feeds });
}

/**
 * Reads what the background has to refresh now, for these (active) subscriptions. Built at the composition
 * root (`src/demand.ts`), which alone knows every feature that polls, and handed to each that plans.
 */
export type DemandReader = (subscriptions: readonly PlannedSubscription[]) => Promise<BackgroundDemand>;

/** What the plan reads of a subscription (a tracked player's is `kind: 'track'`, its name in the options). */
export interface PlannedSubscription {
  readonly kind: string;
  readonly guildId: string;
  readonly options: Readonly<Record<string, string | number>>;
  readonly state: { readonly status: string };
}
