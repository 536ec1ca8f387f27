import type { Services } from '../../services.ts';
import { registerSecret } from '../../log/index.ts';
import {
  isSealedSecret,
  seal,
  unseal,
  UnsealError,
  type SealedSecret,
  type SecretKey,
} from '../../secrets/crypto.ts';
import type { Database } from '../../db/index.ts';

declare module '../../services.ts' {
  interface Records {
    /** The guilds' linked developer keys, sealed (`/kpd`, the KPD feed). */
    readonly kpdKeys: KpdKeyRepository;
  }
}

/**
 * The developer keys moderators linked to their guilds (scope `kpd`), one per guild, stored sealed:
 * the store holds only the ciphertext, the key id that sealed it, who linked it and when. A key is
 * opened for one use and registered with the log redaction while it is in memory.
 */
export interface StoredKpdKey extends SealedSecret {
  /** Discord user id of the moderator who linked it. */
  readonly linkedBy: string;
  readonly linkedAt: number;
}

export const KPD_KEY_PURPOSE = 'kpd-key';

/** A key opened for use; call `forget()` when done (it unregisters the value from the redaction). */
export interface OpenedKpdKey {
  readonly status: 'ok';
  readonly apiKey: string;
  readonly linkedBy: string;
  readonly linkedAt: number;
  forget(): void;
}

export type KpdKeyLookup =
  | OpenedKpdKey
  /** The operator set no SECRET_KEY / SECRET_KEY_FILE: nothing can be linked or opened. */
  | { readonly status: 'no_secret' }
  | { readonly status: 'missing' }
  /** Sealed under another secret key (the operator rotated it): the guild must link its key again. */
  | { readonly status: 'other_key'; readonly keyId: string }
  /** Altered, truncated, or copied from another guild. */
  | { readonly status: 'unreadable' };

export interface KpdKeyAudit {
  readonly total: number;
  /** Guild ids whose record was sealed under another key id, with that id. */
  readonly otherKey: ReadonlyArray<{ readonly guildId: string; readonly keyId: string }>;
  readonly unreadable: readonly string[];
}

/** The `kpd_keys` table: one sealed record per guild. A record whose JSON is damaged reads as unreadable. */
function isStoredKpdKey(record: unknown): record is StoredKpdKey {
  if (!isSealedSecret(record)) return false;
  const { linkedBy, linkedAt } = record as Partial<StoredKpdKey>;
  return typeof linkedBy === 'string' && typeof linkedAt === 'number';
}

export class KpdKeyRecords {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  static #parse(row: { sealed: string; linked_by: string; linked_at: number }): unknown {
    let sealed: unknown;
    try {
      sealed = JSON.parse(row.sealed);
    } catch {
      return {};
    }
    return typeof sealed === 'object' && sealed !== null
      ? { ...sealed, linkedBy: row.linked_by, linkedAt: row.linked_at }
      : {};
  }

  async get(guildId: string): Promise<unknown> {
    const row = await this.#db.kysely
      .selectFrom('kpd_keys')
      .selectAll()
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return row && KpdKeyRecords.#parse(row);
  }

  async set(guildId: string, record: StoredKpdKey): Promise<void> {
    const { linkedBy, linkedAt, ...sealed } = record;
    const values = {
      sealed: JSON.stringify(sealed),
      key_id: record.kid,
      linked_by: linkedBy,
      linked_at: linkedAt,
    };
    await this.#db.kysely
      .insertInto('kpd_keys')
      .values({ guild_id: guildId, ...values })
      .onConflict((c) => c.column('guild_id').doUpdateSet(values))
      .execute();
  }

  async delete(guildId: string): Promise<boolean> {
    const result = await this.#db.kysely
      .deleteFrom('kpd_keys')
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async has(guildId: string): Promise<boolean> {
    const row = await this.#db.kysely
      .selectFrom('kpd_keys')
      .select('guild_id')
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every record (one per guild that linked a key), for the start-up audit. */
  async all(): Promise<Array<[guildId: string, record: unknown]>> {
    const rows = await this.#db.kysely.selectFrom('kpd_keys').selectAll().execute();
    return rows.map((row) => [row.guild_id, KpdKeyRecords.#parse(row)]);
  }
}

export class KpdKeyRepository {
  readonly #records: KpdKeyRecords;
  readonly #secret: SecretKey | undefined;

  constructor(records: KpdKeyRecords, secret: { readonly key?: Buffer; readonly keyId?: string }) {
    this.#records = records;
    this.#secret =
      secret.key !== undefined && secret.keyId !== undefined
        ? { key: secret.key, keyId: secret.keyId }
        : undefined;
  }

  /** Whether a secret key is configured (without one, keys can be neither linked nor opened). */
  get configured(): boolean {
    return this.#secret !== undefined;
  }

  /** Seals and stores the guild's key, replacing any previous one. Throws when no secret is configured. */
  async save(guildId: string, apiKey: string, linkedBy: string, linkedAt: number): Promise<void> {
    const secret = this.#requireSecret();
    const sealed = seal(secret, apiKey, { purpose: KPD_KEY_PURPOSE, owner: guildId });
    await this.#records.set(guildId, { ...sealed, linkedBy, linkedAt });
  }

  async remove(guildId: string): Promise<boolean> {
    return this.#records.delete(guildId);
  }

  async has(guildId: string): Promise<boolean> {
    return this.#records.has(guildId);
  }

  /** Opens the guild's key. On `ok`, the caller must `forget()` it once done. */
  async open(guildId: string): Promise<KpdKeyLookup> {
    const secret = this.#secret;
    if (secret === undefined) return { status: 'no_secret' };
    const record = await this.#records.get(guildId);
    if (record === undefined) return { status: 'missing' };
    if (!isStoredKpdKey(record)) return { status: 'unreadable' };
    let apiKey: string;
    try {
      apiKey = unseal(secret, record, { purpose: KPD_KEY_PURPOSE, owner: guildId });
    } catch (error) {
      if (error instanceof UnsealError && error.reason === 'other_key')
        return { status: 'other_key', keyId: record.kid };
      if (error instanceof UnsealError) return { status: 'unreadable' };
      throw error;
    }
    const forget = registerSecret(apiKey);
    return { status: 'ok', apiKey, linkedBy: record.linkedBy, linkedAt: record.linkedAt, forget };
  }

  /**
   * Runs `use` with the guild's opened key and forgets it afterwards, whatever happens; returns the
   * lookup's status instead when the key cannot be opened.
   */
  async withKey<T>(
    guildId: string,
    use: (key: OpenedKpdKey) => Promise<T>,
  ): Promise<{ readonly status: 'ok'; readonly value: T } | Exclude<KpdKeyLookup, OpenedKpdKey>> {
    const lookup = await this.open(guildId);
    if (lookup.status !== 'ok') return lookup;
    try {
      return { status: 'ok', value: await use(lookup) };
    } finally {
      lookup.forget();
    }
  }

  /**
   * Checks every stored record against the configured key, without opening any: records sealed under
   * another key id (after a rotation) and malformed ones. For the start-up report (docs/secrets.md).
   */
  async audit(): Promise<KpdKeyAudit> {
    const otherKey: Array<{ guildId: string; keyId: string }> = [];
    const unreadable: string[] = [];
    let total = 0;
    for (const [guildId, record] of await this.#records.all()) {
      total += 1;
      if (!isSealedSecret(record)) unreadable.push(guildId);
      else if (this.#secret === undefined || record.kid !== this.#secret.keyId) {
        otherKey.push({ guildId, keyId: record.kid });
      }
    }
    return { total, otherKey, unreadable };
  }

  #requireSecret(): SecretKey {
    if (this.#secret === undefined)
      throw new Error('no secret key is configured (SECRET_KEY or SECRET_KEY_FILE)');
    return this.#secret;
  }
}

/** Opens the linked keys over the database with the configured secret (the composition root does, once). */
export function kpdKeys(
  services: Pick<Services, 'db'> & { readonly config: Pick<Services['config'], 'secret'> },
): KpdKeyRepository {
  return new KpdKeyRepository(new KpdKeyRecords(services.db), services.config.secret);
}

/**
 * Logs the outcome of {@link KpdKeyRepository.audit} once (meant for start-up): how many linked keys
 * were sealed under another secret key and must be linked again. Guild ids and key ids only.
 */
export async function reportKpdKeys(services: Pick<Services, 'db' | 'config' | 'log'>): Promise<KpdKeyAudit> {
  const audit = await kpdKeys(services).audit();
  const { log } = services;
  if (audit.otherKey.length > 0) {
    log.warn(
      {
        count: audit.otherKey.length,
        guilds: audit.otherKey.map((entry) => entry.guildId),
        keyIds: [...new Set(audit.otherKey.map((entry) => entry.keyId))],
        currentKeyId: services.config.secret.keyId ?? null,
      },
      'linked KPD keys sealed under another secret key: those guilds must run /kpd link again',
    );
  }
  if (audit.unreadable.length > 0) {
    log.warn(
      { count: audit.unreadable.length, guilds: audit.unreadable },
      'unreadable linked KPD key records',
    );
  }
  return audit;
}

/** A developer key as the service issues them (`kr_...`, printable, no spaces), checked before any request. */
export function looksLikeDeveloperKey(value: string): boolean {
  return /^kr_[\x21-\x7e]{4,250}$/.test(value);
}

/** The i18n key that tells a moderator why the guild's key cannot be used. */
export function keyStatusMessage(status: Exclude<KpdKeyLookup, OpenedKpdKey>['status']): string {
  switch (status) {
    case 'no_secret':
      return 'kpd:errors.noSecret';
    case 'missing':
      return 'kpd:errors.notLinked';
    case 'other_key':
      return 'kpd:errors.otherKey';
    case 'unreadable':
      return 'kpd:errors.unreadable';
  }
}
