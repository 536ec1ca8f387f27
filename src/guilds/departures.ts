import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { statementChunks, type Database, type Tables } from '../db/index.ts';
import { bumpSubscriptions } from '../announcements/records/subscriptions.ts';
import { purgeGuildAlerts } from '../features/alerts/store.ts';

/**
 * What happens to a server's data when the bot leaves it: the shard that sees the bot leave (`GuildDelete`)
 * writes down when, and so does a shard coming up for a server it holds data of but is no longer in (the
 * bot was removed while it was offline); a server that comes back (a kick and a re-invite) is struck off;
 * the worker removes the data of servers gone longer than the grace period from every table that holds
 * server data ({@link GUILD_TABLES}), and says so in the log. Seven days, so that a kick-and-reinvite loses
 * nothing.
 */
export const GUILD_DATA_GRACE_MS = 7 * 86_400_000;
/** Servers removed per purge; the rest wait for the next one (the purge runs hourly). */
const PURGE_BATCH = 200;

/**
 * How a table's rows of one server are found: `guild` by its `guild_id`; `subscription` by a
 * `subscription_id` of the server's subscriptions; `alerts` as price alerts are (`purgeGuildAlerts`: channel
 * alerts go; a DM alert belongs to its user and stays, cut from the server, while the user is still seen in
 * a server the bot has not left).
 */
export type GuildScope = 'guild' | 'subscription' | 'alerts';

/**
 * Every table that holds a server's data, in the order the purge empties them (rows found through the
 * subscriptions before the subscriptions). One list for the purge and for the start-up check: a table added
 * with a guild column must be named here (`test/guilds/coverage.test.ts` fails otherwise).
 */
export const GUILD_TABLES = {
  announcement_refs: 'subscription',
  deliveries: 'subscription',
  delivery_intents: 'subscription',
  reminder_runs: 'subscription',
  subscriptions: 'guild',
  kpd_keys: 'guild',
  kpd_feed_state: 'guild',
  guild_members: 'guild',
  role_grants: 'guild',
  role_rules: 'guild',
  price_alerts: 'alerts',
} as const satisfies Readonly<Record<string, GuildScope>>;

/** Tables with a guild column that are not a server's data: the departures themselves. */
export const NOT_GUILD_DATA: readonly string[] = ['guild_departures'];

type GuildTable = keyof typeof GUILD_TABLES;
const TABLES = Object.keys(GUILD_TABLES) as GuildTable[];

/** The rows of one server removed from each table. */
export type PurgeCounts = Partial<Record<GuildTable, number>> & { readonly alertsKept?: number };

export interface PurgedGuild {
  readonly guildId: string;
  readonly leftAt: number;
  readonly subscriptions: number;
  readonly kpdKey: boolean;
  /** Rows removed per table (tables with none left out), and DM alerts kept for their users. */
  readonly removed: PurgeCounts;
}

export class GuildDepartures {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The bot left (or was removed from) the guild at `at`; an earlier departure is kept. */
  async left(guildId: string, at: number): Promise<void> {
    await this.#db.kysely
      .insertInto('guild_departures')
      .values({ guild_id: guildId, left_at: at })
      .onConflict((c) => c.column('guild_id').doNothing())
      .execute();
  }

  /** The bot is in the guild (again): nothing of it is removed. */
  async returned(guildId: string): Promise<void> {
    await this.#db.kysely.deleteFrom('guild_departures').where('guild_id', '=', guildId).execute();
  }

  /** The bot is in all these guilds (a session's READY): a few statements, however many there are. */
  async returnedAll(guildIds: readonly string[]): Promise<void> {
    for (const chunk of statementChunks(guildIds)) {
      await this.#db.kysely.deleteFrom('guild_departures').where('guild_id', 'in', chunk).execute();
    }
  }

  /**
   * Every server some table holds data of ({@link GUILD_TABLES}): what a session's READY compares with the
   * servers it is in.
   */
  async knownGuildIds(): Promise<string[]> {
    const ids = new Set<string>();
    for (const table of TABLES) {
      if (GUILD_TABLES[table] === 'subscription') continue;
      const rows = await loose(this.#db.kysely)
        .selectFrom(table)
        .select('guild_id')
        .distinct()
        .where('guild_id', 'is not', null)
        .execute();
      for (const row of rows) if (row.guild_id !== null) ids.add(row.guild_id);
    }
    return [...ids];
  }

  /** When the bot left the guild, if it did and has not come back. */
  async leftAt(guildId: string): Promise<number | undefined> {
    const row = await this.#db.kysely
      .selectFrom('guild_departures')
      .select('left_at')
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return row?.left_at;
  }

  /** Removes the data of guilds left more than `graceMs` before `now`, a batch at a time. */
  async purge(now: number, log: Logger, graceMs = GUILD_DATA_GRACE_MS): Promise<PurgedGuild[]> {
    const due = await this.#db.kysely
      .selectFrom('guild_departures')
      .selectAll()
      .where('left_at', '<=', now - graceMs)
      .orderBy('left_at')
      .limit(PURGE_BATCH)
      .execute();
    const purged: PurgedGuild[] = [];
    for (const { guild_id: guildId, left_at: leftAt } of due) {
      const result = await this.#db.kysely.transaction().execute(async (tx) => {
        // Struck off first, and only if still due: a guild that came back meanwhile keeps everything.
        const still = await tx
          .deleteFrom('guild_departures')
          .where('guild_id', '=', guildId)
          .where('left_at', '<=', now - graceMs)
          .executeTakeFirst();
        if (Number(still.numDeletedRows) === 0) return undefined;
        return purgeGuild(tx, guildId);
      });
      if (result === undefined) continue;
      const summary = {
        subscriptions: result.subscriptions ?? 0,
        kpdKey: (result.kpd_keys ?? 0) > 0,
        removed: result,
      };
      if (summary.subscriptions > 0) await bumpSubscriptions(this.#db);
      purged.push({ guildId, leftAt, ...summary });
      log.info(
        { guildId, leftAt: new Date(leftAt).toISOString(), ...summary },
        'removed the data of a server the bot left more than the grace period ago',
      );
    }
    return purged;
  }
}

/** The tables of the list seen only through the columns that find a server's rows. */
type ServerRows = { readonly guild_id: string | null; readonly subscription_id: string };
function loose(k: Kysely<Tables>): Kysely<Record<GuildTable, ServerRows>> {
  return k as unknown as Kysely<Record<GuildTable, ServerRows>>;
}

/** Removes one server's rows from every table of {@link GUILD_TABLES}, inside the purge's transaction. */
async function purgeGuild(tx: Kysely<Tables>, guildId: string): Promise<PurgeCounts> {
  const counts: Partial<Record<GuildTable, number>> = {};
  let alertsKept = 0;
  const subscriptionIds = (
    await tx.selectFrom('subscriptions').select('id').where('guild_id', '=', guildId).execute()
  ).map((row) => row.id);
  for (const table of TABLES) {
    const scope: GuildScope = GUILD_TABLES[table];
    let removed = 0;
    if (scope === 'alerts') {
      const alerts = await purgeGuildAlerts(tx, guildId);
      removed = alerts.removed;
      alertsKept = alerts.kept;
    } else if (scope === 'guild') {
      const result = await loose(tx).deleteFrom(table).where('guild_id', '=', guildId).executeTakeFirst();
      removed = Number(result.numDeletedRows);
    } else {
      for (const chunk of statementChunks(subscriptionIds)) {
        const result = await loose(tx)
          .deleteFrom(table)
          .where('subscription_id', 'in', chunk)
          .executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
    }
    if (removed > 0) counts[table] = removed;
  }
  return alertsKept > 0 ? { ...counts, alertsKept } : counts;
}
