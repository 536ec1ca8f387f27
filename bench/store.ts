import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openRepositories } from '../src/announcements/repositories.ts';
import { ActiveSubscriptions, fromRow, toRow } from '../src/announcements/records/subscriptions.ts';
import { DEFAULT_BATCH, PARSE_SLICE } from '../src/core/batches.ts';
import { openDatabase, type Database } from '../src/db/index.ts';
import { createStore } from '../src/store/index.ts';
import { loopDelayFigure, MEASURED_LOOP_DELAY, watchLoop, type SectionFigures } from './figures.ts';

/**
 * The data layer at 1k, 10k and 100k subscriptions (one guild each, as the issue measured), on SQLite
 * (a file) and PostgreSQL (when it runs on 127.0.0.1:5432): a guild's subscriptions (what /subscriptions,
 * /unsubscribe's autocomplete and /subscribe read), and the store time of one poll cycle with nothing
 * new (each of the three sources asks for the active subscriptions, which the worker keeps and checks
 * with the change counter; the cursor, the turf state and the outbox are read), and what reading every
 * active subscription costs when they did change.
 * Goals: per guild ≤ 5 ms and a poll cycle ≤ 1 s at 100k.
 */
const SIZES = [1_000, 10_000, 100_000];
const GUILD_READS = 200;
const BATCH = 500;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function fill(db: Database, count: number): Promise<void> {
  for (let start = 0; start < count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + BATCH); i += 1) {
      rows.push(
        toRow({
          id: `s${i.toString(36)}`,
          guildId: String(100_000_000_000_000_000n + BigInt(i)),
          channelId: String(200_000_000_000_000_000n + BigInt(i)),
          kind: i % 10 === 0 ? 'turf' : 'maps',
          options: i % 10 === 0 ? { clanId: i, clanName: `clan ${i}` } : {},
          locale: 'en-US',
          createdBy: '1',
          createdAt: 1_700_000_000_000 + i,
          since: 1_700_000_000_000 + i,
          state:
            i % 50 === 0
              ? { status: 'disabled', reason: 'missingAccess', code: 50001, at: 1 }
              : { status: 'active' },
          slot: 0,
          identity: `maps:${i}`,
        }),
      );
    }
    await db.kysely.insertInto('subscriptions').values(rows).execute();
  }
  if (db.kind === 'postgres') await sql`analyze subscriptions`.execute(db.kysely);
}

/** The former reload, side by side: every active row in one query, parsed in one go. */
async function readOnce(db: Database): Promise<{ once: Timed; parsedOnce: number }> {
  const loop = watchLoop();
  const started = performance.now();
  const rows = await db.kysely
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', '=', 'active')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const parsedOnce = rows.map(fromRow).filter((s) => s !== undefined).length;
  return { once: { ms: performance.now() - started, block: await loop.stop() }, parsedOnce };
}

/** How long a reload took, and the longest the event loop was held meanwhile. */
interface Timed {
  readonly ms: number;
  readonly block: number;
}

async function measure(
  db: Database,
  count: number,
): Promise<{ guild: number; cycle: number; reload: Timed; once: Timed }> {
  const store = await createStore('memory://', { purgeIntervalMs: 0 });
  const repos = openRepositories(db, store);
  const guildTimes: number[] = [];
  for (let n = 0; n < GUILD_READS; n += 1) {
    const guildId = String(100_000_000_000_000_000n + BigInt((n * 7_919) % count));
    const started = performance.now();
    await repos.subscriptions.forGuild(guildId);
    guildTimes.push(performance.now() - started);
  }
  // The worker keeps the active subscriptions and reads them again only after a change: in pages now.
  const active = new ActiveSubscriptions(repos.subscriptions);
  const loop = watchLoop();
  const started = performance.now();
  const list = await active.get();
  const reload = { ms: performance.now() - started, block: await loop.stop() };
  const { once, parsedOnce } = await readOnce(db);
  if (list.length !== parsedOnce) throw new Error('the paged reload read another number of subscriptions');
  const cycles: number[] = [];
  for (let n = 0; n < 5; n += 1) {
    const begun = performance.now();
    for (let source = 0; source < 3; source += 1) await active.get();
    await repos.cursors.get('types=map.featured,map.unfeatured');
    await repos.turf.get();
    await repos.inbox.pending();
    cycles.push(performance.now() - begun);
  }
  await store.close();
  return { guild: median(guildTimes), cycle: median(cycles), reload, once };
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function benchStore(): Promise<SectionFigures> {
  const figures: SectionFigures = {};
  const backends: Array<{ name: string; open(): Promise<{ db: Database; close(): Promise<void> }> }> = [
    {
      name: 'sqlite',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'killfeed-bench-'));
        const db = await openDatabase(`sqlite://${join(dir, 'killfeed.sqlite')}`);
        return {
          db,
          async close() {
            await db.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  if (await reachable(5432)) {
    backends.push({
      name: 'postgres',
      async open() {
        const schema = `bench_${randomBytes(4).toString('hex')}`;
        const db = await openDatabase('postgres://postgres@127.0.0.1:5432/test', { schema });
        return {
          db,
          async close() {
            await sql`drop schema ${sql.id(schema)} cascade`.execute(db.kysely);
            await db.close();
          },
        };
      },
    });
  } else {
    figures['postgres'] = 'not running on 127.0.0.1:5432: skipped';
  }
  let worstBlock = 0;
  for (const backend of backends) {
    for (const size of SIZES) {
      const opened = await backend.open();
      const db = opened.db;
      try {
        await fill(db, size);
        const { guild, cycle, reload, once } = await measure(db, size);
        const label = `${backend.name} ${size / 1000}k`;
        figures[`${label}: one guild's subscriptions, median ms (goal ≤ 5)`] = guild.toFixed(3);
        figures[`${label}: poll-cycle store time, ms (goal ≤ 1000 at 100k)`] = cycle.toFixed(1);
        figures[
          `${label}: reading every active subscription again after a change (pages of ${DEFAULT_BATCH.toLocaleString('en-US')}, parsed ${PARSE_SLICE} rows at a time), ms`
        ] = reload.ms.toFixed(0);
        figures[`${label}: longest event-loop delay during that reload (ms)`] = loopDelayFigure(reload.block);
        figures[`${label}: the same read in one query (the former reload), ms / longest delay ms`] =
          `${once.ms.toFixed(0)} / ${once.block.toFixed(1)}`;
        worstBlock = Math.max(worstBlock, reload.block);
      } finally {
        await opened.close();
      }
    }
  }
  // Judged on the reloads: the fills and the former one-query read above are set-up and reference.
  figures[MEASURED_LOOP_DELAY] = loopDelayFigure(worstBlock);
  return figures;
}
