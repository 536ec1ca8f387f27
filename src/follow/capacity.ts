import type { Config } from '../config/index.ts';
import { backgroundCapacity } from '../schedule/scheduler.ts';

/** The key's window, as the tier client counts it (60 a minute, 10 kept for commands). */
export const KEY_WINDOW = { limit: 60, reserve: 10, windowMs: 60_000 } as const;
/** The events feed's own budget a minute (it is polled only with an API key). */
const EVENTS_PER_MINUTE = 6;

/**
 * Requests a minute the players feed can count on: the key's window less the commands' reserve, less what
 * the events feed and the turf poll take at most.
 */
export function followCapacity(config: Pick<Config, 'game' | 'events'>): number {
  const feeds = (config.game.apiKey === undefined ? 0 : EVENTS_PER_MINUTE) + 60 / config.events.pollSeconds;
  return backgroundCapacity({ ...KEY_WINDOW, feedsPerMinute: feeds });
}
