import type { REST } from 'discord.js';
import type { Services } from '../services.ts';
import type { PlayerProfile } from '../api/schemas/index.ts';
import { GuildMembers } from '../history/members.ts';
import { statsOf } from '../history/stats.ts';
import { RoleSyncer } from './sync.ts';

/**
 * After `/link verify` or `/unlink`: the user's roles follow at once, in every server where the bot has
 * seen them and that has rules (the one the command ran in first of all). A failure is logged, never the
 * command's: the next refresh or `/roles sync` brings the roles in line.
 */
export async function syncAfterLinkChange(
  services: Pick<Services, 'db' | 'clock' | 'log'>,
  rest: REST,
  userId: string,
  guildId: string | null,
): Promise<void> {
  try {
    if (guildId !== null) await new GuildMembers(services.db).seen(guildId, userId, services.clock.now());
    const syncer = new RoleSyncer({ db: services.db, rest, clock: services.clock, log: services.log });
    const changes = await syncer.syncUser(userId);
    if (changes > 0) services.log.info({ userId, changes }, 'roles follow a link change');
  } catch (error) {
    services.log.warn({ err: error, userId }, 'could not sync roles after a link change');
  }
}

/**
 * What the players feed calls after each background refresh of a player: the roles of the users linked
 * to it follow the numbers just read (no request of their own).
 */
export function rolesFollowRefresh(
  services: Pick<Services, 'db' | 'clock' | 'log'>,
  rest: REST,
): (profile: PlayerProfile) => Promise<void> {
  const syncer = new RoleSyncer({ db: services.db, rest, clock: services.clock, log: services.log });
  return async (profile) => {
    try {
      await syncer.syncPlayer(profile.player_name, statsOf(profile));
    } catch (error) {
      services.log.warn({ err: error }, 'could not sync roles after a refresh');
    }
  };
}
