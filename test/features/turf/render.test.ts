import { describe, expect, it } from 'vitest';
import {
  TurfClanEarningsSchema,
  TurfClanPlayersSchema,
  TurfClanSchema,
  TurfPlayerContributionsSchema,
  TurfPlayerEarningsSchema,
  TurfPlayerSchema,
  TurfStatusSchema,
} from '../../../src/api/schemas/index.ts';
import { Colors } from '../../../src/render/payload.ts';
import {
  RECENT_DAYS,
  TOP_CONTRIBUTORS,
  dayDate,
  mapLabel,
  renderTurfClan,
  renderTurfPlayer,
  renderTurfStatus,
  summarizeContributions,
} from '../../../src/features/turf/render.ts';
import { TURF_MAP_IDS } from '../../../src/dev/sandbox/index.ts';
import { turfDay, turfDayDate } from '../../../src/api/turf-days.ts';
import {
  HOSTILE,
  LONG_HOSTILE,
  embedOf,
  expectSafe,
  requireField,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const TODAY = 64;

const { en, de } = translators;
const live = useSandboxApi({ now: () => NOW }, 'none');

const escaped = (name: string) => name.replaceAll('_', '\\_');

describe('turf status', () => {
  it('renders every sandbox turf map by name with its holder and top five clans', async () => {
    const status = await live.client.api.turfStatus();
    const payload = renderTurfStatus(en, { status, now: NOW });
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.title).toBe('Turf wars');
    expect(embed.description).toBe(`Today: Day 64 (May 20) · ends <t:${turfDayDate(TODAY + 1) / 1000}:R>`);
    expect(embed.fields?.map((f) => f.name.replace(/^\S+ /, ''))).toEqual(['Burg', 'Sandstorm', 'Subzero']);
    for (const map of status.maps) {
      const value = requireField(embed, `${map.owner ? '👑' : '🏳️'} ${mapLabel(en, map.map_id)}`);
      const rows = value.split('\n');
      expect(rows[0]).toBe(
        map.owner ? `Held by **${escaped(map.owner.clan_name)}**` : 'Nobody holds this map today.',
      );
      expect(rows.slice(1)).toHaveLength(Math.min(5, map.top_clans?.length ?? 0) || 1);
      const top = map.top_clans?.[0];
      if (top) expect(rows[1]).toBe(`1. **${escaped(top.clan_name)}** · ${en.n(top.points ?? 0)} pts`);
    }
    const held = status.maps.filter((m) => m.owner).length;
    expect(embed.color).toBe(held > 0 ? Colors.gold : Colors.neutral);
    expect(embed.footer?.text).toBe(`${held} of ${TURF_MAP_IDS.length} maps held · today's points`);
  });

  it('names unknown maps by id, shows unheld maps, and escapes hostile clan names', () => {
    const status = TurfStatusSchema.parse({
      maps: [
        { map_id: 7, owner: null, top_clans: [] },
        {
          map_id: 0,
          owner: { clan_id: 1, clan_name: LONG_HOSTILE },
          top_clans: Array.from({ length: 8 }, (_, i) => ({
            clan_id: i,
            clan_name: LONG_HOSTILE,
            position: i + 1,
            points: i,
          })),
        },
      ],
    });
    const payload = renderTurfStatus(en, { status, now: NOW });
    expectSafe(payload);
    const embed = embedOf(payload);
    // No `day` in the reply: the bot's own count is used.
    expect(embed.description).toContain('Day 64');
    expect(embed.fields?.[0]?.name).toBe('👑 Burg');
    expect(embed.fields?.[0]?.value.split('\n')).toHaveLength(6);
    expect(embed.fields?.[1]).toMatchObject({ name: '🏳️ Map 7' });
    expect(embed.fields?.[1]?.value).toBe('Nobody holds this map today.\nNo clan has scored here today.');
  });

  it('says so when there are no maps, in German too', () => {
    const status = TurfStatusSchema.parse({ day: 3, maps: [] });
    for (const t of [en, de]) {
      const payload = renderTurfStatus(t, { status, now: NOW });
      expectSafe(payload);
      expect(embedOf(payload).description).toContain(t.t('turf:status.noMaps'));
      expect(embedOf(payload).color).toBe(Colors.neutral);
    }
    expect(embedOf(renderTurfStatus(de, { status, now: NOW })).title).toBe('Revierkämpfe');
  });
});

describe('turf clan', () => {
  async function clanView(clanName: string) {
    const { clan_id: clanId } = await live.client.api.clanByName({ clanName });
    return {
      clan: await live.client.api.turfClan({ clanId }),
      earnings: await live.client.api.turfClanEarnings({ clanId }),
      players: await live.client.api.turfClanPlayers({ clanId }),
      now: NOW,
    };
  }

  it('renders a sandbox clan that holds a map: gold, its maps, earnings, total and top contributors', async () => {
    const status = await live.client.api.turfStatus();
    const holder = status.maps.find((m) => m.owner)?.owner;
    if (!holder) throw new Error('the sandbox has no turf holder today');
    const view = await clanView(holder.clan_name);
    const payload = renderTurfClan(en, view);
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.title).toBe(`Turf wars · ${escaped(holder.clan_name)}`);
    expect(embed.color).toBe(Colors.gold);
    const maps = requireField(embed, 'Maps held').split('\n');
    expect(maps).toEqual((view.clan.maps_owned ?? []).map((id) => `👑 ${mapLabel(en, id)}`));
    const earnings = requireField(embed, 'Earnings (recent days)').split('\n');
    const paid = view.earnings.days.filter((d) => (d.kr ?? 0) > 0);
    expect(earnings).toHaveLength(Math.min(RECENT_DAYS, paid.length));
    const newest = [...paid].sort((a, b) => b.day - a.day)[0]!;
    expect(earnings[0]).toBe(
      `Day ${newest.day} (${dayDate(en, newest.day)}) · **${en.n(newest.kr ?? 0)}** KR`,
    );
    const total = view.earnings.days.reduce((sum, d) => sum + (d.kr ?? 0), 0);
    expect(requireField(embed, 'Earned this season')).toBe(`${en.n(total)} KR`);
    const contributors = requireField(embed, 'Top contributors · Day 64 (May 20)').split('\n');
    expect(contributors.length).toBeLessThanOrEqual(TOP_CONTRIBUTORS);
    const best = [...view.players.players].sort((a, b) => (b.points ?? 0) - (a.points ?? 0))[0]!;
    expect(contributors[0]).toContain(
      `1. **${escaped(best.player_name ?? '')}** · ${en.n(best.points ?? 0)} pts`,
    );
    expect(embed.footer?.text).toBe(`Clan #${view.clan.clan_id}`);
  });

  it('shows one crown a held map, and no line for a day that paid nothing', () => {
    const status = renderTurfStatus(en, {
      status: TurfStatusSchema.parse({
        maps: [{ map_id: 0, owner: { clan_id: 1, clan_name: 'APEX' }, top_clans: [] }],
      }),
      now: NOW,
    });
    const field = embedOf(status).fields?.[0];
    expect(`${field?.name}\n${field?.value}`.match(/👑/g)).toHaveLength(1);

    const payload = renderTurfClan(en, {
      clan: TurfClanSchema.parse({ clan_id: 9, clan_name: 'C', position: 3, points: 10, maps_owned: [] }),
      earnings: TurfClanEarningsSchema.parse({
        clan_id: 9,
        days: [
          { day: TODAY - 1, kr: 0 },
          { day: TODAY - 2, kr: 250 },
          { day: TODAY - 3, kr: 0 },
        ],
      }),
      players: TurfClanPlayersSchema.parse({ clan_id: 9, players: [] }),
      now: NOW,
    });
    expect(requireField(embedOf(payload), 'Earnings (recent days)')).toBe(
      `Day ${TODAY - 2} (${dayDate(en, TODAY - 2)}) · **250** KR`,
    );
    const none = renderTurfClan(en, {
      clan: TurfClanSchema.parse({ clan_id: 9, clan_name: 'C', position: 3, points: 10, maps_owned: [] }),
      earnings: TurfClanEarningsSchema.parse({ clan_id: 9, days: [{ day: TODAY - 1, kr: 0 }] }),
      players: TurfClanPlayersSchema.parse({ clan_id: 9, players: [] }),
      now: NOW,
    });
    expect(requireField(embedOf(none), 'Earnings (recent days)')).toBe('No earnings this season yet.');
  });

  it('renders the sample clan (info colour when it holds nothing) and in German', async () => {
    const view = await clanView(live.sandbox.world.samples.clan);
    const payload = renderTurfClan(en, view);
    expectSafe(payload);
    expect(embedOf(payload).color).toBe((view.clan.maps_owned ?? []).length > 0 ? Colors.gold : Colors.info);
    const german = renderTurfClan(de, view);
    expectSafe(german);
    expect(embedOf(german).fields?.map((f) => f.name)).toContain('Gehaltene Karten');
  });

  it('survives a hostile, unranked clan with no earnings and nobody playing', () => {
    const payload = renderTurfClan(en, {
      clan: TurfClanSchema.parse({
        clan_id: 9,
        clan_name: LONG_HOSTILE,
        position: null,
        points: 0,
        maps_owned: [],
      }),
      earnings: TurfClanEarningsSchema.parse({ clan_id: 9, days: [] }),
      players: TurfClanPlayersSchema.parse({ clan_id: 9, players: [] }),
      now: NOW,
    });
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(requireField(embed, 'Position today')).toBe('Unranked');
    expect(requireField(embed, 'Maps held')).toBe('None');
    expect(requireField(embed, 'Earnings (recent days)')).toBe('No earnings this season yet.');
    expect(requireField(embed, 'Earned this season')).toBe('0 KR');
    expect(embed.color).toBe(Colors.info);
  });

  it('keeps many hostile contributors within the limits', () => {
    const payload = renderTurfClan(de, {
      clan: TurfClanSchema.parse({
        clan_id: 9,
        clan_name: HOSTILE,
        position: 1,
        points: 10,
        maps_owned: [0, 2, 3, 99],
      }),
      earnings: TurfClanEarningsSchema.parse({
        clan_id: 9,
        days: Array.from({ length: 60 }, (_, day) => ({ day, kr: 1_000_000 })),
      }),
      players: TurfClanPlayersSchema.parse({
        clan_id: 9,
        day: TODAY,
        players: Array.from({ length: 50 }, (_, i) => ({
          player_id: i,
          player_name: LONG_HOSTILE,
          points: i,
        })),
      }),
      now: NOW,
    });
    expectSafe(payload);
    expect(requireField(embedOf(payload), 'Gehaltene Karten')).toContain('Karte 99');
  });
});

describe('turf player', () => {
  it('renders a sandbox player: per map, recent days, earnings and the season total', async () => {
    const { clan_id: clanId } = await live.client.api.clanByName({
      clanName: live.sandbox.world.samples.clan,
    });
    const someone = (await live.client.api.turfClanPlayers({ clanId })).players[0];
    if (!someone) throw new Error('nobody of the sample clan plays turf today');
    const found = await live.client.api.gamePlayer({ playerName: someone.player_name ?? '' });
    const playerId = found.player_id;
    const view = {
      player: await live.client.api.turfPlayer({ playerId }),
      contributions: await live.client.api.turfPlayerContributions({ playerId }),
      earnings: await live.client.api.turfPlayerEarnings({ playerId }),
      now: NOW,
    };
    const payload = renderTurfPlayer(en, view);
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.title).toBe(`Turf wars · ${escaped(found.player_name)}`);
    expect(embed.description?.split('\n')[0]).toBe(`Clan: **${escaped(view.player.clan_name ?? '')}**`);
    const points = view.contributions.contributions.reduce((sum, c) => sum + (c.points ?? 0), 0);
    expect(requireField(embed, 'Points this season')).toBe(en.n(points));
    const summary = summarizeContributions(view.contributions.contributions);
    expect(requireField(embed, 'Per map').split('\n')).toHaveLength(summary.maps.length);
    const scored = summary.days.filter((d) => d.points > 0 || d.kills > 0);
    expect(requireField(embed, 'Recent days').split('\n')).toHaveLength(Math.min(RECENT_DAYS, scored.length));
    expect(requireField(embed, 'Recent days').split('\n')[0]).toContain(`Day ${TODAY} (May 20)`);
    const earned = view.earnings.earnings.reduce((sum, e) => sum + (e.kr ?? 0), 0);
    expect(requireField(embed, 'Earned this season')).toBe(`${en.n(earned)} KR`);
    expect(embed.color).toBe(earned > 0 ? Colors.gold : Colors.info);
    expectSafe(renderTurfPlayer(de, view));
  });

  it('summarizes contributions per map and per day', () => {
    const summary = summarizeContributions(
      TurfPlayerContributionsSchema.parse({
        player_id: 1,
        contributions: [
          { day: 60, map_id: 3, points: 10, kills: 1 },
          { day: 61, map_id: 3, points: 5, kills: 2 },
          { day: 61, map_id: 0, points: 40, kills: 4 },
          { day: 61, map_id: 7 },
        ],
      }).contributions,
    );
    expect(summary.maps).toEqual([
      { mapId: 0, points: 40, kills: 4, days: 1 },
      { mapId: 3, points: 15, kills: 3, days: 2 },
      { mapId: 7, points: 0, kills: 0, days: 1 },
    ]);
    expect(summary.days).toEqual([
      { day: 61, points: 45, kills: 6 },
      { day: 60, points: 10, kills: 1 },
    ]);
  });

  it('renders a hostile player without a clan, contributions or earnings', () => {
    const payload = renderTurfPlayer(en, {
      player: TurfPlayerSchema.parse({
        player_id: 5,
        player_name: LONG_HOSTILE,
        clan_id: null,
        clan_name: null,
      }),
      contributions: TurfPlayerContributionsSchema.parse({ player_id: 5, contributions: [] }),
      earnings: TurfPlayerEarningsSchema.parse({ player_id: 5, earnings: [] }),
      now: NOW,
    });
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.description).toContain('Not in a clan');
    expect(requireField(embed, 'Per map')).toBe('No turf contributions this season.');
    expect(requireField(embed, 'Earned this season')).toBe('0 KR');
    expect(requireField(embed, 'Days played')).toBe('0');
  });

  it('leaves out days on which the player scored nothing and was paid nothing', () => {
    const payload = renderTurfPlayer(en, {
      player: TurfPlayerSchema.parse({ player_id: 5, player_name: 'P', clan_id: 1, clan_name: 'C' }),
      contributions: TurfPlayerContributionsSchema.parse({
        player_id: 5,
        contributions: [
          { day: 60, map_id: 0, points: 0, kills: 0 },
          { day: 61, map_id: 0, points: 45, kills: 6 },
          { day: 62, map_id: 2, points: 0, kills: 0 },
        ],
      }),
      earnings: TurfPlayerEarningsSchema.parse({
        player_id: 5,
        earnings: [
          { day: 61, kr: 0 },
          { day: 60, kr: 30 },
        ],
      }),
      now: NOW,
    });
    const embed = embedOf(payload);
    expect(requireField(embed, 'Recent days')).toBe(`Day 61 (${dayDate(en, 61)}) · 45 pts · 6 K`);
    expect(requireField(embed, 'Days played')).toBe('1');
    expect(requireField(embed, 'Earnings (recent days)')).toBe(`Day 60 (${dayDate(en, 60)}) · **30** KR`);
  });
});

describe('turf day dates', () => {
  it('shows the UTC date of a turf day in the reader language', () => {
    expect(dayDate(en, 0)).toBe('Mar 17');
    expect(dayDate(en, TODAY)).toBe('May 20');
    expect(dayDate(de, TODAY)).toBe('20. Mai');
    expect(turfDay(NOW)).toBe(TODAY);
  });
});
