import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { POSTGRES_URL, postgresDatabase, postgresRequired, postgresUp } from '../support/postgres.ts';

/**
 * A database opens (and migrates) while other schemas of the same server are dropped: the migrator's
 * question "do my tables exist?" reads the bot's own schema only. Kysely's own introspector read every
 * schema and failed with 3F000 when one vanished mid-query, which failed CI runs at random. Three
 * processes opening the same new schema at once all open it (creating a schema is not atomic).
 */
describe.runIf(postgresUp || postgresRequired)('a PostgreSQL schema of its own', () => {
  it('opens while 6 other schemas are dropped at the same time, and sees only its own tables', async () => {
    const others = await Promise.all(Array.from({ length: 6 }, (_, i) => postgresDatabase(`other${i}`, 1)));
    const mine = `t_iso_${Date.now().toString(36)}`;
    const dropping = Promise.all(others.map((other) => other.drop()));
    const opened = await Promise.all(
      Array.from({ length: 3 }, () =>
        // The three wait on each other's migration lock (a loaded machine may take longer than the 5 s a
        // query may), with the migrations' own timeout.
        openDatabase(POSTGRES_URL, { schema: mine, poolSize: 1 }),
      ),
    );
    await dropping;
    try {
      const tables = await opened[0]!.kysely.introspection.getTables();
      expect(tables.length).toBeGreaterThan(5);
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([mine]));
      const links = tables.find((table) => table.name === 'account_links');
      expect(links?.columns.map((column) => column.name)).toContain('player_id');
    } finally {
      await sql`drop schema if exists ${sql.id(mine)} cascade`.execute(opened[0]!.kysely);
      await Promise.all(opened.map((db) => db.close()));
    }
  }, 60_000);

  it('migrates under a lock of its schema: another schema migrating, or Kysely’s database-wide lock held, does not hold it up', async () => {
    const holder = await postgresDatabase('holder', 1);
    const mine = `t_lock_${Date.now().toString(36)}`;
    let opened: Database | undefined;
    try {
      await holder.kysely.connection().execute(async (session) => {
        // Kysely's own lock (the one its adapter takes for every schema of a database), and the lock of
        // another schema's migrations, both held by a session that is not done with them.
        await sql`select pg_advisory_lock(3853314791062309107)`.execute(session);
        await sql`select pg_advisory_lock(${0x6b66}::int4, hashtext(${holder.schema}))`.execute(session);
        try {
          // 1 ms for any query after opening; a migration waiting on either lock would have failed.
          opened = await openDatabase(POSTGRES_URL, { schema: mine, poolSize: 1, queryTimeoutMs: 1 });
        } finally {
          await sql`select pg_advisory_unlock_all()`.execute(session);
        }
      });
      expect(opened).toBeDefined();
    } finally {
      await sql`drop schema if exists ${sql.id(mine)} cascade`.execute(holder.kysely);
      await opened?.close();
      await holder.drop();
    }
  });
});
