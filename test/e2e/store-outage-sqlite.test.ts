import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configureLog } from '../../src/log/index.ts';
import type { MessageRecord, PendingInteraction } from '../../src/dev/standin/index.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * The real bot on a SQLite store that can no longer write: read-only (`PRAGMA query_only`) or full
 * (`PRAGMA max_page_count` at the file's size, every page used). The errors are SQLite's own, on the
 * bot's own connection. A command whose game API call succeeded still answers with the data, and
 * `/healthz` says not ready until the store can write again.
 */
type Query = (sql: string, ...params: unknown[]) => Promise<Array<Record<string, unknown>>>;
const connections = vi.hoisted(() => [] as Array<{ query: Query }>);

vi.mock('@keyv/sqlite', async (importOriginal) => {
  const real = await importOriginal<typeof import('@keyv/sqlite')>();
  class RecordedSqlite extends real.KeyvSqlite {
    constructor(...args: ConstructorParameters<typeof real.KeyvSqlite>) {
      super(...args);
      connections.push(this);
    }
  }
  return { ...real, KeyvSqlite: RecordedSqlite, default: RecordedSqlite };
});

const EPHEMERAL = 64;
const dir = mkdtempSync(join(tmpdir(), 'killfeed-outage-'));
let stack: TestStack;
let query: Query;

beforeAll(async () => {
  // The failed writes are logged as warnings, expected here.
  configureLog('error');
  stack = await startTestStack({
    storeUrl: `sqlite://${join(dir, 'bot.sqlite')}`,
    commands: ['player'],
    announcements: false,
    health: true,
  });
  expect(connections).toHaveLength(1);
  query = connections[0]!.query;
}, 60_000);

afterAll(async () => {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
  configureLog('info');
});

const health = () => stack.health();
const healthBecomes = (status: number) => stack.healthBecomes(status);

async function answered(pending: PendingInteraction): Promise<MessageRecord> {
  const first = await pending.response(10_000);
  expect([4, 5]).toContain(first.type);
  return pending.final(20_000);
}

/** The player's profile, as data: public, and naming the player. */
async function expectProfile(name: string): Promise<void> {
  const message = await answered(stack.invoke('player', 'profile', { name }));
  expect(message.flags & EPHEMERAL).toBe(0);
  expect(JSON.stringify(message.embeds)).toContain(name);
}

describe('a SQLite store that cannot write', () => {
  it('read-only: commands still answer with the data; /healthz is not ready until it can write', async () => {
    expect((await health()).status).toBe(200);
    await query('PRAGMA query_only = ON');
    try {
      await expectProfile(stack.sandbox.world.samples.player);
      // The reply does not wait on the store: the health turns on the bot's next write, which fails.
      await expect(stack.store.namespace('probe-readonly').set('x', 'y')).rejects.toThrow();
      await healthBecomes(503);
      const down = await health();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ store: { status: 'down', reason: 'SQLITE_READONLY' } });
    } finally {
      await query('PRAGMA query_only = OFF');
    }
    await healthBecomes(200);
  }, 60_000);

  it('disk full: commands still answer with the data; /healthz is not ready until there is room', async () => {
    await healthBecomes(200);
    const [pages] = await query('PRAGMA page_count');
    const [limit] = await query(`PRAGMA max_page_count = ${Number(pages?.page_count)}`);
    try {
      // Use up the room left in the file's pages, so that every new entry needs a page it cannot have.
      let full = false;
      for (let i = 0; i < 100_000; i += 1) {
        try {
          await query('INSERT INTO keyv (key, value) VALUES (?, ?)', `filler:${i}`, 'x');
        } catch (error) {
          expect((error as { code?: unknown }).code).toBe('SQLITE_FULL');
          full = true;
          break;
        }
      }
      expect(full).toBe(true);
      await expectProfile(stack.sandbox.world.samples.rankedPlayer);
      // The reply does not wait on the store. A write that needs new pages (8 KB: overflow pages) fails and
      // marks the store down; its health probe updates one small entry in place, which a full file still
      // allows, so the store may count as up again a moment later. Asked right after such a write, /healthz
      // is not ready (a few tries: a probe can slip in between the write and the request).
      let down = await health();
      for (let attempt = 0; attempt < 20 && down.status !== 503; attempt += 1) {
        await expect(stack.store.namespace('probe-full').set('x', 'y'.repeat(8_192))).rejects.toThrow();
        down = await health();
      }
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ store: { status: 'down', reason: 'SQLITE_FULL' } });
    } finally {
      expect(limit).toBeDefined();
      await query('PRAGMA max_page_count = 1073741823');
    }
    await healthBecomes(200);
  }, 60_000);
});
