import type { Logger } from 'pino';
import type { TierClient } from './api/client.ts';
import type { Config } from './config/index.ts';
import type { Database } from './db/index.ts';
import type { Clock } from './core/clock.ts';
import type { NameIndex } from './names/index.ts';
import type { Translations } from './i18n/index.ts';
import type { Store } from './store/index.ts';
import type { DemandReader } from './traffic/capacity.ts';

/** What the bot is made of, handed to every handler (the composition root builds it once). */
export interface Services {
  readonly api: TierClient;
  /** Key-value storage: the reply cache, autocomplete names, short leases and claims. */
  readonly store: Store;
  /** The SQL tables of the domain records. */
  readonly db: Database;
  readonly translations: Translations;
  readonly names: NameIndex;
  readonly config: Pick<Config, 'game' | 'secret' | 'events' | 'follow' | 'alerts'>;
  readonly clock: Clock;
  readonly log: Logger;
  /** What the background has to refresh now, read across the features that poll (`src/demand.ts`). */
  readonly demand: DemandReader;
}
