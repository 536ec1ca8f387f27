import pino from 'pino';
import type { TierClient } from '../../src/api/client.ts';
import { Inbox } from '../../src/announcements/inbox.ts';
import { KindRegistry } from '../../src/announcements/kinds/registry.ts';
import type { Repositories } from '../../src/announcements/repositories.ts';
import type { Clock } from '../../src/core/clock.ts';
import type { Database } from '../../src/db/index.ts';
import { demandReader } from '../../src/demand.ts';
import { PlayersFeed, type FollowSettings } from '../../src/features/tracking/feed.ts';
import { ANNOUNCEMENT_KINDS } from '../../src/kinds.ts';
import type { RefreshHook } from '../../src/players/followed.ts';
import { BackgroundScheduler } from '../../src/traffic/scheduler.ts';

/** The intervals most players-feed tests use: tracked players every 5 minutes, linked ones every day. */
export const FEED_SETTINGS: FollowSettings = { trackMinutes: 5, linkedHours: 24 };

export interface TestFeedOptions {
  api: TierClient;
  db: Database;
  repos: Repositories;
  clock: Clock;
  /** What the background may count on per minute; 40 unless a test is about the budget. */
  capacityPerMinute?: number;
  settings?: FollowSettings;
  onRefreshed?: RefreshHook;
}

/** The players feed as the worker builds it, over the test's database, records and manual clock. */
export function playersFeedFor(options: TestFeedOptions): PlayersFeed {
  const kinds = new KindRegistry(ANNOUNCEMENT_KINDS);
  return new PlayersFeed({
    api: options.api,
    inbox: new Inbox(options.repos.inbox, kinds),
    repos: options.repos,
    clock: options.clock,
    log: pino({ level: 'silent' }),
    kinds,
    scheduler: new BackgroundScheduler(),
    db: options.db,
    demand: demandReader(options.db),
    enabled: true,
    capacityPerMinute: options.capacityPerMinute ?? 40,
    settings: options.settings ?? FEED_SETTINGS,
    onRefreshed: options.onRefreshed,
  });
}
