import type { REST } from 'discord.js';
import type { Services } from '../../services.ts';
import type { PlayerProfile } from '../../api/schemas/index.ts';
import type { RefreshHook } from '../../players/followed.ts';
import { statsOf } from '../../players/stats.ts';
import type { FreshNumbers } from '../../players/accounts.ts';
import { linksAfterMissing, linksAfterRefresh } from '../../players/link-refresh.ts';
import { RoleSyncer } from './sync.ts';

/** The most users one refresh brings in line (one per id, more only for names linked before ids). */
const MAX_USERS_PER_REFRESH = 100;

/**
 * After `/link verify` or `/unlink`: the user's roles follow at once, in every server where the bot has
 * seen them and that has rules (the one the command ran in first of all). A failure is logged, never the
 * command's: the next refresh or `/roles sync` brings the roles in line.
 */
export async function syncAfterLinkChange(
  services: Pick<Services, 'db' | 'records' | 'clock' | 'log'>,
  rest: REST,
  userId: string,
  guildId: string | null,
  fresh?: FreshNumbers,
): Promise<void> {
  try {
    if (guildId !== null) await services.records.players.members.seen(guildId, userId, services.clock.now());
    const syncer = new RoleSyncer({ db: services.db, rest, clock: services.clock, log: services.log });
    const changes = await syncer.syncUser(userId, fresh);
    if (changes > 0) services.log.info({ userId, changes }, 'roles follow a link change');
  } catch (error) {
    services.log.warn({ err: error, userId }, 'could not sync roles after a link change');
  }
}

/**
 * What the players feed calls after each background refresh of a player: the links learn what the
 * refresh found (the same player, another one under the name, a rename, a player gone: `link/refresh.ts`)
 * and the roles of their users follow the numbers just read (no request of their own, but the one that
 * asks the game the current name of a linked player whose name it no longer finds).
 */
export function rolesFollowRefresh(
  services: Pick<Services, 'db' | 'clock' | 'log' | 'api'>,
  rest: REST,
): RefreshHook {
  const syncer = new RoleSyncer({ db: services.db, rest, clock: services.clock, log: services.log });
  const follow = async (userIds: readonly string[], fresh?: FreshNumbers) => {
    for (const userId of userIds.slice(0, MAX_USERS_PER_REFRESH)) await syncer.syncUser(userId, fresh);
  };
  const found = async (profile: PlayerProfile, requestedName?: string) => {
    try {
      const users = await linksAfterRefresh(
        services.db,
        profile,
        requestedName ?? profile.player_name,
        services.clock.now(),
      );
      await follow(users, {
        playerName: profile.player_name,
        playerId: profile.player_id,
        stats: statsOf(profile),
      });
    } catch (error) {
      services.log.warn({ err: error }, 'could not sync roles after a refresh');
    }
  };
  const missing = async (playerName: string) => {
    try {
      await follow(await linksAfterMissing(services, playerName, services.clock.now()));
    } catch (error) {
      services.log.warn({ err: error }, 'could not sync roles after a player was not found');
    }
  };
  return Object.assign(found, { missing });
}
