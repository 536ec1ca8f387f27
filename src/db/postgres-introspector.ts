import {
  PostgresAdapter,
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DialectAdapter,
  type DatabaseMetadata,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  readonly table: string;
  readonly kind: string;
  readonly column: string;
  readonly type: string;
  readonly notNull: boolean;
  readonly hasDefault: boolean;
}

/**
 * Kysely's own PostgreSQL introspector (which its migrator asks whether its tables exist) reads every
 * schema of the database and resolves each column's sequence by schema name: when another schema is
 * dropped meanwhile (another bot sharing the server, another test), the query fails with 3F000 "schema
 * does not exist" and the database does not open. This one reads the bot's own schema only, by catalog
 * joins that never look a name up, so nothing another schema does can fail it.
 */
class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection reads the catalog, not the bot's tables
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schema}`.execute(this.db);
    return rows.map(({ name }) => ({ name }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as "kind", a.attname as "column",
             ty.typname as "type",
             a.attnotnull as "notNull", a.atthasdef as "hasDefault"
        from pg_catalog.pg_namespace n
        join pg_catalog.pg_class c on c.relnamespace = n.oid
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type ty on ty.oid = a.atttypid
       where n.nspname = ${this.schema} and c.relkind in ('r', 'p', 'v', 'm')
         and a.attnum > 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (table === undefined) {
        table = {
          name: row.table,
          schema: this.schema,
          isView: row.kind === 'v' || row.kind === 'm',
          columns: [],
        };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        isNullable: !row.notNull,
        isAutoIncrementing: false,
        hasDefaultValue: row.hasDefault,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/**
 * The two keys of the advisory lock a schema's migrations hold: a constant of ours, and the schema's
 * name hashed by PostgreSQL. Kysely's own adapter takes one lock for the whole database, so every schema
 * of a server (every test file, every bot sharing it) waited for every other's migrations.
 */
const MIGRATION_LOCK_CLASS = 0x6b66; // "kf"
/** As Kysely's: a process waits this long for another's migrations before it gives up. */
const MIGRATION_LOCK_TIMEOUT_MS = 60 * 60 * 1_000;

class SchemaAdapter extends PostgresAdapter {
  constructor(private readonly schema: string) {
    super();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature Kysely's adapter declares
  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`
      with set_timeout as (select set_config('lock_timeout', ${String(MIGRATION_LOCK_TIMEOUT_MS)}, true))
      select pg_advisory_lock(${MIGRATION_LOCK_CLASS}::int4, hashtext(${this.schema})) from set_timeout
    `.execute(db);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature Kysely's adapter declares
  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK_CLASS}::int4, hashtext(${this.schema}))`.execute(db);
  }
}

/**
 * PostgreSQL through Kysely, introspecting only the schema the bot keeps its tables in, and migrating it
 * under a lock of that schema's own.
 */
export class SchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature Kysely's Dialect declares
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.schema);
  }

  override createAdapter(): DialectAdapter {
    return new SchemaAdapter(this.schema);
  }
}
