import type { ChatInputCommandInteraction } from 'discord.js';
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import { UserError } from '../core/user-error.ts';
import { statementChunks, type Database } from '../db/index.ts';
import { isConstraintViolation } from '../db/guard.ts';
import { FollowedPlayers } from './followed.ts';
import { DAY_MS, nameKey, parseStats, SnapshotStore } from './snapshots.ts';
import type { SnapshotStats } from './stats.ts';

/** A verified link of a Discord user to a game account (written by `/link verify`). */
export interface AccountLink {
  readonly playerName: string;
  /** The player's id (what identifies the account); absent on links made before ids were kept. */
  readonly playerId?: number | undefined;
  readonly linkedAt: number;
  /** When a refresh found a different player under the linked name: no roles until verified again. */
  readonly suspendedAt?: number | undefined;
  /** When the last refresh found no player of that name: no roles by numbers. */
  readonly missingAt?: number | undefined;
}

/** What saving a verified link did: the users whose link to the same player it replaced. */
export interface LinkSaved {
  readonly movedFrom: readonly string[];
}

/**
 * Numbers older than this give no clan, MMR or level role: an account nobody refreshed for a month (the
 * bot stopped following it, the game lost it) no longer speaks for its player. The `verified` role stays
 * while the link stands.
 */
export const STALE_AFTER_MS = 30 * DAY_MS;

/** The first key of the PostgreSQL advisory locks that order verifications of one player. */
const LOCK_SPACE = 0x6b_66_00_01;

/** Tries of a verification that met a concurrent write of the same player (each try moves the link). */
const SAVE_TRIES = 3;

/**
 * The `account_links` table: one row per Discord user, and at most one per game account (a unique index
 * on the player's id). A second verification of the same player moves the link: the newest proof of
 * ownership wins, so that an account survives the loss of its Discord account.
 */
export class AccountLinks {
  readonly #services: Pick<Services, 'db'>;

  constructor(services: Pick<Services, 'db'>) {
    this.#services = services;
  }

  get #k() {
    return this.#services.db.kysely;
  }

  async get(userId: string): Promise<AccountLink | undefined> {
    const row = await this.#k
      .selectFrom('account_links')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (
      row && {
        playerName: row.player_name,
        linkedAt: row.linked_at,
        ...(row.player_id === null ? {} : { playerId: row.player_id }),
        ...(row.suspended_at === null ? {} : { suspendedAt: row.suspended_at }),
        ...(row.missing_at === null ? {} : { missingAt: row.missing_at }),
      }
    );
  }

  /**
   * Saves a verified link (a fresh one: not suspended, not missing); the linked player joins the
   * background's refresh schedule. Any other user's link to the same player (by id, or by name where the
   * id is not known) is removed, in the same transaction. Two verifications at once still leave one link:
   * they take turns (SQLite's one transaction at a time, a lock per player on PostgreSQL), and a write the
   * unique index still refuses (a refresh learning the id meanwhile) tries again, moving the link.
   */
  async set(userId: string, link: AccountLink): Promise<void> {
    await this.save(userId, link);
  }

  /** {@link set}, saying whose link it moved. */
  async save(userId: string, link: AccountLink): Promise<LinkSaved> {
    const values = {
      player_name: link.playerName,
      player_id: link.playerId ?? null,
      linked_at: link.linkedAt,
      suspended_at: null,
      missing_at: null,
    };
    let movedFrom: string[] = [];
    for (let attempt = 1; ; attempt += 1) {
      try {
        movedFrom = await this.#k.transaction().execute(async (tx) => {
          // PostgreSQL: verifications of one player wait for each other (SQLite runs one transaction at a
          // time anyway); the unique index stays the guarantee, this only spares them failing against it.
          if (link.playerId !== undefined && this.#services.db.kind === 'postgres')
            await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${link.playerId % 2_147_483_647})`.execute(
              tx,
            );
          // Without an id (a link of release 0.1 moved in) there is nothing to tell one account by.
          const moved =
            link.playerId === undefined
              ? []
              : (
                  await tx
                    .selectFrom('account_links')
                    .select('user_id')
                    .where('user_id', '!=', userId)
                    .where((eb) =>
                      eb.or([
                        eb('player_id', '=', link.playerId ?? null),
                        eb.and([eb('player_id', 'is', null), eb('player_name', '=', link.playerName)]),
                      ]),
                    )
                    .limit(1_000)
                    .execute()
                ).map((row) => row.user_id);
          for (const chunk of statementChunks(moved))
            await tx.deleteFrom('account_links').where('user_id', 'in', chunk).execute();
          await tx
            .insertInto('account_links')
            .values({ user_id: userId, ...values })
            .onConflict((c) => c.column('user_id').doUpdateSet(values))
            .execute();
          return moved;
        });
        break;
      } catch (error) {
        if (!isConstraintViolation(error) || attempt >= SAVE_TRIES) throw error;
      }
    }
    await new FollowedPlayers(this.#services.db).follow([link.playerName]);
    return { movedFrom };
  }

  /** True when a link was removed. */
  async delete(userId: string): Promise<boolean> {
    const result = await this.#k.deleteFrom('account_links').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export function accountLinks(services: Pick<Services, 'db'>): AccountLinks {
  return new AccountLinks(services);
}

/** Numbers just read for a player (a refresh), used before they are stored. */
export interface FreshNumbers {
  readonly playerName: string;
  readonly playerId?: number | undefined;
  readonly stats: SnapshotStats;
}

/** What a member's game account looks like to the role rules: no link, or a link and its latest numbers. */
export interface Account {
  readonly playerName: string;
  /** Undefined while no snapshot of the player exists (only `verified` can hold then). */
  readonly stats: SnapshotStats | undefined;
}

/**
 * What role sync sees of these users' accounts: their links that are not suspended (a suspended link is
 * no link), each with the latest numbers of its player, found by the player's id (by name only for links
 * made before ids were kept). Numbers of a player no longer found, or older than {@link STALE_AFTER_MS},
 * are none: only the `verified` rule can hold then.
 */
export async function linkedAccounts(
  db: Database,
  userIds: readonly string[],
  now: number,
  fresh?: FreshNumbers,
): Promise<Map<string, Account>> {
  const links: Array<{ userId: string; playerName: string; playerId: number | undefined; missing: boolean }> =
    [];
  for (const chunk of statementChunks(userIds)) {
    const rows = await db.kysely
      .selectFrom('account_links')
      .select(['user_id', 'player_name', 'player_id', 'missing_at'])
      .where('user_id', 'in', chunk)
      .where('suspended_at', 'is', null)
      .execute();
    for (const row of rows)
      links.push({
        userId: row.user_id,
        playerName: row.player_name,
        playerId: row.player_id ?? undefined,
        missing: row.missing_at !== null,
      });
  }
  const byId = new Map<number, { at: number; stats: SnapshotStats | undefined }>();
  const ids = [...new Set(links.flatMap((link) => (link.playerId === undefined ? [] : [link.playerId])))];
  for (const chunk of statementChunks(ids)) {
    const rows = await db.kysely
      .selectFrom('players')
      .select(['player_id', 'taken_at', 'stats'])
      .where('player_id', 'in', chunk)
      .execute();
    for (const row of rows) byId.set(row.player_id, { at: row.taken_at, stats: parseStats(row.stats) });
  }
  const byName = await new SnapshotStore(db).latestByNames(
    links.filter((link) => link.playerId === undefined).map((link) => link.playerName),
  );
  const accounts = new Map<string, Account>();
  for (const link of links) {
    const freshHere =
      fresh !== undefined &&
      (link.playerId === undefined
        ? nameKey(fresh.playerName) === nameKey(link.playerName)
        : fresh.playerId === link.playerId);
    const latest =
      link.playerId === undefined ? byName.get(nameKey(link.playerName)) : byId.get(link.playerId);
    const stats = link.missing
      ? undefined
      : freshHere
        ? fresh.stats
        : latest && latest.at >= now - STALE_AFTER_MS
          ? latest.stats
          : undefined;
    accounts.set(link.userId, { playerName: link.playerName, stats });
  }
  return accounts;
}

/**
 * The player a command is about: the name given (the command's option) when there is one, else the
 * name the user linked, else an error that says how to give one.
 */
export async function resolvePlayerName(
  interaction: Pick<ChatInputCommandInteraction, 'user'>,
  services: Pick<Services, 'db'>,
  name: string | undefined,
): Promise<string> {
  const given = name?.trim();
  if (given) return given;
  const link = await accountLinks(services).get(interaction.user.id);
  if (link) return link.playerName;
  throw new UserError('common:errors.nameRequired');
}
