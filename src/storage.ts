import type { Logger } from 'pino';
import type { Config } from './config/index.ts';
import { openDatabase, type Database } from './db/index.ts';
import { createStore, type Store } from './store/index.ts';
import { importKeyvRecords } from './upgrade/keyv-import.ts';

/**
 * Both kinds of storage a process needs, opened together: the key-value store (cache, names, leases) and
 * the SQL database (domain records), with the schema brought up to date and release 0.1's records moved
 * into the tables on the first start. What is handed in (tests share one) is left open on close.
 */
export interface Storage {
  readonly store: Store;
  readonly db: Database;
  close(): Promise<void>;
}

export interface StorageOptions {
  readonly store?: Store;
  readonly database?: Database;
  readonly log: Logger;
  readonly now: number;
}

export async function openStorage(
  config: Pick<Config, 'store' | 'database'>,
  options: StorageOptions,
): Promise<Storage> {
  const store = options.store ?? (await createStore(config.store.url));
  let db: Database;
  try {
    db = options.database ?? (await openDatabase(config.database.url));
  } catch (error) {
    if (!options.store) await store.close();
    throw error;
  }
  const close = async () => {
    if (!options.database) await db.close();
    if (!options.store) await store.close();
  };
  try {
    await importKeyvRecords({ store, db, log: options.log, now: options.now });
  } catch (error) {
    await close();
    throw error;
  }
  return { store, db, close };
}
