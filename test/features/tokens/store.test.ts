import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/index.ts';
import { accessTokenMemory } from '../../../src/features/tokens/token-memory.ts';
import { createStore } from '../../../src/store/index.ts';
import { startProcess, startWorld, type World } from '../../support/announcements.ts';
import { buttonLabelled, invokeMe, throughModal, USER } from '../../support/tokens.ts';

/**
 * A remembered token never reaches the store: the key-value store and the SQL tables (both sqlite files
 * here) are searched, byte for byte and row by row, after every path that uses, pages with and drops it.
 */
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The parts of a JWT that say who it is (header aside, every JWT's header looks alike), in pieces. */
function fragments(token: string): string[] {
  const [, payload = '', signature = ''] = token.split('.');
  const parts = [token, payload, signature];
  for (const text of [payload, signature])
    for (let at = 0; at + 12 <= text.length; at += 9) parts.push(text.slice(at, at + 12));
  return parts;
}

async function everyRow(world: World): Promise<string> {
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
    world.db.kysely,
  );
  const rows: unknown[] = [];
  for (const { name } of tables.rows) {
    rows.push(name, (await sql`select * from ${sql.table(name)}`.execute(world.db.kysely)).rows);
  }
  return JSON.stringify(rows, (_key, value: unknown) =>
    Buffer.isBuffer(value) ? value.toString('latin1') : typeof value === 'bigint' ? String(value) : value,
  );
}

describe('a remembered token and the store', () => {
  it('is found nowhere in the store or the SQL tables after use', { timeout: 60_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'killfeed-me-'));
    const store = await createStore(`sqlite://${join(dir, 'store.sqlite')}`, { purgeIntervalMs: 0 });
    const db = await openDatabase(`sqlite://${join(dir, 'killfeed.sqlite')}`);
    const world = await startWorld({ store, db });
    const process = await startProcess(world, { commands: true });
    const token = world.sandbox.issueToken({ playerName: world.sandbox.world.samples.rankedPlayer });
    try {
      const matches = await throughModal(world, 'matches', token, 'yes');
      expect(accessTokenMemory(process.services).get(USER)?.token).toBe(token);
      const page2 = await world.discord
        .clickButton(matches, buttonLabelled(matches, 'Next ▶').custom_id, { user: { id: USER } })
        .final();
      expect(page2.embeds[0]?.footer?.text).toMatch(/^Page 2/);
      for (const sub of ['wallet', 'market-history', 'listings', 'trades', 'ranked'])
        expect((await invokeMe(world, sub).final()).embeds[0]?.title).toMatch(/^Your /);
      await world.discord
        .clickButton(page2, buttonLabelled(page2, 'Forget my token').custom_id, { user: { id: USER } })
        .final();
      expect(accessTokenMemory(process.services).size).toBe(0);

      const rows = await everyRow(world);
      expect(rows).toContain('snapshots');
      await process.stop();
      await world.close();
      await store.close();
      await db.close();
      const bytes = readdirSync(dir)
        .map((file) => readFileSync(join(dir!, file)).toString('latin1'))
        .join('');
      expect(bytes.length).toBeGreaterThan(0);
      const leaks = fragments(token).filter((part) => rows.includes(part) || bytes.includes(part));
      expect(leaks).toEqual([]);
    } finally {
      await process.stop();
      await world.close();
      await store.close();
      await db.close();
    }
  });
});
