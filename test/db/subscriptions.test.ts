import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionRepository } from '../../src/announcements/repositories.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { postgresDatabase, postgresRequired, postgresUp } from '../support/postgres.ts';

/**
 * The per-guild limit and the identity rule, straight on the repository, with the writes split between
 * two connections (two processes, as shards are): the database's unique indexes decide, so exactly
 * `limit` subscriptions exist whatever the interleaving. Per-guild reads see one guild's rows only.
 */
const LIMIT = 25;
const fields = (guildId: string, channelId: string) => ({
  guildId,
  channelId,
  kind: 'maps',
  options: {},
  locale: 'en-US',
  createdBy: '1',
  createdAt: 1_000,
  since: 1_000,
  state: { status: 'active' as const },
});

interface Pair {
  readonly first: Database;
  readonly second: Database;
  close(): Promise<void>;
}

const backends: Array<{ name: string; available: boolean; open(): Promise<Pair> }> = [
  {
    name: 'SQLite (one file, two connections)',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'killfeed-db-'));
      const url = `sqlite://${join(dir, 'killfeed.sqlite')}`;
      const first = await openDatabase(url);
      const second = await openDatabase(url);
      return {
        first,
        second,
        async close() {
          await first.close();
          await second.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL (two pools)',
    available: postgresUp || postgresRequired,
    async open() {
      const first = await postgresDatabase('subs');
      const second = await openDatabase('postgres://postgres@127.0.0.1:5432/test', { schema: first.schema });
      return {
        first,
        second,
        async close() {
          await second.close();
          await first.drop();
        },
      };
    },
  },
];

for (const backend of backends) {
  describe.runIf(backend.available)(`subscriptions on ${backend.name}`, () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await backend.open();
    }, 30_000);
    afterAll(() => pair.close());

    it('keeps exactly 25 of 100 concurrent adds in one guild, places 0 to 24, others told the limit', async () => {
      const repos = [new SubscriptionRepository(pair.first), new SubscriptionRepository(pair.second)];
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          repos[i % 2]!.add(fields('g-limit', `c${i}`), `maps:c${i}`, LIMIT),
        ),
      );
      expect(results.filter((r) => r.status === 'created')).toHaveLength(LIMIT);
      expect(results.filter((r) => r.status === 'limit')).toHaveLength(100 - LIMIT);
      const stored = await repos[0]!.forGuild('g-limit');
      expect(stored.map((s) => s.slot).sort((a, b) => a! - b!)).toEqual(
        Array.from({ length: LIMIT }, (_, i) => i),
      );
    }, 60_000);

    it('keeps one of 20 concurrent adds of the same identity', async () => {
      const repos = [new SubscriptionRepository(pair.first), new SubscriptionRepository(pair.second)];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => repos[i % 2]!.add(fields('g-same', 'c1'), 'maps:c1', LIMIT)),
      );
      expect(results.filter((r) => r.status === 'created')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'exists')).toHaveLength(19);
    }, 60_000);

    it('frees the place and the identity of a removed subscription, and disables at most once', async () => {
      const repo = new SubscriptionRepository(pair.first);
      const made = await repo.add(fields('g-free', 'c1'), 'maps:c1', 1);
      expect(made.status).toBe('created');
      expect((await repo.add(fields('g-free', 'c2'), 'maps:c2', 1)).status).toBe('limit');
      if (made.status !== 'created') return;
      const disabled = await Promise.all([
        repo.disable(made.subscription.id, 'missingAccess', 50001, 5),
        new SubscriptionRepository(pair.second).disable(made.subscription.id, 'missingAccess', 50001, 6),
      ]);
      expect(disabled.filter(Boolean)).toHaveLength(1);
      expect(await repo.delete(made.subscription.id)).toBe(true);
      expect((await repo.add(fields('g-free', 'c1'), 'maps:c1', 1)).status).toBe('created');
    });

    it('reads one guild without the others, and the active ones across guilds', async () => {
      const repo = new SubscriptionRepository(pair.second);
      for (let g = 0; g < 5; g += 1) {
        for (let c = 0; c < 3; c += 1) await repo.add(fields(`g-read-${g}`, `c${c}`), `maps:c${c}`, LIMIT);
      }
      expect((await repo.forGuild('g-read-3')).map((s) => s.guildId)).toEqual([
        'g-read-3',
        'g-read-3',
        'g-read-3',
      ]);
      expect(await repo.forGuild('g-nobody')).toEqual([]);
      const active = await repo.active();
      expect(active.filter((s) => s.guildId.startsWith('g-read-'))).toHaveLength(15);
      expect(active.every((s) => s.state.status === 'active')).toBe(true);
    });
  });
}
