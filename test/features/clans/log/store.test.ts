import { describe, expect, it } from 'vitest';
import type { AnnouncementEvent } from '../../../../src/announcements/model.ts';
import { InboxRepository } from '../../../../src/announcements/repositories.ts';
import { openDatabase, type Database } from '../../../../src/db/index.ts';
import type { Roster } from '../../../../src/features/clans/log/model.ts';
import { ClanRosterStore } from '../../../../src/features/clans/log/store.ts';
import { postgresDatabase, postgresRequired, postgresUp } from '../../../support/postgres.ts';

/**
 * The rosters' table (migration 2026-11-27-009-clan-log) on SQLite and PostgreSQL: a read is stored with
 * its event in one transaction, over the version it was compared with, so that of two workers that read
 * the same version only one stores anything.
 */
const T = Date.UTC(2026, 10, 21, 12);

function roster(names: string[]): Roster {
  return { clanId: 7, name: 'Vortex', members: names.map((n) => ({ n, r: 0, s: 1 })) };
}

function event(key: string): AnnouncementEvent {
  return { key, source: 'clan-log', type: 'clan.log', at: T, data: {} };
}

const backends: Array<[string, boolean, () => Promise<{ db: Database; close: () => Promise<void> }>]> = [
  [
    'SQLite',
    true,
    async () => {
      const db = await openDatabase('sqlite://:memory:');
      return { db, close: () => db.close() };
    },
  ],
  [
    'PostgreSQL',
    postgresUp || postgresRequired,
    async () => {
      const db = await postgresDatabase('clan_rosters');
      return { db, close: () => db.drop() };
    },
  ],
];

for (const [name, available, open] of backends) {
  describe.skipIf(!available)(`clan rosters on ${name}`, () => {
    it('stores a first read, then reads over its version only, each with its event', async () => {
      const { db, close } = await open();
      try {
        const store = new ClanRosterStore(db);
        const inbox = new InboxRepository(db);
        expect(
          await store.commit({ clanId: 7, previous: undefined, roster: roster(['A']), polledAt: T }),
        ).toBe(true);
        const first = (await store.many([7, 8])).get(7);
        expect(first).toMatchObject({ clanId: 7, version: 0, polledAt: T, roster: roster(['A']) });
        expect(first?.gapMs).toBeUndefined();

        // Two workers compared their reads with version 0: the first stores, the second stores nothing.
        const previous = { version: 0, polledAt: T };
        const one = {
          clanId: 7,
          previous,
          roster: roster(['A', 'B']),
          polledAt: T + 60_000,
          event: event('e1'),
        };
        const two = { ...one, roster: roster(['A', 'C']), event: event('e2') };
        expect(await store.commit(one)).toBe(true);
        expect(await store.commit(two)).toBe(false);
        expect((await inbox.pending()).map((p) => p.event.key)).toEqual(['e1']);
        const stored = (await store.many([7])).get(7);
        expect(stored).toMatchObject({ version: 1, gapMs: 60_000, roster: roster(['A', 'B']) });

        // A second first read (another worker's baseline) leaves the stored one standing.
        expect(await store.commit({ clanId: 7, previous: undefined, roster: roster([]), polledAt: T })).toBe(
          false,
        );
        expect((await store.many([7])).get(7)?.version).toBe(1);

        // Nobody follows the clan for long: forgotten.
        expect(await store.prune(T + 120_000)).toBe(1);
        expect((await store.many([7])).size).toBe(0);
      } finally {
        await close();
      }
    });

    it('replaces a damaged row with the next first read', async () => {
      const { db, close } = await open();
      try {
        await db.kysely
          .insertInto('clan_rosters')
          .values({ clan_id: 9, version: 4, roster: '{"not":"a roster"}', polled_at: T, gap_ms: null })
          .execute();
        const store = new ClanRosterStore(db);
        expect((await store.many([9])).size).toBe(0);
        expect(
          await store.commit({
            clanId: 9,
            previous: undefined,
            roster: { ...roster(['A']), clanId: 9 },
            polledAt: T,
          }),
        ).toBe(true);
        expect((await store.many([9])).get(9)?.version).toBe(5);
      } finally {
        await close();
      }
    });
  });
}
