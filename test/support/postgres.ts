import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/db/index.ts';

/**
 * The PostgreSQL the machine runs (127.0.0.1:5432, database `test`): each test gets a schema of its own,
 * dropped afterwards, so that test files running at once never see each other's tables. Mandatory in
 * CI; elsewhere the tests that need it skip, saying so.
 */
export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const postgresRequired = process.env.CI !== undefined && process.env.CI !== '';

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const postgresUp = await reachable(5432);
if (!postgresUp && !postgresRequired) {
  process.stderr.write(
    'PostgreSQL is not running on 127.0.0.1:5432: its tests are skipped here (CI runs them)\n',
  );
}

export interface TestDatabase extends Database {
  readonly schema: string;
  /** Closes it and drops its schema. */
  drop(): Promise<void>;
}

export async function postgresDatabase(label: string, poolSize?: number): Promise<TestDatabase> {
  const schema = `t_${label.replace(/[^a-z0-9]/g, '_')}_${randomBytes(4).toString('hex')}`;
  const db = await openDatabase(POSTGRES_URL, { schema, ...(poolSize === undefined ? {} : { poolSize }) });
  return {
    ...db,
    schema,
    async drop() {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
      await db.close();
    },
  };
}

/** A database a test opens and closes. */
export interface TestBackend {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** SQLite always; PostgreSQL when it runs here (or CI, where it must). */
  readonly available: boolean;
  open(): Promise<{ db: Database; close(): Promise<void> }>;
}

/** The two databases the bot runs on: SQLite in memory, and PostgreSQL in a schema of its own (`label`). */
export function sqlBackends(label: string): readonly TestBackend[] {
  return [
    {
      name: 'SQLite',
      available: true,
      async open() {
        const db = await openDatabase('sqlite://:memory:');
        return { db, close: () => db.close() };
      },
    },
    {
      name: 'PostgreSQL',
      available: postgresUp || postgresRequired,
      async open() {
        const db = await postgresDatabase(label);
        return { db, close: () => db.drop() };
      },
    },
  ];
}
