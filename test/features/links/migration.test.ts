import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql, type Dialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/index.ts';
import { MIGRATIONS } from '../../../src/db/migrations.ts';
import { Sqlite3Dialect } from '../../../src/db/sqlite.ts';
import { SchemaPostgresDialect } from '../../../src/db/postgres-introspector.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import { POSTGRES_URL, postgresRequired, postgresUp } from '../../support/postgres.ts';

/**
 * The upgrade to one link per game account, on a store written before it: links get the id the bot knows
 * for their name (the latest `players` row, else the refresh schedule's), the most recently verified link
 * of each player stays and the others go, links of unknown players keep a null id, and from then on the
 * database itself refuses a second link to one player.
 */
const LINKS_MIGRATION = '2026-11-27-006-links';
const T = Date.UTC(2026, 10, 1);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema as it was before the upgrade
type Old = Kysely<any>;

/** Brings a fresh database to the migration before ours, as a store of the previous release is. */
async function previousRelease(dialect: Dialect, schema?: string): Promise<Old> {
  const db: Old = new Kysely({ dialect });
  const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < LINKS_MIGRATION));
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(before) },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined)
    throw error instanceof Error ? error : new Error('a migration failed', { cause: error });
  return db;
}

async function writeOldRecords(db: Old): Promise<void> {
  const link = (user: string, name: string, at: number) => ({
    user_id: user,
    player_name: name,
    linked_at: at,
  });
  await db
    .insertInto('account_links')
    .values([
      // Three users verified as VerifiedPro (id 7, known from its snapshots): the newest stays.
      link('u1', 'VerifiedPro', T + 1_000),
      link('u2', 'VerifiedPro', T + 3_000),
      link('u3', 'VerifiedPro', T + 2_000),
      // Known only to the refresh schedule (id 8).
      link('u4', 'Scheduled', T),
      // Unknown to the bot: stays, without an id.
      link('u5', 'Stranger', T),
      link('u6', 'Stranger', T + 1),
    ])
    .execute();
  await db
    .insertInto('players')
    .values([
      { player_id: 7, name_key: 'verifiedpro', player_name: 'VerifiedPro', taken_at: T + 10, stats: '{}' },
      // The name's previous owner, seen long before: the latest row is the player the name means now.
      {
        player_id: 6,
        name_key: 'verifiedpro',
        player_name: 'VerifiedPro',
        taken_at: T - 10_000,
        stats: '{}',
      },
    ])
    .execute();
  await db
    .insertInto('followed_players')
    .values({ name_key: 'scheduled', player_name: 'Scheduled', player_id: 8 })
    .execute();
}

async function expectUpgraded(db: Database): Promise<void> {
  const rows = await db.kysely
    .selectFrom('account_links')
    .select(['user_id', 'player_name', 'player_id', 'suspended_at', 'missing_at'])
    .orderBy('user_id')
    .execute();
  expect(rows).toEqual([
    { user_id: 'u2', player_name: 'VerifiedPro', player_id: 7, suspended_at: null, missing_at: null },
    { user_id: 'u4', player_name: 'Scheduled', player_id: 8, suspended_at: null, missing_at: null },
    { user_id: 'u5', player_name: 'Stranger', player_id: null, suspended_at: null, missing_at: null },
    { user_id: 'u6', player_name: 'Stranger', player_id: null, suspended_at: null, missing_at: null },
  ]);
  // The constraint: a second link to player 7, written past the code, is refused by the database.
  await expect(
    db.kysely
      .insertInto('account_links')
      .values({ user_id: 'u9', player_name: 'VerifiedPro', player_id: 7, linked_at: T })
      .execute(),
  ).rejects.toThrow(/unique|UNIQUE/);
  // A verification of the unknown player learns its id, and takes the name's other link with it.
  const saved = await accountLinks({ db }).save('u7', {
    playerName: 'Stranger',
    playerId: 9,
    linkedAt: T + 5,
  });
  expect([...saved.movedFrom].sort()).toEqual(['u5', 'u6']);
}

describe('the upgrade to one link per game account', () => {
  it('keeps the newest link of each player and fills the ids the bot knows, on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'killfeed-links-'));
    try {
      const path = join(dir, 'killfeed.sqlite');
      const old = await previousRelease(new Sqlite3Dialect({ path, busyTimeoutMs: 5_000 }));
      await writeOldRecords(old);
      await old.destroy();
      const db = await openDatabase(`sqlite://${path}`);
      try {
        await expectUpgraded(db);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(postgresUp || postgresRequired)(
    'keeps the newest link of each player and fills the ids the bot knows, on PostgreSQL',
    async () => {
      const schema = `t_links_upgrade_${randomBytes(4).toString('hex')}`;
      const pool = (searchPath?: string) =>
        new pg.Pool({
          connectionString: POSTGRES_URL,
          max: 2,
          ...(searchPath === undefined ? {} : { options: `-c search_path=${searchPath}` }),
        });
      const admin = new Kysely({ dialect: new PostgresDialect({ pool: pool() }) });
      await sql`create schema ${sql.id(schema)}`.execute(admin);
      try {
        // The bot's own dialect: its introspector reads this schema only, whatever other tests drop meanwhile.
        const previous = await previousRelease(
          new SchemaPostgresDialect({ pool: pool(schema) }, schema),
          schema,
        );
        await writeOldRecords(previous);
        await previous.destroy();
        const db = await openDatabase(POSTGRES_URL, { schema });
        try {
          await expectUpgraded(db);
        } finally {
          await db.close();
        }
      } finally {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
        await admin.destroy();
      }
    },
  );
});
