import type { Logger } from 'pino';
import type { TierClient } from './api/client.ts';
import type { Config } from './config/index.ts';
import type { Clock } from './core/clock.ts';
import type { NameIndex } from './names/index.ts';
import type { Translations } from './i18n/index.ts';
import type { Store } from './store/index.ts';

/** What the bot is made of, handed to every handler (the composition root builds it once). */
export interface Services {
  readonly api: TierClient;
  readonly store: Store;
  readonly translations: Translations;
  readonly names: NameIndex;
  readonly config: Pick<Config, 'game' | 'secret' | 'events'>;
  readonly clock: Clock;
  readonly log: Logger;
}
