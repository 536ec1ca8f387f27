import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { openDatabase, type Database } from '../../src/db/index.ts';
import {
  GUILD_DATA_GRACE_MS,
  GUILD_TABLES,
  GuildDepartures,
  NOT_GUILD_DATA,
} from '../../src/guilds/departures.ts';
import { silentLog } from '../support/announcements.ts';

/**
 * Every table of the migrated schema that can hold a server's data is named in GUILD_TABLES, and the purge
 * really empties it: a table added later with a guild column (or one keyed by subscription) fails here until
 * the departures cover it.
 */
const T0 = Date.UTC(2026, 10, 1);
const GONE = 'g-gone';
const KEPT = 'g-kept';

let db: Database;
beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
});
afterEach(async () => {
  await db.close();
});

interface Column {
  readonly name: string;
  readonly dataType: string;
  readonly isNullable: boolean;
}

async function tables(): Promise<Map<string, readonly Column[]>> {
  const found = await db.kysely.introspection.getTables();
  return new Map(found.map((table) => [table.name, table.columns]));
}

const guildColumn = (column: Column) => /guild/i.test(column.name);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of tables the test only knows by introspection
type Loose = Kysely<any>;

/** A row of any table for `guildId`: its guild and subscription columns point at the server, the rest filled. */
function rowFor(columns: readonly Column[], guildId: string): Record<string, unknown> {
  return Object.fromEntries(
    columns.map((column): [string, unknown] => {
      if (guildColumn(column)) return [column.name, guildId];
      if (column.name === 'subscription_id') return [column.name, `${guildId}-sub`];
      if (column.name === 'id') return [column.name, `${guildId}-sub`];
      if (/int|real|numeric/i.test(column.dataType)) return [column.name, 1];
      return [column.name, `${guildId}-${column.name}`];
    }),
  );
}

describe('departures cover every table of server data', () => {
  it('names every table with a guild column, and every table keyed by subscription', async () => {
    const schema = await tables();
    const covered = new Set<string>([...Object.keys(GUILD_TABLES), ...NOT_GUILD_DATA]);
    const withGuild = [...schema].filter(([, columns]) => columns.some(guildColumn)).map(([name]) => name);
    expect(withGuild.length).toBeGreaterThan(5);
    expect(withGuild.filter((name) => !covered.has(name))).toEqual([]);
    const bySubscription = [...schema]
      .filter(([, columns]) => columns.some((column) => column.name === 'subscription_id'))
      .map(([name]) => name);
    expect(
      bySubscription.filter((name) => GUILD_TABLES[name as keyof typeof GUILD_TABLES] !== 'subscription'),
    ).toEqual([]);
    // And nothing named that the schema does not have.
    expect(Object.keys(GUILD_TABLES).filter((name) => !schema.has(name))).toEqual([]);
  });

  it('the purge removes a left server’s rows from each of them, and nothing of another server', async () => {
    const schema = await tables();
    const loose = db.kysely as unknown as Loose;
    const filled = [...schema].filter(
      ([name, columns]) =>
        !NOT_GUILD_DATA.includes(name) &&
        !name.startsWith('kysely_') &&
        columns.some((column) => guildColumn(column) || column.name === 'subscription_id'),
    );
    for (const [name, columns] of filled)
      for (const guildId of [GONE, KEPT])
        await loose.insertInto(name).values(rowFor(columns, guildId)).execute();
    const departures = new GuildDepartures(db);
    expect(new Set(await departures.knownGuildIds())).toEqual(new Set([GONE, KEPT]));
    await departures.left(GONE, T0);
    const [purged] = await departures.purge(T0 + GUILD_DATA_GRACE_MS, silentLog);
    expect(purged?.guildId).toBe(GONE);
    const left: Record<string, number> = {};
    const kept: Record<string, number> = {};
    for (const [name, columns] of filled) {
      const rows = (await loose.selectFrom(name).selectAll().execute()) as Record<string, unknown>[];
      const of = (guildId: string) =>
        rows.filter((row) =>
          columns.some(
            (column) =>
              row[column.name] === guildId ||
              (column.name === 'subscription_id' && row[column.name] === `${guildId}-sub`),
          ),
        ).length;
      left[name] = of(GONE);
      kept[name] = of(KEPT);
    }
    expect(left).toEqual(Object.fromEntries(filled.map(([name]) => [name, 0])));
    expect(kept).toEqual(Object.fromEntries(filled.map(([name]) => [name, 1])));
    expect(await departures.knownGuildIds()).toEqual([KEPT]);
  });
});
