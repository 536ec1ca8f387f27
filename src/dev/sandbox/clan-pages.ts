import { MARKDOWN_CLAN } from './names.ts';
import { Rng, hashSeed } from './prng.ts';
import type { Clan } from './world/types.ts';

/**
 * What a clan's page shows besides its roster: its message of the day and how it splits turf earnings.
 * The markdown clan's are hostile on purpose (markup, mentions, a masked link, an unknown split mode), so
 * the bot's escaping is exercised end to end.
 */
export const HOSTILE_MOTD =
  '**Raid tonight** @everyone <@123> [join](https://e.vil)\n# be there\n> `code` ||spoiler|| <#456>';
export const HOSTILE_LOOT_MODE = '**greedy** @here';

export function clanMotd(clan: Clan): string {
  return clan.name === MARKDOWN_CLAN ? HOSTILE_MOTD : clan.motd;
}

/** `{clan_id, mode, leader_share, member_share}` (docs/api-shapes.md), seeded per clan. */
export function clanLootConfig(seed: number, clan: Clan): Record<string, unknown> {
  const rng = new Rng(hashSeed(seed, 'loot', clan.id));
  const leaderShare = rng.int(0, 30);
  const mode = rng.pick(['points', 'equal']);
  return {
    clan_id: clan.id,
    mode: clan.name === MARKDOWN_CLAN ? HOSTILE_LOOT_MODE : mode,
    leader_share: leaderShare,
    member_share: 100 - leaderShare,
  };
}
