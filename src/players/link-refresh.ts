import { NotFoundError } from '../api/errors.ts';
import type { Services } from '../services.ts';
import { statementChunks, type Database } from '../db/index.ts';
import { isConstraintViolation } from '../db/guard.ts';
import { FollowedPlayers } from './followed.ts';

/**
 * What a background refresh of a linked player means for the links: roles follow the player (its id), not
 * the name. The refresh reads the profile by the linked name, so:
 * - the same id under the name: the link holds (its stored name takes the profile's spelling);
 * - a link made before ids were kept learns the id (where several name one player, the most recently
 *   verified stays, as the upgrade did);
 * - a different id under the name: someone else has the name now, and the link is suspended until its
 *   user verifies again (role sync treats it as no link);
 * - no player of that name: the bot asks the game for the current name of the linked id (the turf API
 *   resolves an id to its name); a renamed account keeps its link under the new name, a vanished one is
 *   marked missing (no roles by numbers).
 * Each returns the users whose roles must follow (including those whose link went).
 */

/** The most links one name or id is looked at for (the unique index allows one per id; names are free). */
const MAX_LINKS = 100;

interface LinkRow {
  readonly user_id: string;
  readonly player_name: string;
  readonly player_id: number | null;
  readonly linked_at: number;
  readonly suspended_at: number | null;
  readonly missing_at: number | null;
}

async function deleteLinks(db: Database, userIds: readonly string[]): Promise<void> {
  for (const chunk of statementChunks(userIds))
    await db.kysely.deleteFrom('account_links').where('user_id', 'in', chunk).execute();
}

/** After a profile was read under the linked name. */
export async function linksAfterRefresh(
  db: Database,
  profile: { readonly player_id: number; readonly player_name: string },
  requestedName: string,
  now: number,
): Promise<string[]> {
  const id = profile.player_id;
  const names = [...new Set([requestedName, profile.player_name])];
  const rows: LinkRow[] = await db.kysely
    .selectFrom('account_links')
    .select(['user_id', 'player_name', 'player_id', 'linked_at', 'suspended_at', 'missing_at'])
    .where((eb) => eb.or([eb('player_name', 'in', names), eb('player_id', '=', id)]))
    .limit(MAX_LINKS)
    .execute();
  const affected = rows.map((row) => row.user_id);

  const others = rows.filter((row) => row.player_id !== null && row.player_id !== id);
  const toSuspend = others.filter((row) => row.suspended_at === null).map((row) => row.user_id);
  for (const chunk of statementChunks(toSuspend))
    await db.kysely
      .updateTable('account_links')
      .set({ suspended_at: now })
      .where('user_id', 'in', chunk)
      .execute();

  // The links of this player: one by id at most, and any made before ids were kept under its name.
  const mine = rows
    .filter((row) => row.player_id === id || row.player_id === null)
    .sort((a, b) => b.linked_at - a.linked_at || (a.user_id < b.user_id ? 1 : -1));
  const [keeper, ...dropped] = mine;
  if (keeper === undefined) return affected;
  await deleteLinks(
    db,
    dropped.map((row) => row.user_id),
  );
  try {
    await db.kysely
      .updateTable('account_links')
      .set({ player_id: id, player_name: profile.player_name, missing_at: null })
      .where('user_id', '=', keeper.user_id)
      .execute();
  } catch (error) {
    // A verification of the same player got there first: its link is the newest proof, and this one goes.
    if (!isConstraintViolation(error)) throw error;
    await deleteLinks(db, [keeper.user_id]);
  }
  if (keeper.player_name !== profile.player_name) await new FollowedPlayers(db).follow([profile.player_name]);
  return affected;
}

/** After the linked name was not found: renamed (the link follows the new name) or gone (missing). */
export async function linksAfterMissing(
  services: Pick<Services, 'db' | 'api'>,
  playerName: string,
  now: number,
): Promise<string[]> {
  const { db } = services;
  const rows = await db.kysely
    .selectFrom('account_links')
    .select(['user_id', 'player_id'])
    .where('player_name', '=', playerName)
    .where('suspended_at', 'is', null)
    .limit(MAX_LINKS)
    .execute();
  const missing: string[] = [];
  for (const row of rows) {
    const current = row.player_id === null ? undefined : await currentName(services, row.player_id);
    if (current === undefined || current === playerName) {
      missing.push(row.user_id);
      continue;
    }
    await db.kysely
      .updateTable('account_links')
      .set({ player_name: current, missing_at: null })
      .where('user_id', '=', row.user_id)
      .execute();
    await new FollowedPlayers(db).follow([current]);
  }
  for (const chunk of statementChunks(missing))
    await db.kysely
      .updateTable('account_links')
      .set({ missing_at: now })
      .where('user_id', 'in', chunk)
      .where('missing_at', 'is', null)
      .execute();
  return rows.map((row) => row.user_id);
}

/** The name the game knows this player id by now; undefined when it knows none. */
async function currentName(services: Pick<Services, 'api'>, playerId: number): Promise<string | undefined> {
  try {
    const player = await services.api.call(
      'turfPlayer',
      { playerId },
      { priority: 'background', fresh: true },
    );
    return player.player_id === playerId ? player.player_name : undefined;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
