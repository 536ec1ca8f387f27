import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { StoreError } from '../store/index.ts';

/**
 * A database that fails (unreachable, timed out, locked, read-only, full) fails the way the key-value
 * store does: with a {@link StoreError}, which the interaction layer answers with "storage is not
 * answering" and the pollers back off from. Constraint violations are not failures of the database but
 * answers (a duplicate, a full guild): they pass through unchanged, for the repositories to read.
 */
export function isConstraintViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  // PostgreSQL: class 23, integrity constraint violation. SQLite: SQLITE_CONSTRAINT (and its extended codes).
  return typeof code === 'string' && (/^23\d{3}$/.test(code) || code.startsWith('SQLITE_CONSTRAINT'));
}

function wrap(error: unknown): unknown {
  if (error instanceof StoreError || isConstraintViolation(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? code : error instanceof Error ? error.name : 'error';
  return new StoreError(`the database failed (${reason})`, { cause: error });
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw wrap(error);
  }
}

class GuardedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return guard(() => this.inner.executeQuery<R>(compiled));
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

const unwrap = (connection: DatabaseConnection) =>
  connection instanceof GuardedConnection ? connection.inner : connection;

class GuardedDriver implements Driver {
  constructor(readonly inner: Driver) {}

  init(): Promise<void> {
    return guard(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new GuardedConnection(await guard(() => this.inner.acquireConnection()));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return guard(() => this.inner.beginTransaction(unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.commitTransaction(unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return guard(() => this.inner.rollbackTransaction(unwrap(connection)));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** `dialect` with every failure of its driver turned into a {@link StoreError} (see above). */
export function guarded(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new GuardedDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
