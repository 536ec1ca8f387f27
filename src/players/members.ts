import { OncePerPeriod } from '../core/once-per.ts';
import type { Database } from '../db/index.ts';
import { DAY_MS } from './snapshots.ts';

/** The most rows one server's leaderboard reads (its linked members). */
export const MAX_LEADERBOARD_MEMBERS = 5_000;
/** Pairs remembered as written today, to save a write per command; oldest forgotten first. */
const REMEMBERED_PAIRS = 20_000;

export interface LinkedMember {
  readonly userId: string;
  readonly playerName: string;
}

/**
 * Who of a server's members the bot has seen there (the gateway session has no member list: the bot asks
 * for no privileged intent). A member is seen when they use a command in the server; a member Discord
 * says has left (10007) is forgotten, and a server's rows go with the rest of its data after it leaves.
 */
export class GuildMembers {
  readonly #db: Database;
  readonly #written = new OncePerPeriod<string>(REMEMBERED_PAIRS);

  constructor(db: Database) {
    this.#db = db;
  }

  /** Notes that the user is in the guild (at most one write a day per pair and process). */
  async seen(guildId: string, userId: string, now: number): Promise<void> {
    if (!this.#written.mark(`${guildId}:${userId}`, Math.floor(now / DAY_MS))) return;
    await this.#db.kysely
      .insertInto('guild_members')
      .values({ guild_id: guildId, user_id: userId, seen_at: now })
      .onConflict((c) => c.columns(['guild_id', 'user_id']).doUpdateSet({ seen_at: now }))
      .execute();
  }

  async forget(guildId: string, userId: string): Promise<void> {
    this.#written.forget(`${guildId}:${userId}`);
    await this.#db.kysely
      .deleteFrom('guild_members')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** The guild's members seen here who have a verified link, not suspended, at most {@link MAX_LEADERBOARD_MEMBERS}. */
  async linked(guildId: string): Promise<LinkedMember[]> {
    const rows = await this.#db.kysely
      .selectFrom('guild_members')
      .innerJoin('account_links', 'account_links.user_id', 'guild_members.user_id')
      .select(['guild_members.user_id as userId', 'account_links.player_name as playerName'])
      .where('guild_members.guild_id', '=', guildId)
      // A suspended link (another player now has the name) ranks nobody until its user verifies again.
      .where('account_links.suspended_at', 'is', null)
      .orderBy('guild_members.seen_at', 'desc')
      .limit(MAX_LEADERBOARD_MEMBERS)
      .execute();
    return rows;
  }
}
