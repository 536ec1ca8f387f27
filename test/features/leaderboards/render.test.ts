import {
  renderClanBoard,
  renderCupBoard,
  renderPlayerBoard,
  renderRaidBoard,
  renderRankedLeaderboard,
} from '../../support/with-ids.ts';
import { describe, expect, it } from 'vitest';
import { command } from '../../../commands/leaderboard.ts';
import { wholeNumber } from '../../../src/discord/options.ts';
import { BadRequestError } from '../../../src/api/errors.ts';
import {
  ClanLeaderboardSchema,
  CupPlayerLeaderboardSchema,
  CupTeamLeaderboardSchema,
  LeaderboardSchema,
  RaidLeaderboardSchema,
  RankedLeaderboardSchema,
} from '../../../src/api/schemas/index.ts';
import { localizeCommand } from '../../../src/discord/localize.ts';
import {
  BOARD_SORTS,
  CUP_BOARDS,
  PLAYER_BOARDS,
  RANKED_REGIONS,
  boardValue,
  raidTime,
} from '../../../src/features/leaderboards/render.ts';
import { LOCAL_PAGE_SIZE, clampPage } from '../../../src/render/pages.ts';
import { PREVIOUS_SEASON, RAID_MAP_IDS } from '../../../src/dev/sandbox/index.ts';
import {
  HOSTILE,
  LONG_HOSTILE,
  buttons,
  descriptionLines,
  embedOf,
  expectSafe,
  translations,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const { en, de } = translators;
const live = useSandboxApi({ now: () => NOW });

describe('ranked leaderboard', () => {
  it('renders a sandbox region page: medals, names, MMR, W/L, K/D and a next button carrying region and season', async () => {
    const data = await live.client.api.rankedLeaderboard({ region: 3 });
    const payload = renderRankedLeaderboard(en, { data, region: 3, season: undefined, page: 1, now: NOW });
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.title).toBe('Ranked leaderboard · Europe');
    const first = data.entries[0]!;
    const k = first.kills!;
    const d = first.deaths!;
    expect(descriptionLines(payload)[0]).toBe(
      `🥇 **${first.player_name}** · MMR **${en.n(first.mmr!)}** · ${first.wins} W / ${first.losses} L · K/D ${en.n(k / d, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
    expect(descriptionLines(payload)).toHaveLength(10);
    expect(descriptionLines(payload)[3]).toMatch(/^\*\*#4\*\* /);
    expect(embed.footer?.text).toContain(`Season ${data.season}`);
    const [previous, label, next] = buttons(payload);
    expect(previous?.disabled).toBe(true);
    expect(label?.label).toBe('Page 1');
    expect(next?.disabled).toBe(false);
    expect(next?.id).toMatchObject({ command: 'leaderboard', action: 'ranked', args: ['3', '0', '2'] });
  });

  it('continues the positions on a later page and of an earlier season', async () => {
    const data = await live.client.api.rankedLeaderboard({ region: 4, page: 2, season: PREVIOUS_SEASON });
    const payload = renderRankedLeaderboard(en, {
      data,
      region: 4,
      season: PREVIOUS_SEASON,
      page: 2,
      now: NOW,
    });
    expectSafe(payload);
    expect(embedOf(payload).title).toBe('Ranked leaderboard · North America');
    expect(embedOf(payload).footer?.text).toContain(`Season ${PREVIOUS_SEASON}`);
    if (data.entries.length > 0) expect(descriptionLines(payload)[0]).toMatch(/^\*\*#11\*\* /);
    expect(buttons(payload)[0]?.id?.args).toEqual(['4', String(PREVIOUS_SEASON), '1']);
  });

  it('says so when a page is past the end, and keeps "previous"', async () => {
    const data = await live.client.api.rankedLeaderboard({ region: 2, page: 900 });
    expect(data.entries).toEqual([]);
    const payload = renderRankedLeaderboard(en, { data, region: 2, season: undefined, page: 900, now: NOW });
    expectSafe(payload);
    expect(embedOf(payload).description).toBe('No more players on this page.');
    const [previous, , next] = buttons(payload);
    expect(previous?.disabled).toBe(false);
    expect(next?.disabled).toBe(true);
  });

  it('has no buttons for a single short first page, and survives hostile names and missing numbers', () => {
    const data = RankedLeaderboardSchema.parse({
      page: 1,
      per_page: 10,
      region: 2,
      entries: [
        { player_name: LONG_HOSTILE, position: 1, mmr: 2000, wins: 3, losses: 0, kills: 9, deaths: 0 },
        { player_name: HOSTILE },
      ],
    });
    const payload = renderRankedLeaderboard(en, { data, region: 2, season: undefined, page: 1, now: NOW });
    expectSafe(payload);
    expect(payload.components).toEqual([]);
    expect(descriptionLines(payload)[0]).toContain('K/D 9.00');
    expect(descriptionLines(payload)[1]).toContain('MMR **—**');
    expect(embedOf(payload).footer?.text).toContain('Current season');
  });

  it('renders in German', async () => {
    const data = await live.client.api.rankedLeaderboard({ region: 2 });
    const payload = renderRankedLeaderboard(de, { data, region: 2, season: undefined, page: 1, now: NOW });
    expectSafe(payload);
    expect(embedOf(payload).title).not.toBe(
      renderRankedLeaderboard(en, { data, region: 2, season: undefined, page: 1, now: NOW }).embeds?.[0]
        ?.title,
    );
  });
});

describe('player boards', () => {
  it.each(PLAYER_BOARDS)('renders the sandbox %s board, 25 a page', async (board) => {
    const data = await live.client.api.leaderboard({ board });
    const payload = renderPlayerBoard(en, { board, data, season: undefined, page: 1, now: NOW });
    expectSafe(payload);
    expect(embedOf(payload).title).toBe(`Top players · ${en.t(`leaderboard:boards.${board}`)}`);
    expect(descriptionLines(payload)).toHaveLength(Math.min(LOCAL_PAGE_SIZE, data.rows.length));
    const first = data.rows[0]!;
    expect(descriptionLines(payload)[0]).toContain(`**${first.player_name.replaceAll('_', '\\_')}**`);
    expect(descriptionLines(payload)[0]).toContain(boardValue(en, board, first.value));
  });

  it('pages locally: the last page, a clamped page, and buttons carrying board and season', async () => {
    const data = await live.client.api.leaderboard({ board: 'kills', season: PREVIOUS_SEASON });
    expect(data.rows.length).toBe(100);
    const last = renderPlayerBoard(en, { board: 'kills', data, season: PREVIOUS_SEASON, page: 4, now: NOW });
    expectSafe(last);
    expect(descriptionLines(last)[0]).toMatch(/^\*\*#76\*\* /);
    const [previous, label, next] = buttons(last);
    expect(label?.label).toBe('Page 4 of 4');
    expect(next?.disabled).toBe(true);
    expect(previous?.id).toMatchObject({ action: 'players', args: ['kills', String(PREVIOUS_SEASON), '3'] });
    const beyond = renderPlayerBoard(en, {
      board: 'kills',
      data,
      season: PREVIOUS_SEASON,
      page: 99,
      now: NOW,
    });
    expect(embedOf(beyond).description).toBe(embedOf(last).description);
    expect(embedOf(last).footer?.text).toBe(`Season ${PREVIOUS_SEASON} · Entries: 100`);
  });

  it('shows values in their unit: K/D with two decimals, time played as a duration', () => {
    expect(boardValue(en, 'kdr', 4.6)).toBe('4.60');
    expect(boardValue(en, 'time_played', 90_061)).toBe('1d 1h');
    expect(boardValue(en, 'kills', 12345)).toBe('12,345');
    expect(boardValue(en, 'score', undefined)).toBe('—');
  });

  it('survives hostile names and clans, missing values and an empty board', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      player_name: `${LONG_HOSTILE}${i}`,
      clan: LONG_HOSTILE,
      ...(i % 2 === 0 ? { value: i, position: i + 1 } : {}),
    }));
    const data = LeaderboardSchema.parse({ rows });
    const payload = renderPlayerBoard(en, { board: 'score', data, season: undefined, page: 1, now: NOW });
    expectSafe(payload);
    const empty = renderPlayerBoard(de, {
      board: 'score',
      data: LeaderboardSchema.parse({ rows: [] }),
      season: undefined,
      page: 1,
      now: NOW,
    });
    expectSafe(empty);
    expect(empty.components).toEqual([]);
    expect(embedOf(empty).description).toBe(de.t('leaderboard:none'));
  });
});

describe('clan board', () => {
  it.each([undefined, ...BOARD_SORTS])('renders the sandbox clan board (sort %s)', async (sort) => {
    const data = await live.client.api.clanLeaderboard(sort ? { sort } : {});
    const payload = renderClanBoard(en, { data, sort, page: 2, now: NOW });
    expectSafe(payload);
    expect(embedOf(payload).title).toBe('Clan leaderboard');
    expect(embedOf(payload).footer?.text).toContain(en.t(`leaderboard:sorts.${sort ?? 'default'}`));
    if (data.rows.length > LOCAL_PAGE_SIZE) {
      expect(descriptionLines(payload)[0]).toMatch(/^\*\*#26\*\* /);
      expect(buttons(payload)[0]?.id?.args).toEqual([sort ?? '', '1']);
    }
  });

  it('orders as asked', async () => {
    const desc = await live.client.api.clanLeaderboard({ sort: 'desc' });
    const asc = await live.client.api.clanLeaderboard({ sort: 'asc' });
    expect(desc.rows[0]?.value).toBeGreaterThanOrEqual(asc.rows[0]?.value ?? Infinity);
  });

  it('survives hostile clan names', () => {
    const data = ClanLeaderboardSchema.parse({
      rows: Array.from({ length: 25 }, (_, i) => ({
        clan_id: i,
        clan_name: LONG_HOSTILE,
        position: i + 1,
        value: 1e12,
      })),
    });
    expectSafe(renderClanBoard(de, { data, sort: 'asc', page: 1, now: NOW }));
  });
});

describe('raid board', () => {
  it('renders a sandbox raid map as times, 25 of its 100 rows a page', async () => {
    const mapId = RAID_MAP_IDS[0];
    const data = await live.client.api.raidLeaderboard({ mapId });
    const maps = await live.client.api.officialMaps();
    const mapNames = new Map(maps.map((map) => [map.id, map.name]));
    const payload = renderRaidBoard(en, { data, mapId, mapNames, page: 1, now: NOW });
    expectSafe(payload);
    expect(embedOf(payload).title).toBe(`Raid leaderboard · ${mapNames.get(mapId)}`);
    expect(mapNames.get(mapId)).toMatch(/^[A-Z]/);
    // Without the list (the game's /maps failed), the id reads naturally.
    const unnamed = renderRaidBoard(en, { data, mapId, page: 1, now: NOW });
    expect(embedOf(unnamed).title).toBe(`Raid leaderboard · Unknown map ${mapId}`);
    expect(descriptionLines(payload)).toHaveLength(25);
    expect(descriptionLines(payload)[0]).toContain(`⏱️ ${raidTime(data.rows[0]?.value)}`);
    expect(buttons(payload)[2]?.id).toMatchObject({ action: 'raids', args: [String(mapId), '2'] });
  });

  it('reads values as milliseconds', () => {
    expect(raidTime(61_564)).toBe('1:01.564');
    expect(raidTime(0)).toBe('0:00.000');
    expect(raidTime(3_600_000)).toBe('60:00.000');
    expect(raidTime(undefined)).toBe('—');
    expect(raidTime(-5)).toBe('—');
  });

  it('a map without a raid board is a 400 (the command turns it into its own message)', async () => {
    await expect(live.client.api.raidLeaderboard({ mapId: 0 })).rejects.toBeInstanceOf(BadRequestError);
    expect(en.t('leaderboard:errors.raidMap', { map: 0 })).toContain('Map 0');
  });

  it('survives hostile names and missing values', () => {
    const data = RaidLeaderboardSchema.parse({
      rows: [{ player_name: LONG_HOSTILE }, { player_name: HOSTILE, value: 5 }],
    });
    const payload = renderRaidBoard(en, { data, mapId: 31, page: 1, now: NOW });
    expectSafe(payload);
    expect(descriptionLines(payload)[0]).toContain('⏱️ —');
  });
});

describe('cup boards', () => {
  it('renders the sandbox cup players and teams', async () => {
    const players = await live.client.api.cupPlayerLeaderboard();
    const teams = await live.client.api.cupTeamLeaderboard();
    const p = renderCupBoard(en, { board: 'players', data: players, page: 1, now: NOW });
    const t = renderCupBoard(en, { board: 'teams', data: teams, page: 1, now: NOW });
    expectSafe(p);
    expectSafe(t);
    expect(embedOf(p).title).toBe('Cup leaderboard · players');
    expect(embedOf(t).title).toBe('Cup leaderboard · teams');
    expect(descriptionLines(t)[0]).toContain(`**${teams.rows[0]?.team_name}**`);
    expect(buttons(p)[2]?.id).toMatchObject({ action: 'cup', args: ['players', '2'] });
    // 16 teams fit on one page: no buttons.
    expect(t.components).toEqual([]);
  });

  it('survives hostile names, in German too', () => {
    const players = CupPlayerLeaderboardSchema.parse({ rows: [{ player_name: LONG_HOSTILE, value: 1.5 }] });
    const teams = CupTeamLeaderboardSchema.parse({ rows: [{ team_id: 1, team_name: LONG_HOSTILE }] });
    expectSafe(renderCupBoard(de, { board: 'players', data: players, page: 1, now: NOW }));
    expectSafe(renderCupBoard(de, { board: 'teams', data: teams, page: 3, now: NOW }));
  });
});

describe('local paging', () => {
  it('clamps the page to the rows there are', () => {
    expect(clampPage(1, 0)).toBe(1);
    expect(clampPage(0, 100)).toBe(1);
    expect(clampPage(4, 100)).toBe(4);
    expect(clampPage(5, 100)).toBe(4);
    expect(clampPage(5, 101)).toBe(5);
    expect(clampPage(Number.NaN, 100)).toBe(1);
  });
});

describe('leaderboard command', () => {
  it('reads component arguments as bounded whole numbers', () => {
    expect(wholeNumber('3', 0, 10) ?? -1).toBe(3);
    expect(wholeNumber('', 0, 10) ?? -1).toBe(-1);
    expect(wholeNumber('2.5', 0, 10) ?? -1).toBe(-1);
    expect(wholeNumber('11', 0, 10) ?? -1).toBe(-1);
    expect(wholeNumber(undefined, 1, 10) ?? 1).toBe(1);
    expect(wholeNumber('1e3', 0, 10_000) ?? 0).toBe(1000);
  });

  it('offers the ranked regions, player boards, sorts and cup boards as choices', () => {
    const json = localizeCommand(command.data, 'leaderboard', translations);
    const sub = (name: string) =>
      json.options?.find((o) => o.name === name) as {
        options?: Array<{ name: string; choices?: Array<{ value: unknown; name: string }> }>;
      };
    const choices = (subName: string, option: string) =>
      sub(subName)
        .options?.find((o) => o.name === option)
        ?.choices?.map((c) => c.value);
    expect(choices('ranked', 'region')).toEqual([...RANKED_REGIONS]);
    expect(choices('players', 'board')).toEqual([...PLAYER_BOARDS]);
    expect(choices('clans', 'sort')).toEqual([...BOARD_SORTS]);
    expect(choices('cup', 'board')).toEqual([...CUP_BOARDS]);
    expect(
      sub('ranked')
        .options?.find((o) => o.name === 'region')
        ?.choices?.map((c) => c.name),
    ).toEqual(['Asia', 'Europe', 'North America']);
  });
});
