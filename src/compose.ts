import type { Logger } from 'pino';
import { TierClient } from './api/client.ts';
import type { Clock } from './core/clock.ts';
import type { Config } from './config/index.ts';
import type { Database } from './db/index.ts';
import { captureSnapshots } from './players/capture.ts';
import { Translations } from './i18n/index.ts';
import { createSharedLimits, type SharedLimits } from './traffic/index.ts';
import type { Metrics } from './metrics/index.ts';
import { NameIndex } from './names/index.ts';
import { demandReader } from './demand.ts';
import { dropAccessTokens } from './features/tokens/token-memory.ts';
import type { Services } from './services.ts';
import type { Store } from './store/index.ts';
import { openRecords } from './records.ts';
import { images } from './render/image/images.ts';

export interface ServiceParts {
  readonly config: Config;
  readonly clock: Clock;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly store: Store;
  readonly db: Database;
  /** Limits shared with another role of this process; built here (and closed by `close`) otherwise. */
  readonly limits?: SharedLimits | undefined;
}

export interface ComposedServices {
  readonly services: Services;
  /** The game API's limits the tier client counts in (background budgets take their tickets there). */
  readonly limits: SharedLimits;
  /** Closes the tier client, and the limits when they were built here. The storage stays open. */
  close(): Promise<void>;
}

/**
 * The services every role of the bot is made of (a shard and the worker alike): the game API's limits
 * (shared with the other processes through Redis when REDIS_URL is set), the tier client on them, the
 * records opened once over the database, and the snapshot of every player profile it reads.
 */
export async function composeServices(parts: ServiceParts): Promise<ComposedServices> {
  const { config, clock, log, metrics, store, db } = parts;
  const limits =
    parts.limits ??
    (await createSharedLimits({
      redisUrl: config.redis.url,
      clock,
      log: log.child({ subsystem: 'limits' }),
    }));
  const api = new TierClient({
    urls: { base: config.game.baseUrl, legacy: config.game.legacyUrl, matchmaker: config.game.matchmakerUrl },
    apiKey: config.game.apiKey,
    apiKeyHeader: config.game.apiKeyHeader,
    cache: store.namespace('cache'),
    clock,
    logger: log.child({ subsystem: 'api' }),
    metrics,
    sharedLimits: limits,
  });
  const services: Services = {
    api,
    store,
    db,
    records: openRecords(db, store, config),
    translations: new Translations(),
    names: new NameIndex(store.namespace<string>('names')),
    demand: demandReader(db),
    config,
    clock,
    log,
  };
  const stopCapture = captureSnapshots(services);
  // An image that could not be drawn leaves its reply as text; the log says why.
  const stopImageLog = images().onFailure((error) =>
    log.warn({ err: error, subsystem: 'images' }, 'an image could not be drawn; replied without it'),
  );
  return {
    services,
    limits,
    async close() {
      stopCapture();
      stopImageLog();
      // Player access tokens kept for `/me` live only as long as this process's services.
      dropAccessTokens(services);
      await api.close();
      if (!parts.limits) await limits.close();
    },
  };
}
