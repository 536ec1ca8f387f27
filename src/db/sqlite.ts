import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import sqlite3 from 'sqlite3';

/**
 * Kysely over the `sqlite3` addon. Kysely's own SQLite dialect drives better-sqlite3, a second native
 * SQLite build; `sqlite3` is built already (the reply cache's Keyv adapter uses it), and a fresh
 * `npm ci` must stay under two minutes, so this small driver adapts it instead: one connection, taken
 * by one query or one transaction at a time, as Kysely's own SQLite driver does.
 */
export interface SqliteDialectOptions {
  /** A file path, or `:memory:`. */
  readonly path: string;
  /** How long a write waits for another process's lock before failing (`PRAGMA busy_timeout`). */
  readonly busyTimeoutMs: number;
}

function open(path: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (error) => (error ? reject(error) : resolve(db)));
  });
}

function all(db: sqlite3.Database, sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    db.all(sql, parameters, (error, rows) => (error ? reject(error) : resolve(rows)));
  });
}

function run(
  db: sqlite3.Database,
  sql: string,
  parameters: readonly unknown[],
): Promise<{ changes: number; lastID: number }> {
  return new Promise((resolve, reject) => {
    db.run(sql, parameters, function (this: sqlite3.RunResult, error: Error | null) {
      if (error) reject(error);
      else resolve({ changes: this.changes, lastID: this.lastID });
    });
  });
}

/** Statements that answer with rows: reads, and writes with RETURNING (or raw SQL, which may be either). */
function returnsRows(query: CompiledQuery['query']): boolean {
  switch (query.kind) {
    case 'SelectQueryNode':
    case 'RawNode':
      return true;
    case 'InsertQueryNode':
    case 'UpdateQueryNode':
    case 'DeleteQueryNode':
      return query.returning !== undefined;
    default:
      return false;
  }
}

class Connection implements DatabaseConnection {
  readonly #db: sqlite3.Database;

  constructor(db: sqlite3.Database) {
    this.#db = db;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = compiled.parameters.map((value) =>
      typeof value === 'boolean' ? Number(value) : value,
    );
    if (returnsRows(compiled.query)) return { rows: (await all(this.#db, compiled.sql, parameters)) as R[] };
    const { changes, lastID } = await run(this.#db, compiled.sql, parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastID) };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the sqlite3 driver');
  }
}

/** One holder of the single connection at a time, in arrival order. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  async lock(): Promise<void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => (release = resolve));
    await previous;
    this.#release = release;
  }

  unlock(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

class SqliteDriver implements Driver {
  readonly #options: SqliteDialectOptions;
  readonly #mutex = new Mutex();
  #db: sqlite3.Database | undefined;
  #connection: Connection | undefined;

  constructor(options: SqliteDialectOptions) {
    this.#options = options;
  }

  async init(): Promise<void> {
    const db = await open(this.#options.path);
    this.#db = db;
    this.#connection = new Connection(db);
    await run(db, `PRAGMA busy_timeout = ${Math.max(0, Math.floor(this.#options.busyTimeoutMs))}`, []);
    if (this.#options.path !== ':memory:') await all(db, 'PRAGMA journal_mode = WAL', []);
    await run(db, 'PRAGMA synchronous = NORMAL', []);
    await run(db, 'PRAGMA foreign_keys = ON', []);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    if (this.#connection === undefined) {
      this.#mutex.unlock();
      throw new Error('the database is closed');
    }
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE takes the write lock at once: two processes never both read, then both fail to write.
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  releaseConnection(): Promise<void> {
    this.#mutex.unlock();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    this.#connection = undefined;
    if (db)
      await new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
  }
}

export class Sqlite3Dialect implements Dialect {
  readonly #options: SqliteDialectOptions;

  constructor(options: SqliteDialectOptions) {
    this.#options = options;
  }

  createDriver(): Driver {
    return new SqliteDriver(this.#options);
  }

  createQueryCompiler(): SqliteQueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): SqliteAdapter {
    return new SqliteAdapter();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  createIntrospector(db: Kysely<any>): SqliteIntrospector {
    return new SqliteIntrospector(db);
  }
}
