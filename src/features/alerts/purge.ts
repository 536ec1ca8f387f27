import type { Kysely } from 'kysely';
import type { Tables } from '../../db/index.ts';
import type { AlertTables } from '../../db/migrations/alerts-owner.ts';

/**
 * A server's alerts when its data goes (`src/guilds/departures.ts`, inside the purge's transaction): its
 * channel alerts are removed; a DM alert made there belongs to its user and is kept, cut from the server,
 * when the user is still tied to the bot (seen in a server the bot has not left); otherwise the server was
 * its only tie, and it goes. Returns how many were removed and kept.
 */
export async function purgeGuildAlerts(
  tx: Kysely<Tables>,
  guildId: string,
): Promise<{ removed: number; kept: number }> {
  const k = tx as unknown as Kysely<AlertTables & Pick<Tables, 'guild_members' | 'guild_departures'>>;
  const kept = await k
    .updateTable('price_alerts')
    .set({ guild_id: null })
    .where('guild_id', '=', guildId)
    .where('channel_id', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('guild_members as m')
          .select('m.user_id')
          .whereRef('m.user_id', '=', 'price_alerts.user_id')
          .where('m.guild_id', '!=', guildId)
          .where((inner) =>
            inner.not(
              inner.exists(
                inner
                  .selectFrom('guild_departures as d')
                  .select('d.guild_id')
                  .whereRef('d.guild_id', '=', 'm.guild_id'),
              ),
            ),
          ),
      ),
    )
    .executeTakeFirst();
  const removed = await k.deleteFrom('price_alerts').where('guild_id', '=', guildId).executeTakeFirst();
  await pruneSkinsIn(k as unknown as Kysely<AlertTables>);
  return { removed: Number(removed.numDeletedRows), kept: Number(kept.numUpdatedRows) };
}

/** Forgets the prices of skins no alert watches any more. */
export async function pruneSkinsIn(k: Kysely<AlertTables>): Promise<void> {
  await k
    .deleteFrom('price_alert_skins')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('price_alerts')
            .select('id')
            .whereRef('price_alerts.skin_index', '=', 'price_alert_skins.skin_index'),
        ),
      ),
    )
    .execute();
}
