import type { Logger } from 'pino';
import { statementChunks, type Database } from '../db/index.ts';
import { bumpSubscriptions } from '../announcements/records/subscriptions.ts';
import { purgeGuildAlerts } from '../alerts/store.ts';

/**
 * What happens to a server's data when the bot leaves it: the shard that sees the bot leave writes down
 * when; a server that comes back (a kick and a re-invite) is struck off; the worker removes the data of
 * servers gone longer than the grace period (subscriptions with their message refs, the linked KPD key
 * and its feed state), and says so in the log. Seven days, so that a kick-and-reinvite loses nothing.
 */
export const GUILD_DATA_GRACE_MS = 7 * 86_400_000;
/** Servers removed per purge; the rest wait for the next one (the purge runs hourly). */
const PURGE_BATCH = 200;

export interface PurgedGuild {
  readonly guildId: string;
  readonly leftAt: number;
  readonly subscriptions: number;
  readonly kpdKey: boolean;
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
        const ids = (
          await tx.selectFrom('subscriptions').select('id').where('guild_id', '=', guildId).execute()
        ).map((row) => row.id);
        if (ids.length > 0) {
          await tx.deleteFrom('announcement_refs').where('subscription_id', 'in', ids).execute();
          await tx.deleteFrom('subscriptions').where('guild_id', '=', guildId).execute();
        }
        const key = await tx.deleteFrom('kpd_keys').where('guild_id', '=', guildId).executeTakeFirst();
        await tx.deleteFrom('kpd_feed_state').where('guild_id', '=', guildId).execute();
        await tx.deleteFrom('guild_members').where('guild_id', '=', guildId).execute();
        await tx.deleteFrom('role_grants').where('guild_id', '=', guildId).execute();
        await tx.deleteFrom('role_rules').where('guild_id', '=', guildId).execute();
        await purgeGuildAlerts(tx, guildId);
        return { subscriptions: ids.length, kpdKey: Number(key.numDeletedRows) > 0 };
      });
      if (result === undefined) continue;
      if (result.subscriptions > 0) await bumpSubscriptions(this.#db);
      purged.push({ guildId, leftAt, ...result });
      log.info(
        { guildId, leftAt: new Date(leftAt).toISOString(), ...result },
        'removed the data of a server the bot left more than the grace period ago',
      );
    }
    return purged;
  }
}
