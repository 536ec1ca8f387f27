import type { Kysely, Migration } from 'kysely';

/**
 * Role grants become intents: a row is written (`adding`) before the bot asks Discord to give a role and
 * confirmed (`granted`) after, and marked `removing` before a role is taken back. A row that is not
 * `granted` is one whose Discord call may or may not have happened (the store stopped, the process died):
 * the next sync of the server settles it from the member's roles. Rows already there were confirmed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
type Db = Kysely<any>;

export const grantsMigration: Migration = {
  async up(db: Db) {
    await db.schema
      .alterTable('role_grants')
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('granted'))
      .execute();
    await db.schema
      .createIndex('role_grants_guild_state')
      .on('role_grants')
      .columns(['guild_id', 'state'])
      .execute();
  },
  async down(db: Db) {
    await db.schema.dropIndex('role_grants_guild_state').execute();
    await db.schema.alterTable('role_grants').dropColumn('state').execute();
  },
};
