import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
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
        // The three wait on each other's migration lock: a loaded machine may take longer than 5 s.
        openDatabase(POSTGRES_URL, { schema: mine, poolSize: 1, queryTimeoutMs: 60_000 }),
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
});
