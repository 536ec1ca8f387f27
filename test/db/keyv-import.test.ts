import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepositories } from '../../src/announcements/repositories.ts';
import { keyIdOf } from '../../src/config/secret-key.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { KpdFeedState } from '../../src/features/kpd/feed.ts';
import { kpdKeys } from '../../src/features/kpd/keys.ts';
import { accountLinks } from '../../src/players/accounts.ts';
import { openStorage } from '../../src/storage.ts';
import { createStore } from '../../src/store/index.ts';
import { importKeyvRecords } from '../../src/upgrade/keyv-import.ts';
import { postgresDatabase, postgresRequired, postgresUp } from '../support/postgres.ts';

/**
 * Upgrading loses nothing: a store written by release 0.1 (`test/fixtures/keyv-0.1`) moves into the
 * tables on the first start, every record, once; a second start reads nothing again and changes nothing.
 */
const FIXTURE = fileURLToPath(new URL('../fixtures/keyv-0.1/bot.sqlite', import.meta.url));
const SECRET = Buffer.alloc(32, 7);
const log = pino({ level: 'silent' });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'killfeed-upgrade-'));
  copyFileSync(FIXTURE, join(dir, 'bot.sqlite'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function expectEverythingMoved(db: Database, storeUrl: string): Promise<void> {
  const store = await createStore(storeUrl, { purgeIntervalMs: 0 });
  try {
    const repos = openRepositories(db, store);
    const all = await repos.subscriptions.all();
    expect(all.map((s) => s.id)).toEqual(['bsq7hw', 'zyadjt', 'dk9xsq', 'tg8snf']);
    const [legacy, turf, kpd, maps] = all;
    // Made before places existed: given the lowest place not taken in its guild, and a private identity.
    expect(legacy).toMatchObject({
      guildId: '100000000000000001',
      kind: 'maps',
      slot: 0,
      identity: 'legacy:bsq7hw',
    });
    expect(turf).toMatchObject({
      slot: 1,
      identity: 'turf:200000000000000002:nova',
      options: { clan: 'Nova', role: '400000000000000001' },
      locale: 'de',
      state: { status: 'active' },
    });
    expect(kpd).toMatchObject({ guildId: '100000000000000002', kind: 'kpd', slot: 0 });
    expect(maps?.state).toEqual({
      status: 'disabled',
      reason: 'missingAccess',
      code: 50001,
      at: Date.UTC(2026, 10, 1) + 4000,
    });
    expect((await repos.subscriptions.active()).map((s) => s.id)).toEqual(['bsq7hw', 'zyadjt', 'dk9xsq']);

    expect(await repos.cursors.get('types=map.featured,map.unfeatured')).toEqual({
      after: 4711,
      at: Date.UTC(2026, 10, 1) + 5000,
    });
    const pending = await repos.inbox.pending();
    expect(pending.map((p) => [p.event.key, p.attempts])).toEqual([['e:4712', 1]]);
    expect(await repos.inbox.isDone('e:4700')).toBe(true);
    expect(await repos.inbox.quarantined('e:4701')).toMatchObject({ reason: 'send' });
    expect(await repos.deliveries.get('zyadjt:e:4700')).toEqual({
      outcome: 'sent',
      messageId: '500000000000000001',
      at: Date.UTC(2026, 10, 1) + 7000,
    });
    expect(await repos.deliveries.intent('zyadjt:e:4712')).toEqual({ at: Date.UTC(2026, 10, 1) + 6500 });
    expect(await repos.refs.get('zyadjt', 'map:42')).toMatchObject({
      messageId: '500000000000000001',
      eventKey: 'e:4700',
    });
    expect(await repos.turf.get()).toEqual({
      version: 3,
      day: 12,
      owners: { '7': { clanId: 9, clanName: 'Nova' }, '8': null },
    });

    const links = accountLinks({ db });
    expect(await links.get('300000000000000001')).toEqual({
      playerName: 'Sidney',
      linkedAt: Date.UTC(2026, 10, 1) + 100,
    });
    expect(await links.get('300000000000000002')).toMatchObject({ playerName: 'Ωmega_01' });

    // The sealed key still opens with the operator's secret, for its own guild only.
    const keys = kpdKeys({ db, config: { secret: { key: SECRET, keyId: keyIdOf(SECRET) } } });
    const opened = await keys.open('100000000000000002');
    expect(opened.status).toBe('ok');
    if (opened.status === 'ok') {
      expect(opened.apiKey).toBe('kr_fixtureKey12345');
      expect(opened.linkedBy).toBe('300000000000000002');
      opened.forget();
    }
    expect(await new KpdFeedState(db).get('100000000000000002')).toEqual({
      at: Date.UTC(2026, 10, 1) + 8000,
      calls: { '11': [1, null], '12': [2, 3] },
    });
    // What stays in the key-value store stays there.
    expect(await store.namespace('names').get('player:sidney')).toBe('Sidney');
  } finally {
    await store.close();
  }
}

describe('the first start after the upgrade', () => {
  it('moves every record of a release-0.1 store into the SQLite tables, once', async () => {
    const storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
    const config = {
      store: { url: storeUrl },
      database: { url: `sqlite://${join(dir, 'killfeed.sqlite')}` },
    };
    const first = await openStorage(config, { log, now: Date.UTC(2026, 10, 24) });
    await first.close();
    const db = await openDatabase(config.database.url);
    try {
      await expectEverythingMoved(db, storeUrl);
      const marker = await db.kysely
        .selectFrom('meta')
        .select('value')
        .where('key', '=', 'keyv-import')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(marker.value)).toMatchObject({
        imported: { 'announce-subscriptions': 4, links: 2, 'kpd-keys': 1, 'announce-deliveries': 1 },
        skipped: 0,
      });

      // A change made after the upgrade survives the next start: the import does not run again.
      await openRepositories(db, await createStore('memory://', { purgeIntervalMs: 0 })).subscriptions.delete(
        'bsq7hw',
      );
      const store = await createStore(storeUrl, { purgeIntervalMs: 0 });
      expect(await importKeyvRecords({ store, db, log, now: 0 })).toBeUndefined();
      await store.close();
      expect((await openRepositories(db, store).subscriptions.all()).map((s) => s.id)).not.toContain(
        'bsq7hw',
      );
    } finally {
      await db.close();
    }
  });

  it('finishes an import that stopped half-way without duplicating what it had copied', async () => {
    const storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
    const store = await createStore(storeUrl, { purgeIntervalMs: 0 });
    const db = await openDatabase('sqlite://:memory:');
    try {
      await importKeyvRecords({ store, db, log, now: 1 });
      // As if the marker had not been written (the process died just before it).
      await db.kysely.deleteFrom('meta').execute();
      const again = await importKeyvRecords({ store, db, log, now: 2 });
      expect(again?.skipped).toBe(0);
      expect(await db.kysely.selectFrom('subscriptions').select('id').execute()).toHaveLength(4);
      expect(await db.kysely.selectFrom('deliveries').select('event_key').execute()).toHaveLength(1);
      await store.close();
      await expectEverythingMoved(db, storeUrl);
    } finally {
      await db.close();
    }
  });
});

describe.runIf(postgresUp || postgresRequired)('the upgrade onto PostgreSQL', () => {
  it('moves the same records into the PostgreSQL tables', async () => {
    const storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
    const db = await postgresDatabase('upgrade');
    try {
      const store = await createStore(storeUrl, { purgeIntervalMs: 0 });
      await importKeyvRecords({ store, db, log, now: 1 });
      await store.close();
      await expectEverythingMoved(db, storeUrl);
    } finally {
      await db.drop();
    }
  });
});
