import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Kysely, Migrator, sql, type Dialect } from 'kysely';
import pg from 'pg';
import { StoreError } from '../store/index.ts';
import { guarded } from './guard.ts';
import { SchemaPostgresDialect } from './postgres-introspector.ts';
import { migrationProvider } from './migrations.ts';
import type { Tables } from './schema.ts';
import { Sqlite3Dialect } from './sqlite.ts';

export type { Tables } from './schema.ts';

/**
 * The SQL database of the domain records: SQLite (one file, nothing to start; the default) or PostgreSQL
 * (several processes or machines), through Kysely, with the same migrations on both, run when it opens.
 *
 * Why Kysely: typed queries over both databases from one code path, migrations in code, no ORM model
 * layer to learn; and it leaves SQL recognisable, which is what the indexes below are written against.
 */
export type DatabaseKind = 'sqlite' | 'postgres';

/**
 * The items in runs of at most 500: the values of one `in (...)` or one multi-row insert stay within
 * SQLite's limit on a statement's parameters.
 */
export function* statementChunks<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += 500) yield items.slice(start, start + 500);
}

export interface Database {
  readonly kind: DatabaseKind;
  readonly kysely: Kysely<Tables>;
  /** Whether the database answers a trivial query now (for `/healthz`). */
  ping(): Promise<boolean>;
  /** Closes every connection; safe to call twice. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** How long one query may take (PostgreSQL) or wait for a lock (SQLite) before it fails. Default 5000. */
  readonly queryTimeoutMs?: number;
  /** How long connecting may take at start-up. Default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * PostgreSQL schema to keep the tables in (created when missing); default `public`, or the URL's
   * `?schema=` parameter. Tests use one schema each.
   */
  readonly schema?: string;
  /** Connections PostgreSQL may hold; default 10. */
  readonly poolSize?: number;
  /**
   * How long one query of the migrations may take on PostgreSQL, waiting for another process's migrations
   * included (shards starting together). Default 120000.
   */
  readonly migrationTimeoutMs?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** int8 (`bigint`, OID 20) holds our epoch-millisecond times: well inside a double's exact range. */
const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
    oid === 20
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser as (oid: number, format: 'text' | 'binary') => (value: string) => unknown)(
          oid,
          format ?? 'text',
        ),
};

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = 'redacted';
    return parsed.href;
  } catch {
    return 'an unreadable URL';
  }
}

function postgresDialect(url: string, options: DatabaseOptions): { dialect: Dialect; schema: string } {
  const parsed = new URL(url);
  const schema = options.schema ?? parsed.searchParams.get('schema') ?? 'public';
  if (!SCHEMA_NAME.test(schema))
    throw new StoreError('a PostgreSQL schema name may hold only a-z, 0-9 and _');
  parsed.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: parsed.href,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    query_timeout: options.queryTimeoutMs ?? 5_000,
    options: `-c search_path=${schema}`,
    types: pgTypes,
  });
  // An idle client whose server connection dies is reported here; unheard, it would crash the process.
  pool.on('error', () => undefined);
  return { dialect: new SchemaPostgresDialect({ pool }, schema), schema };
}

/**
 * Opens the database a URL names (`sqlite://relative/path`, `sqlite:///absolute/path`, `sqlite://:memory:`,
 * `postgres://…`), creates the folder of a SQLite file, and brings the schema up to date.
 */
export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  let dialect: Dialect;
  let kind: DatabaseKind;
  let schema: string | undefined;
  if (url.startsWith('sqlite://')) {
    const path = url.slice('sqlite://'.length);
    if (path === '') throw new StoreError('a sqlite:// database URL needs a file path');
    if (path !== ':memory:') await mkdir(dirname(path), { recursive: true });
    dialect = new Sqlite3Dialect({ path, busyTimeoutMs: options.queryTimeoutMs ?? 5_000 });
    kind = 'sqlite';
  } else if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    ({ dialect, schema } = postgresDialect(url, options));
    kind = 'postgres';
  } else {
    throw new StoreError('unsupported database URL: use sqlite:// or postgres://');
  }
  const kysely = new Kysely<Tables>({ dialect: guarded(dialect) });
  const migrating = kind === 'postgres' ? migrationDatabase(url, options) : kysely;
  try {
    if (schema !== undefined && schema !== 'public') await createSchema(migrating, schema);
    await migrate(migrating, schema);
  } catch (error) {
    await kysely.destroy().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError(`cannot open the database at ${withoutPassword(url)}: ${reason}`, { cause: error });
  } finally {
    if (migrating !== kysely) await migrating.destroy();
  }
  let closed: Promise<void> | undefined;
  return {
    kind,
    kysely,
    async ping() {
      try {
        await sql`select 1`.execute(kysely);
        return true;
      } catch {
        return false;
      }
    },
    close() {
      closed ??= kysely.destroy();
      return closed;
    },
  };
}

/**
 * PostgreSQL's migrations run on connections of their own, with a query timeout long enough to wait for
 * another process's migrations: under the bot's 5 s, a shard starting while another migrated failed.
 */
function migrationDatabase(url: string, options: DatabaseOptions): Kysely<Tables> {
  const timeout = Math.max(options.migrationTimeoutMs ?? 120_000, options.queryTimeoutMs ?? 0);
  const { dialect } = postgresDialect(url, { ...options, queryTimeoutMs: timeout, poolSize: 2 });
  return new Kysely<Tables>({ dialect: guarded(dialect) });
}

/**
 * Creates the schema when missing. `if not exists` is not atomic in PostgreSQL: two processes opening a
 * new schema at once (two shards at their first start) can both see it missing, and the second's insert
 * fails on the catalog's unique index; the schema is there all the same, which is all this asks.
 */
async function createSchema(kysely: Kysely<Tables>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(kysely);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

/**
 * Runs every migration not applied yet; Kysely's migrator holds a lock, so processes starting together
 * wait. On PostgreSQL its own tables are named with their schema: unnamed, the migrator would take another
 * schema's lock table (of another database sharing the server) for this one's and never create its own.
 */
async function migrate(kysely: Kysely<Tables>, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db: kysely,
    provider: migrationProvider,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) {
    throw error instanceof Error ? error : new Error('a migration failed', { cause: error });
  }
}
