import { Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from '../../../src/db/migrations.ts';
import { Sqlite3Dialect } from '../../../src/db/sqlite.ts';
import type { AlertTables } from '../../../src/db/migrations/alerts-owner.ts';

/** 2026-11-27-008-alerts-owner on alerts made before it: each keeps the one place it now counts in. */
describe('the alerts-owner migration', () => {
  it('keeps every alert, a DM alert in its user’s places only and a channel alert in its server’s only', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema as it was before the migration
    const db = new Kysely<any>({ dialect: new Sqlite3Dialect({ path: ':memory:', busyTimeoutMs: 1_000 }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('2026-11-24-005-alerts')).error).toBeUndefined();
      const base = {
        user_id: 'u1',
        skin_index: 1,
        skin_name: 'Skin',
        direction: 'below',
        threshold: 100,
        locale: 'en-US',
        status: 'fired',
        fired_count: 1,
        delivered_count: 1,
        fired_at: 5,
        attempts: 0,
        created_at: 1,
      };
      await db
        .insertInto('price_alerts')
        .values([
          { ...base, id: 'dm', guild_id: 'g1', channel_id: null, user_slot: 0, guild_slot: 0 },
          { ...base, id: 'ch', guild_id: 'g1', channel_id: 'c1', user_slot: 1, guild_slot: 1 },
        ])
        .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await (db as unknown as Kysely<AlertTables>)
        .selectFrom('price_alerts')
        .selectAll()
        .orderBy('id')
        .execute();
      expect(
        rows.map((row) => [row.id, row.guild_id, row.user_slot, row.guild_slot, row.status, row.fired_at]),
      ).toEqual([
        ['ch', 'g1', null, 1, 'fired', 5],
        ['dm', 'g1', 0, null, 'fired', 5],
      ]);
      // Null places repeat freely: another DM alert in the same server takes no server place either.
      await db
        .insertInto('price_alerts')
        .values({
          ...base,
          id: 'dm2',
          user_id: 'u2',
          guild_id: 'g1',
          channel_id: null,
          user_slot: 0,
          guild_slot: null,
        })
        .execute();
    } finally {
      await db.destroy();
    }
  });
});
