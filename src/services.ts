import type { Logger } from 'pino';
import type { TierClient } from './api/client.ts';
import type { Config } from './config/index.ts';
import type { Database } from './db/index.ts';
import type { Clock } from './core/clock.ts';
import type { NameIndex } from './names/index.ts';
import type { Translations } from './i18n/index.ts';
import type { Store } from './store/index.ts';
import type { DemandReader } from './traffic/capacity.ts';

/**
 * The records every part reads and writes (the SQL repositories), opened once by the composition root
 * (`openRecords` in `src/records.ts`) and handed to every handler here, rather than built in call paths.
 * This layer names none of them: each layer above adds its own records to this interface where it
 * defines them (`declare module '../services.ts'`, as `src/announcements/repositories.ts` does), so the
 * arrows keep pointing down and a missing record is a type error at the root.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the layers above
export interface Records {}

/** What the bot is made of, handed to every handler (the composition root builds it once). */
export interface Services {
  readonly api: TierClient;
  /** Key-value storage: the reply cache, autocomplete names, short leases and claims. */
  readonly store: Store;
  /** The SQL tables of the domain records. */
  readonly db: Database;
  /** The repositories over those tables, opened once (see {@link Records}). */
  readonly records: Records;
  readonly translations: Translations;
  readonly names: NameIndex;
  readonly config: Pick<Config, 'game' | 'secret' | 'events' | 'follow' | 'alerts'>;
  readonly clock: Clock;
  readonly log: Logger;
  /** What the background has to refresh now, read across the features that poll (`src/demand.ts`). */
  readonly demand: DemandReader;
}
