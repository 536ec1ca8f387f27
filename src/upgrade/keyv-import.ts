import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../db/index.ts';
import type { Store } from '../store/index.ts';
import {
  AnnouncementRefSchema,
  CursorSchema,
  DeliverySchema,
  IntentSchema,
  PendingSchema,
  QuarantineSchema,
  SubscriptionSchema,
  TurfStateSchema,
  type Subscription,
} from '../announcements/model.ts';
import { openRepositories } from '../announcements/repositories.ts';
import { bumpSubscriptions, toRow } from '../announcements/records/subscriptions.ts';
import { DELIVERY_RECORD_TTL_MS } from '../announcements/records/events.ts';
import { KpdFeedState } from '../features/kpd/feed.ts';
import { KpdKeyRecords, type StoredKpdKey } from '../features/kpd/keys.ts';
import { isSealedSecret } from '../secrets/crypto.ts';
import { AccountLinks } from '../players/accounts.ts';

/**
 * The upgrade from release 0.1, which kept every record in the key-value store: on the first start with
 * tables, the records are copied into them once. Every insert leaves an existing row alone, so a start
 * that dies half-way simply copies the rest next time; a marker row says when it is done, after which
 * the store is not read for them again. The old entries stay where they were (a rollback to 0.1 finds
 * them), and records that do not parse are counted and skipped, never guessed at.
 */
const MARKER = 'keyv-import';

export interface ImportReport {
  readonly imported: Readonly<Record<string, number>>;
  readonly skipped: number;
}

const LinkSchema = z.object({ playerName: z.string().min(1), linkedAt: z.number() });
const FeedStateSchema = z.object({
  at: z.number(),
  calls: z.record(z.string(), z.tuple([z.number().int().nullable(), z.number().int().nullable()])),
});

interface Context {
  readonly store: Store;
  readonly counts: Record<string, number>;
  skipped: number;
}

/** Each entry of an old namespace that parses with `schema`, handed to `save`. */
async function each<S extends z.ZodType>(
  context: Context,
  namespace: string,
  schema: S,
  save: (key: string, value: z.output<S>) => Promise<void>,
): Promise<void> {
  let count = 0;
  for await (const [key, raw] of context.store.namespace(namespace).entries()) {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      context.skipped += 1;
      continue;
    }
    await save(key, parsed.data);
    count += 1;
  }
  context.counts[namespace] = count;
}

/** `<subscription id>:<rest>` keys (deliveries, intents, refs). */
function splitKey(key: string): [string, string] | undefined {
  const colon = key.indexOf(':');
  return colon > 0 ? [key.slice(0, colon), key.slice(colon + 1)] : undefined;
}

async function importSubscriptions(context: Context, db: Database): Promise<void> {
  const found: Subscription[] = [];
  await each(context, 'announce-subscriptions', SubscriptionSchema, (_key, subscription) => {
    found.push(subscription);
    return Promise.resolve();
  });
  found.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const byGuild = new Map<string, Subscription[]>();
  for (const subscription of found) {
    byGuild.set(subscription.guildId, [...(byGuild.get(subscription.guildId) ?? []), subscription]);
  }
  for (const [guildId, subscriptions] of byGuild) {
    const existing = await db.kysely
      .selectFrom('subscriptions')
      .select('slot')
      .where('guild_id', '=', guildId)
      .execute();
    const used = new Set([...existing.map((row) => row.slot), ...subscriptions.flatMap((s) => s.slot ?? [])]);
    let next = 0;
    for (const subscription of subscriptions) {
      // Made before places existed: the lowest free place, in the order they were made.
      let slot = subscription.slot;
      if (slot === undefined) {
        while (used.has(next)) next += 1;
        slot = next;
        used.add(slot);
      }
      const identity = subscription.identity ?? `legacy:${subscription.id}`;
      await db.kysely
        .insertInto('subscriptions')
        .values(toRow({ ...subscription, slot, identity }))
        .onConflict((conflict) => conflict.doNothing())
        .execute();
    }
  }
}

async function importAnnouncements(context: Context, db: Database, store: Store): Promise<void> {
  const repos = openRepositories(db, store);
  await each(context, 'announce-cursors', CursorSchema, (key, cursor) => repos.cursors.set(key, cursor));
  await each(context, 'announce-pending', PendingSchema, async (_key, pending) => {
    await db.kysely
      .insertInto('inbox')
      .values({
        event_key: pending.event.key,
        event: JSON.stringify(pending.event),
        at: pending.event.at,
        attempts: pending.attempts,
      })
      .onConflict((c) => c.doNothing())
      .execute();
  });
  await each(context, 'announce-done', z.number(), async (key, at) => {
    await db.kysely
      .insertInto('events_done')
      .values({ event_key: key, done_at: at, expires_at: at + DELIVERY_RECORD_TTL_MS })
      .onConflict((c) => c.doNothing())
      .execute();
  });
  await each(context, 'announce-quarantine', QuarantineSchema, async (key, entry) => {
    await db.kysely
      .insertInto('quarantine')
      .values({
        event_key: key,
        event: JSON.stringify(entry.event ?? null),
        reason: entry.reason,
        at: entry.at,
        expires_at: entry.at + DELIVERY_RECORD_TTL_MS,
      })
      .onConflict((c) => c.doNothing())
      .execute();
  });
  await each(context, 'announce-deliveries', DeliverySchema, async (key, delivery) => {
    if (splitKey(key)) await repos.deliveries.record(key, delivery);
  });
  await each(context, 'announce-intents', IntentSchema, async (key, intent) => {
    if (splitKey(key)) await repos.deliveries.intend(key, intent.at);
  });
  await each(context, 'announce-refs', AnnouncementRefSchema, async (key, ref) => {
    const parts = splitKey(key);
    if (parts) await repos.refs.set(parts[0], parts[1], ref, ref.at);
  });
  await each(context, 'announce-turf', TurfStateSchema, async (key, state) => {
    if (key === 'state') await repos.turf.set(state);
  });
}

async function importAccounts(context: Context, db: Database): Promise<void> {
  const links = new AccountLinks({ db });
  await each(context, 'links', LinkSchema, (userId, link) => links.set(userId, link));
  const keys = new KpdKeyRecords(db);
  const StoredKeySchema = z.custom<StoredKpdKey>(
    (value) =>
      isSealedSecret(value) &&
      typeof (value as Partial<StoredKpdKey>).linkedBy === 'string' &&
      typeof (value as Partial<StoredKpdKey>).linkedAt === 'number',
  );
  await each(context, 'kpd-keys', StoredKeySchema, (guildId, record) => keys.set(guildId, record));
  const feed = new KpdFeedState(db);
  await each(context, 'kpd-feed', FeedStateSchema, (guildId, state) => feed.set(guildId, state));
}

/** Copies release 0.1's records from the store into the tables, unless done already; the report when it ran. */
export async function importKeyvRecords(deps: {
  readonly store: Store;
  readonly db: Database;
  readonly log: Logger;
  readonly now: number;
}): Promise<ImportReport | undefined> {
  const { store, db, log } = deps;
  const done = await db.kysely
    .selectFrom('meta')
    .select('value')
    .where('key', '=', MARKER)
    .executeTakeFirst();
  if (done) return undefined;
  const context: Context = { store, counts: {}, skipped: 0 };
  await importSubscriptions(context, db);
  await bumpSubscriptions(db);
  await importAnnouncements(context, db, store);
  await importAccounts(context, db);
  const report: ImportReport = { imported: context.counts, skipped: context.skipped };
  await db.kysely
    .insertInto('meta')
    .values({ key: MARKER, value: JSON.stringify({ at: deps.now, ...report }) })
    .onConflict((c) => c.doNothing())
    .execute();
  const total = Object.values(context.counts).reduce((sum, n) => sum + n, 0);
  if (total > 0 || context.skipped > 0) {
    log.info({ ...report }, 'moved the records of the key-value store into the database tables (once)');
  }
  return report;
}
