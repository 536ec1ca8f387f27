import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One game account, one Discord user: `account_links` learns the player's id (what identifies a player;
 * names change hands), a unique index on it, and two states of a link's roles: `suspended_at` (a refresh
 * found a different player under the linked name: no roles until the user verifies again) and
 * `missing_at` (no player has the name any more: only the link itself still counts).
 *
 * Existing links get the id the bot already knows for their name (the latest of `players`, else the
 * refresh schedule's); the others keep a null id (the unique index allows any number of them) until the
 * next refresh or verification. Where several links then name one player, the most recently verified one
 * stays and the others go: their roles are taken back by the next sync, which finds them unlinked.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;
const time = 'bigint';

async function up(db: Db): Promise<void> {
  await db.schema.alterTable('account_links').addColumn('player_id', 'bigint').execute();
  await db.schema.alterTable('account_links').addColumn('suspended_at', time).execute();
  await db.schema.alterTable('account_links').addColumn('missing_at', time).execute();

  await sql`
    update account_links set player_id = (
      select p.player_id from players p
      where p.name_key = lower(account_links.player_name)
      order by p.taken_at desc
      limit 1
    )
    where player_id is null`.execute(db);
  await sql`
    update account_links set player_id = (
      select f.player_id from followed_players f
      where f.name_key = lower(account_links.player_name)
    )
    where player_id is null`.execute(db);

  // The newest verification of each player wins (ties: the greater user id, so exactly one stays).
  await sql`
    delete from account_links
    where player_id is not null
      and exists (
        select 1 from account_links newer
        where newer.player_id = account_links.player_id
          and (
            newer.linked_at > account_links.linked_at
            or (newer.linked_at = account_links.linked_at and newer.user_id > account_links.user_id)
          )
      )`.execute(db);

  await db.schema
    .createIndex('account_links_player_id')
    .on('account_links')
    .column('player_id')
    .unique()
    .execute();
}

export const linksMigration: Migration = {
  up,
  async down(db) {
    await db.schema.dropIndex('account_links_player_id').execute();
    for (const column of ['missing_at', 'suspended_at', 'player_id'])
      await db.schema.alterTable('account_links').dropColumn(column).execute();
  },
};
