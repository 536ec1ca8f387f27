import type { ChatInputCommandInteraction } from 'discord.js';
import type { Services } from '../services.ts';
import { UserError } from '../core/user-error.ts';
import { FollowedPlayers } from '../history/followed.ts';

/** A verified link of a Discord user to a game account (written by `/link verify`). */
export interface AccountLink {
  readonly playerName: string;
  readonly linkedAt: number;
}

/** The `account_links` table: one row per Discord user, indexed by player name too. */
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
    return row && { playerName: row.player_name, linkedAt: row.linked_at };
  }

  /** Saves the link; the linked player joins the background's refresh schedule (its snapshots). */
  async set(userId: string, link: AccountLink): Promise<void> {
    const values = { player_name: link.playerName, linked_at: link.linkedAt };
    await this.#k
      .insertInto('account_links')
      .values({ user_id: userId, ...values })
      .onConflict((c) => c.column('user_id').doUpdateSet(values))
      .execute();
    await new FollowedPlayers(this.#services.db).follow([link.playerName]);
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
