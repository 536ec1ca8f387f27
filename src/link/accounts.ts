import type { ChatInputCommandInteraction } from 'discord.js';
import type { Services } from '../services.ts';
import { UserError } from '../core/user-error.ts';

/** A verified link of a Discord user to a game account (written by `/link verify`). */
export interface AccountLink {
  readonly playerName: string;
  readonly linkedAt: number;
}

export function accountLinks(services: Pick<Services, 'store'>) {
  return services.store.namespace<AccountLink>('links');
}

/**
 * The player a command is about: the name given (the command's option) when there is one, else the
 * name the user linked, else an error that says how to give one.
 */
export async function resolvePlayerName(
  interaction: Pick<ChatInputCommandInteraction, 'user'>,
  services: Pick<Services, 'store'>,
  name: string | undefined,
): Promise<string> {
  const given = name?.trim();
  if (given) return given;
  const link = await accountLinks(services).get(interaction.user.id);
  if (link) return link.playerName;
  throw new UserError('common:errors.nameRequired');
}
