import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { accountLinks } from '../../src/players/accounts.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { importKeyvRecords } from '../../src/upgrade/keyv-import.ts';

/**
 * The move of release 0.1's records from the key-value store into the tables (a whole 0.1 store, on
 * SQLite and PostgreSQL, is in test/db/keyv-import.test.ts): what does not parse, and the once-only marker.
 */
let store: Store;
let db: Database;
const log = pino({ level: 'silent' });

beforeEach(async () => {
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  db = await openDatabase('sqlite://:memory:');
});
afterEach(async () => {
  await db.close();
  await store.close();
});

describe('the release 0.1 import', () => {
  it('copies what parses, counts and skips what does not, and leaves the old entries in place', async () => {
    const links = store.namespace('links');
    await links.set('100', { playerName: 'Alice', linkedAt: 5 });
    await links.set('101', { playerName: '', linkedAt: 5 });
    await links.set('102', 'not a link');
    const report = await importKeyvRecords({ store, db, log, now: 1_000 });
    expect(report?.imported['links']).toBe(1);
    expect(report?.skipped).toBe(2);
    expect(await accountLinks({ db }).get('100')).toMatchObject({ playerName: 'Alice', linkedAt: 5 });
    expect(await accountLinks({ db }).get('101')).toBeUndefined();
    expect(await links.get('100')).toEqual({ playerName: 'Alice', linkedAt: 5 });
  });

  it('runs once: a record added to the old store afterwards is not read again', async () => {
    expect(await importKeyvRecords({ store, db, log, now: 1_000 })).toBeDefined();
    await store.namespace('links').set('200', { playerName: 'Late', linkedAt: 7 });
    expect(await importKeyvRecords({ store, db, log, now: 2_000 })).toBeUndefined();
    expect(await accountLinks({ db }).get('200')).toBeUndefined();
  });
});
