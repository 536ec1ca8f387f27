import type { SandboxContext } from '../context.ts';
import { intQuery, notFound, optionalIntQuery, pageOf, pageQuery, type Route } from '../http.ts';
import { clanLootConfig, clanMotd } from '../clan-pages.ts';
import { iso } from '../time.ts';
import type { Clan } from '../world/types.ts';
import { clanById, route } from './common.ts';

function clanPublic(ctx: SandboxContext, clan: Clan): Record<string, unknown> {
  return {
    clan_id: clan.id,
    name: clan.name,
    owner_name: clan.ownerName,
    score: ctx.index.clanScore(clan.id),
    member_count: clan.members.length,
    created_at: iso(clan.createdAtMs),
    members: clan.members
      .map((m) => ({ n: m.playerName, r: m.role, s: ctx.index.playerById(m.playerId)?.stats.score ?? 0 }))
      .sort((a, b) => b.r - a.r || b.s - a.s),
  };
}

export function clanRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  const seed = world.seed;
  return [
    route('/clans/by-name/{name}', ({ params }) => {
      const clan = index.clan(params['name'] ?? '');
      if (!clan) throw notFound('Clan');
      return clanPublic(ctx, clan);
    }),
    route('/clans/{id}/profile', ({ params }) => clanPublic(ctx, clanById(index, params['id']))),
    route('/clans/{id}/loot-config', ({ params }) => clanLootConfig(seed, clanById(index, params['id']))),
    route('/clans/{id}/motd', ({ params }) => ({ motd: clanMotd(clanById(index, params['id'])) })),
    route('/clans/recruitment', ({ query }) => {
      const page = pageQuery(query);
      const limit = intQuery(query, 'limit', { min: 1, max: 50, fallback: 10 });
      const region = optionalIntQuery(query, 'region', 0);
      const language = query.get('language') ?? '';
      const clans = world.clans.filter(
        (c) =>
          c.recruiting &&
          (region === undefined || c.region === region) &&
          (language === '' || c.language === language),
      );
      return {
        page,
        limit,
        clans: pageOf(clans, page, limit).map((c) => ({
          clan_id: c.id,
          name: c.name,
          region: c.region,
          language: c.language,
          member_count: c.members.length,
        })),
      };
    }),
  ];
}
