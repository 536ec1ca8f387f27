import {
  CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type RootOperationNode,
} from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SubscriptionRepository, toRow } from '../../../src/announcements/records/subscriptions.ts';
import { DEFAULT_BATCH, PARSE_SLICE } from '../../../src/core/batches.ts';
import { openDatabase, type Database } from '../../../src/db/index.ts';

/**
 * The reload of every active subscription runs in pages with a turn of the event loop between them, and
 * parses each page in slices with a turn between them too: a timer or an interaction waiting during a
 * reload of 100k subscriptions runs between two slices instead of after the whole reload. Each page is
 * read through an index, in order, never by sorting every active row again.
 */
const COUNT = 2_500;

/** Counts turns of the event loop: one `setImmediate` callback per turn, for as long as it runs. */
function loopTurns(): { readonly count: () => number; stop(): void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    count: () => turns,
    stop: () => {
      running = false;
    },
  };
}

/** Notes, for each query on the subscriptions table, the turn it started on and the rows it returned. */
class Watch implements KyselyPlugin {
  readonly queries: Array<{
    startedOnTurn: number;
    answeredOnTurn?: number;
    rows?: number;
    node: RootOperationNode;
    queryId: PluginTransformQueryArgs['queryId'];
  }> = [];
  constructor(readonly turn: () => number) {}
  transformQuery(args: PluginTransformQueryArgs) {
    this.queries.push({ startedOnTurn: this.turn(), node: args.node, queryId: args.queryId });
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs) {
    const last = this.queries[this.queries.length - 1];
    if (last) Object.assign(last, { answeredOnTurn: this.turn(), rows: args.result.rows.length });
    return Promise.resolve(args.result);
  }
}

let db: Database;

beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  const rows = Array.from({ length: COUNT }, (_, i) =>
    toRow({
      id: `s${String(i).padStart(5, '0')}`,
      guildId: String(100_000_000_000_000_000n + BigInt(i)),
      channelId: String(200_000_000_000_000_000n + BigInt(i)),
      kind: 'maps',
      options: {},
      locale: 'en-US',
      createdBy: '1',
      // Several subscriptions share a creation time: the pages must not lose or repeat any of them.
      createdAt: 1_000 + Math.floor((COUNT - i) / 7),
      since: 1_000,
      state:
        i % 10 === 0
          ? { status: 'disabled', reason: 'missingAccess', code: 50001, at: 1 }
          : { status: 'active' },
      slot: 0,
      identity: `maps:${i}`,
    }),
  );
  for (let start = 0; start < rows.length; start += 500)
    await db.kysely
      .insertInto('subscriptions')
      .values(rows.slice(start, start + 500))
      .execute();
});

afterEach(async () => {
  await db.close();
});

describe('active subscriptions, read again in pages', () => {
  it('reads every active one, oldest first, none twice', async () => {
    const list = await new SubscriptionRepository(db).active(undefined, 400);
    expect(list).toHaveLength(COUNT - COUNT / 10);
    expect(new Set(list.map((s) => s.id)).size).toBe(list.length);
    const sorted = [...list].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    expect(list.map((s) => s.id)).toEqual(sorted.map((s) => s.id));
  });

  it('gives the event loop a turn between two pages, and no page is larger than the batch', async () => {
    const turns = loopTurns();
    try {
      const watch = new Watch(turns.count);
      const repo = new SubscriptionRepository({ ...db, kysely: db.kysely.withPlugin(watch) });
      const list = await repo.active(undefined, 1_000);
      expect(list).toHaveLength(COUNT - COUNT / 10);
      expect(watch.queries.length).toBeGreaterThanOrEqual(3);
      for (const query of watch.queries) expect(query.rows).toBeLessThanOrEqual(1_000);
      // After a page came back (and was parsed), a setImmediate callback ran before the next page was asked.
      for (let i = 1; i < watch.queries.length; i += 1) {
        const previous = watch.queries[i - 1];
        expect(watch.queries[i]?.startedOnTurn).toBeGreaterThan(previous?.answeredOnTurn ?? Infinity);
      }
    } finally {
      turns.stop();
    }
  });

  it('parses a page in slices, with a turn of the event loop after each slice', async () => {
    const turns = loopTurns();
    try {
      const watch = new Watch(turns.count);
      const repo = new SubscriptionRepository({ ...db, kysely: db.kysely.withPlugin(watch) });
      await repo.active(undefined, 1_000);
      // A full page is parsed in ceil(1,000 / slice) slices: a turn after each but the last, then one
      // before the next page is asked.
      const slices = Math.ceil(1_000 / PARSE_SLICE);
      expect(slices).toBeGreaterThan(1);
      const first = watch.queries[0];
      expect(first?.rows).toBe(1_000);
      const gap = (watch.queries[1]?.startedOnTurn ?? 0) - (first?.answeredOnTurn ?? Infinity);
      expect(gap).toBeGreaterThanOrEqual(slices);
    } finally {
      turns.stop();
    }
  });

  it('reads each page through an index, in order, without sorting the active rows', async () => {
    const watch = new Watch(() => 0);
    const repo = new SubscriptionRepository({ ...db, kysely: db.kysely.withPlugin(watch) });
    for (const kind of [undefined, 'maps']) {
      watch.queries.length = 0;
      await repo.active(kind, DEFAULT_BATCH);
      // The second page is the one with the keyset condition: (created_at, id) after the first page's last.
      const page = watch.queries[1];
      if (!page) throw new Error('the reload read a single page');
      const compiled = db.kysely.getExecutor().compileQuery(page.node, page.queryId);
      const plan = await db.kysely.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      const steps = plan.rows.map((row) => row.detail).join(' | ');
      expect(steps).toMatch(/SEARCH subscriptions USING (COVERING )?INDEX/);
      expect(steps).not.toMatch(/TEMP B-TREE/);
    }
  });
});
