import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  keyStatusMessage,
  KpdKeyRecords,
  KpdKeyRepository,
  looksLikeDeveloperKey,
  reportKpdKeys,
  type StoredKpdKey,
} from '../../../src/features/kpd/keys.ts';
import { scrubSecrets } from '../../../src/log/index.ts';
import { keyPrefix } from '../../../src/secrets/mask.ts';
import { createStore, type Store } from '../../../src/store/index.ts';
import { openDatabase, type Database } from '../../../src/db/index.ts';

const secret = { key: randomBytes(32), keyId: 'k1k1k1k1' };
const apiKey = `kr_${randomBytes(20).toString('hex')}`;
const GUILD = '111111111111111111';
const OTHER_GUILD = '222222222222222222';

let store: Store;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

let db: Database;
beforeEach(async () => {
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  db = await openDatabase('sqlite://:memory:');
});
afterEach(async () => {
  await store.close();
  await db.close();
});

const repo = (s: { key?: Buffer; keyId?: string } = secret) => new KpdKeyRepository(new KpdKeyRecords(db), s);

describe('KpdKeyRepository', () => {
  it('stores a key sealed and opens it for its guild', async () => {
    await repo().save(GUILD, apiKey, '42', 1000);
    const stored = await new KpdKeyRecords(db).get(GUILD);
    expect(stored).toMatchObject({ v: 1, kid: secret.keyId, linkedBy: '42', linkedAt: 1000 });
    expect(JSON.stringify(stored)).not.toContain(apiKey);
    expect(JSON.stringify(stored)).not.toContain(apiKey.slice(3, 12));
    const opened = await repo().open(GUILD);
    expect(opened).toMatchObject({ status: 'ok', apiKey, linkedBy: '42', linkedAt: 1000 });
    if (opened.status === 'ok') opened.forget();
  });

  it('registers an opened key with the log redaction until it is forgotten', async () => {
    await repo().save(GUILD, apiKey, '42', 1000);
    // Registered, the whole key goes; unregistered, only the generic `kr_` rule applies (keeping kr_ and 4).
    const result = await repo().withKey(GUILD, async (key) => scrubSecrets(`using ${key.apiKey}`));
    expect(result).toEqual({ status: 'ok', value: 'using [redacted]' });
    expect(scrubSecrets(`later ${apiKey}`)).toBe(`later ${apiKey.slice(0, 7)}[redacted]`);
  });

  it('forgets the key even when the use fails', async () => {
    await repo().save(GUILD, apiKey, '42', 1000);
    await expect(repo().withKey(GUILD, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(scrubSecrets(apiKey)).toBe(`${apiKey.slice(0, 7)}[redacted]`);
  });

  it('answers missing for a guild without a key, and after remove', async () => {
    expect(await repo().open(GUILD)).toEqual({ status: 'missing' });
    await repo().save(GUILD, apiKey, '42', 1000);
    expect(await repo().has(GUILD)).toBe(true);
    expect(await repo().remove(GUILD)).toBe(true);
    expect(await repo().open(GUILD)).toEqual({ status: 'missing' });
    expect(await repo().remove(GUILD)).toBe(false);
  });

  it('refuses to open a record copied to another guild', async () => {
    await repo().save(GUILD, apiKey, '42', 1000);
    const records = new KpdKeyRecords(db);
    const record = (await records.get(GUILD)) as StoredKpdKey;
    await records.set(OTHER_GUILD, record);
    expect(await repo().open(OTHER_GUILD)).toEqual({ status: 'unreadable' });
  });

  it('tells a record sealed under a previous secret key apart (rotation), and reports it in the audit', async () => {
    await repo().save(GUILD, apiKey, '42', 1000);
    const rotated = { key: randomBytes(32), keyId: 'k2k2k2k2' };
    expect(await repo(rotated).open(GUILD)).toEqual({ status: 'other_key', keyId: secret.keyId });
    await repo(rotated).save(OTHER_GUILD, apiKey, '43', 2000);
    const audit = await repo(rotated).audit();
    expect(audit.total).toBe(2);
    expect(audit.otherKey).toEqual([{ guildId: GUILD, keyId: secret.keyId }]);
  });

  it('without a configured secret: cannot save, opens nothing, says so', async () => {
    const none = repo({});
    expect(none.configured).toBe(false);
    await expect(none.save(GUILD, apiKey, '42', 1000)).rejects.toThrow(/SECRET_KEY/);
    expect(await none.open(GUILD)).toEqual({ status: 'no_secret' });
    expect(keyStatusMessage('no_secret')).toBe('kpd:errors.noSecret');
  });

  it('calls a damaged record unreadable', async () => {
    await db.kysely
      .insertInto('kpd_keys')
      .values({
        guild_id: GUILD,
        sealed: JSON.stringify({ v: 1, kid: secret.keyId, iv: 'x' }),
        key_id: 'x',
        linked_by: '42',
        linked_at: 1,
      })
      .execute();
    expect(await repo().open(GUILD)).toEqual({ status: 'unreadable' });
    expect((await repo().audit()).unreadable).toEqual([GUILD]);
  });

  it('reports keys under another key id at start-up with guild and key ids only', async () => {
    await repo().save(GUILD, apiKey, '42', 1000);
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const rotated = { key: randomBytes(32), keyId: 'k2k2k2k2' };
    const audit = await reportKpdKeys({ db, log, config: { secret: rotated } as never });
    expect(audit.otherKey).toHaveLength(1);
    const output = lines.join('');
    expect(output).toContain(GUILD);
    expect(output).toContain('/kpd link');
    expect(output).not.toContain(apiKey);
  });
});

describe('a sqlite database file', () => {
  it('holds no byte of the linked key in plaintext', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'killfeed-kpd-'));
    dirs.push(dir);
    const sqlite = await openDatabase(`sqlite://${join(dir, 'bot.sqlite')}`);
    const repository = new KpdKeyRepository(new KpdKeyRecords(sqlite), secret);
    await repository.save(GUILD, apiKey, '42', 1000);
    await repository.save(OTHER_GUILD, apiKey, '42', 1000);
    const opened = await repository.open(GUILD);
    expect(opened.status).toBe('ok');
    if (opened.status === 'ok') opened.forget();
    await sqlite.close();
    const bytes = Buffer.concat(readdirSync(dir).map((file) => readFileSync(join(dir, file))));
    expect(bytes.includes(Buffer.from(apiKey))).toBe(false);
    expect(bytes.includes(Buffer.from(apiKey.slice(3, 15)))).toBe(false);
    expect(bytes.includes(Buffer.from('kpd_keys'))).toBe(true);
  });
});

describe('key helpers', () => {
  it('recognises developer keys and refuses what cannot be one', () => {
    expect(looksLikeDeveloperKey(apiKey)).toBe(true);
    expect(looksLikeDeveloperKey('kr_ab')).toBe(false);
    expect(looksLikeDeveloperKey('sk_abcdefgh')).toBe(false);
    expect(looksLikeDeveloperKey('kr_abc defgh')).toBe(false);
    expect(looksLikeDeveloperKey(`kr_abcd\nX-Evil: 1`)).toBe(false);
  });

  it('shows at most kr_ and four characters of a key', () => {
    expect(keyPrefix(apiKey)).toBe(`${apiKey.slice(0, 7)}…`);
    expect(keyPrefix('kr_short')).toBe('kr_…');
  });
});
