import { renderMapInfo, renderMapLeaderboard } from '../../support/with-ids.ts';
import { describe, expect, it } from 'vitest';
import { boardOptions, command, parseBoardArgs } from '../../../commands/map.ts';
import type { FeaturedMaps, MapInfo, MapLeaderboard } from '../../../src/api/schemas/index.ts';
import { decodeComponentId } from '../../../src/discord/component-id.ts';
import { localizeCommand } from '../../../src/discord/localize.ts';
import { UserError } from '../../../src/core/user-error.ts';
import { text } from '../../../src/render/common.ts';

import {
  boardValue,
  formatLapTime,
  renderFeaturedMaps,
  renderMapRank,
} from '../../../src/features/maps/render.ts';
import { Colors, type ReplyPayload } from '../../../src/render/payload.ts';
import { playUrl } from '../../../src/announcements/render-posts.ts';

import {
  HOSTILE,
  LONG,
  customIds,
  descriptionLines,
  embedOf,
  expectSafe,
  fieldValue,
  translations,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const { en, fr } = translators;
const live = useSandboxApi({ now: () => NOW });

function buttonStates(payload: ReplyPayload): Array<boolean | undefined> {
  return (payload.components?.[0]?.components ?? []).map((b) => ('disabled' in b ? b.disabled : undefined));
}

describe('lap times and board values', () => {
  it('formats milliseconds as mm:ss.mmm', () => {
    expect(formatLapTime(0)).toBe('00:00.000');
    expect(formatLapTime(19_936)).toBe('00:19.936');
    expect(formatLapTime(61_005)).toBe('01:01.005');
    expect(formatLapTime(4_502_010)).toBe('75:02.010');
    expect(formatLapTime(-1)).toBe('—');
    expect(formatLapTime(undefined)).toBe('—');
    expect(formatLapTime(Number.NaN)).toBe('—');
  });

  it('shows times for time boards and numbers in the reader locale for score boards', () => {
    expect(boardValue(en, 'time', 59_330)).toBe('00:59.330');
    expect(boardValue(en, 'score', 59_330)).toBe('59,330');
    expect(boardValue(fr, 'score', 59_330)).toBe(fr.n(59_330));
    expect(boardValue(en, '', 12)).toBe('12');
  });
});

describe('map info', () => {
  it('renders a sandbox map with a time board: dates, playtime, labels and a leaderboard button', async () => {
    const map = await live.client.api.map({ mapName: live.sandbox.world.samples.timeBoardMap });
    const payload = renderMapInfo(en, map, NOW);
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.title).toBe(map.name);
    expect(embed.description).toBe(text(map.description, 2000));
    expect(fieldValue(embed, 'Creator')).toBe(map.creator_name);
    expect(fieldValue(embed, 'Votes')).toBe(en.n(map.votes ?? NaN));
    expect(fieldValue(embed, 'Plays')).toBe(en.n(map.gameplays ?? NaN));
    const playtimeDays = Math.floor((map.playtime ?? 0) / 86_400_000);
    expect(fieldValue(embed, 'Total playtime')).toMatch(new RegExp(`^${en.n(playtimeDays)}d \\d+h$`));
    // `YYYY-MM-DD HH:MM:SS` read as UTC.
    const created = map.created_at ?? '';
    expect(fieldValue(embed, 'Created')).toBe(`<t:${Date.parse(`${created.replace(' ', 'T')}Z`) / 1000}:D>`);
    expect(fieldValue(embed, 'Updated')).toMatch(/^<t:\d+:D>$/);
    expect(fieldValue(embed, 'Leaderboard')).toBe('Time');
    expect(fieldValue(embed, 'Ranking')).toBe('Lower is better');
    expect(fieldValue(embed, 'Featured')).toBe('No');
    expect(embed.footer?.text).toBe(`Map #${String(map.map_id)}`);
    expect(embed.color).toBe(Colors.info);
    const id = decodeComponentId(customIds(payload)[0] ?? '');
    expect(id?.command).toBe('map');
    expect(id?.action).toBe('leaderboard');
    expect(id?.args).toEqual([map.name, 'time', '0', '1']);
  });

  it('marks a featured map and omits the order and the button for a map without board', async () => {
    const featured = await live.client.api.map({ mapName: live.sandbox.world.samples.featuredMap });
    const shown = renderMapInfo(en, featured, NOW);
    expectSafe(shown);
    expect(embedOf(shown).title).toBe(`⭐ ${featured.name}`);
    expect(fieldValue(embedOf(shown), 'Featured')).toBe('Yes');
    expect(embedOf(shown).color).toBe(Colors.gold);

    const plain = await live.client.api.map({ mapName: live.sandbox.world.samples.noBoardMap });
    const payload = renderMapInfo(en, plain, NOW);
    expectSafe(payload);
    expect(fieldValue(embedOf(payload), 'Leaderboard')).toBe('No leaderboard');
    expect(fieldValue(embedOf(payload), 'Ranking')).toBeUndefined();
    expect(payload.components).toEqual([]);
  });

  it('renders in French', async () => {
    const map = await live.client.api.map({ mapName: live.sandbox.world.samples.scoreBoardMap });
    const payload = renderMapInfo(fr, map, NOW);
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(fieldValue(embed, 'Créateur')).toBe(text(map.creator_name, 100));
    expect(fieldValue(embed, 'Critère')).toBe('Le plus haut est le meilleur');
    expect(fieldValue(embed, 'Votes')).toBe(fr.n(map.votes ?? NaN));
  });

  it('stays within limits with hostile and long text and with only the required fields', () => {
    const maps: MapInfo[] = [
      { map_id: 1, name: HOSTILE, description: HOSTILE, creator_name: HOSTILE, leaderboard_type: HOSTILE },
      { map_id: 2, name: LONG, description: LONG, creator_name: LONG, created_at: 'garbage', playtime: -5 },
      { map_id: 3, name: 'Bare' },
    ];
    for (const map of maps) {
      for (const t of [en, fr]) expectSafe(renderMapInfo(t, map, NOW));
    }
    const bare = embedOf(renderMapInfo(en, { map_id: 3, name: 'Bare' }, NOW));
    expect(bare.description).toBeUndefined();
    expect(fieldValue(bare, 'Created')).toBe('—');
    expect(fieldValue(bare, 'Total playtime')).toBe('—');
    expect(fieldValue(bare, 'Leaderboard')).toBe('No leaderboard');
    const long = renderMapInfo(en, maps[1]!, NOW);
    expect(fieldValue(embedOf(long), 'Created')).toBe('—');
    expect(long.components).toEqual([]);
  });
});

describe('map leaderboard', () => {
  it('renders a sandbox time board as 25 rows of mm:ss.mmm with paging ids carrying name, type and order', async () => {
    const mapName = live.sandbox.world.samples.timeBoardMap;
    const data = await live.client.api.mapLeaderboard({ mapName, page: 1 });
    const payload = renderMapLeaderboard(en, { name: mapName, data, page: 1, now: NOW });
    expectSafe(payload);
    const rows = descriptionLines(payload);
    expect(rows).toHaveLength(25);
    const first = data.entries[0]!;
    expect(rows[0]).toBe(
      `**🥇** ${text(first.player_name, 40)} · \`${formatLapTime(first.value)}\` · <t:${Date.parse(first.date ?? '') / 1000}:R>`,
    );
    expect(rows[3]).toMatch(/^\*\*#4\*\* .+ · `\d{2,}:\d{2}\.\d{3}` · <t:\d+:R>$/);
    expect(embedOf(payload).title).toBe(`Leaderboard of ${mapName}`);
    expect(embedOf(payload).footer?.text).toBe('Time · Lower is better');
    const ids = customIds(payload).map((id) => decodeComponentId(id));
    expect(ids[2]?.args).toEqual([mapName, 'time', '0', '2']);
    expect(buttonStates(payload)).toEqual([true, true, false]);
    expect(parseBoardArgs(ids[2]!)).toEqual({ name: mapName, type: 'time', order: 0, page: 2 });
  });

  it('renders a sandbox score board with numbers, and the asked order in the ids', async () => {
    const mapName = live.sandbox.world.samples.scoreBoardMap;
    const data = await live.client.api.mapLeaderboard({ mapName, page: 2, type: 'score', order: 0 });
    const payload = renderMapLeaderboard(en, {
      name: mapName,
      data,
      page: 2,
      type: 'score',
      order: 0,
      now: NOW,
    });
    expectSafe(payload);
    const first = data.entries[0]!;
    expect(descriptionLines(payload)[0]).toContain(`\`${en.n(first.value ?? NaN)}\``);
    expect(descriptionLines(payload)[0]).toMatch(/^\*\*#26\*\* /);
    expect(embedOf(payload).footer?.text).toBe('Score · Lower is better');
    expect(decodeComponentId(customIds(payload)[0] ?? '')?.args).toEqual([mapName, 'score', '0', '1']);
    expect(buttonStates(payload)[0]).toBe(false);
  });

  it('says when a map has no board, and when a page is empty', async () => {
    const mapName = live.sandbox.world.samples.noBoardMap;
    const data = await live.client.api.mapLeaderboard({ mapName, page: 1 });
    const none = renderMapLeaderboard(en, { name: mapName, data, page: 1, now: NOW });
    expectSafe(none);
    expect(embedOf(none).description).toBe('This map has no leaderboard.');
    expect(buttonStates(none)).toEqual([true, true, true]);

    const empty: MapLeaderboard = { entries: [], leaderboard_type: 'score', leaderboard_order: 1 };
    expect(embedOf(renderMapLeaderboard(en, { name: 'M', data: empty, page: 1, now: NOW })).description).toBe(
      'Nobody is on this leaderboard yet.',
    );
    expect(embedOf(renderMapLeaderboard(en, { name: 'M', data: empty, page: 9, now: NOW })).description).toBe(
      'No entries on this page.',
    );
  });

  it('renders in French', async () => {
    const mapName = live.sandbox.world.samples.scoreBoardMap;
    const data = await live.client.api.mapLeaderboard({ mapName, page: 1 });
    const payload = renderMapLeaderboard(fr, { name: mapName, data, page: 1, now: NOW });
    expectSafe(payload);
    expect(embedOf(payload).title).toBe(`Classement de ${text(mapName, 100)}`);
    expect(descriptionLines(payload)[0]).toContain(`\`${fr.n(data.entries[0]?.value ?? NaN)}\``);
  });

  it('stays within limits with 25 long hostile names, missing fields and an unknown board type', () => {
    const data: MapLeaderboard = {
      map_name: HOSTILE,
      leaderboard_type: 'time',
      entries: Array.from({ length: 25 }, (_, i) => ({
        player_name: i % 2 ? LONG : HOSTILE,
        position: i + 1,
        value: 2 ** 40,
        date: '2026-01-01T00:00:00Z',
      })),
    };
    for (const t of [en, fr]) expectSafe(renderMapLeaderboard(t, { name: LONG, data, page: 1, now: NOW }));
    expect(descriptionLines(renderMapLeaderboard(en, { name: 'x', data, page: 1, now: NOW }))).toHaveLength(
      25,
    );

    const sparse: MapLeaderboard = { entries: [{ player_name: 'Only' }], leaderboard_type: 'laps' };
    const payload = renderMapLeaderboard(en, { name: 'M', data: sparse, page: 1, now: NOW });
    expectSafe(payload);
    expect(descriptionLines(payload)).toEqual(['**—** Only · `—` · —']);
    expect(embedOf(payload).footer?.text).toBe('laps · —');
    // A board the bot does not know travels as "the map's own".
    expect(decodeComponentId(customIds(payload)[0] ?? '')?.args).toEqual(['M', '', '', '0']);
  });
});

describe('map rank', () => {
  it("renders a sandbox player's place on a time board", async () => {
    const mapName = live.sandbox.world.samples.timeBoardMap;
    const board = await live.client.api.mapLeaderboard({ mapName, page: 1 });
    const playerName = board.entries[4]!.player_name;
    const entry = await live.client.api.mapLeaderboardPlayer({ mapName, playerName });
    const payload = renderMapRank(en, entry, mapName);
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.title).toBe(`${text(playerName, 100)} on ${mapName}`);
    expect(fieldValue(embed, 'Position')).toBe('#5');
    expect(fieldValue(embed, 'Time')).toBe(formatLapTime(board.entries[4]!.value));
    expect(fieldValue(embed, 'Set')).toBe(`<t:${Date.parse(entry.date ?? '') / 1000}:f>`);
    expect(fieldValue(embed, 'Leaderboard')).toBe('Time');
    expect(fieldValue(embed, 'Ranking')).toBe('Lower is better');
    expect(embed.color).toBe(Colors.info);
  });

  it('renders the podium in gold, score values as numbers, and in French', async () => {
    const mapName = live.sandbox.world.samples.scoreBoardMap;
    const board = await live.client.api.mapLeaderboard({ mapName, page: 1 });
    const entry = await live.client.api.mapLeaderboardPlayer({
      mapName,
      playerName: board.entries[0]!.player_name,
    });
    const payload = renderMapRank(en, entry, mapName);
    expectSafe(payload);
    expect(embedOf(payload).color).toBe(Colors.gold);
    expect(fieldValue(embedOf(payload), 'Position')).toBe('🥇');
    expect(fieldValue(embedOf(payload), 'Score')).toBe(en.n(entry.value ?? NaN));
    const french = renderMapRank(fr, entry, mapName);
    expectSafe(french);
    expect(fieldValue(embedOf(french), 'Score')).toBe(fr.n(entry.value ?? NaN));
  });

  it('stays within limits with hostile, long and missing fields', () => {
    for (const entry of [
      { player_name: HOSTILE, map_name: HOSTILE, leaderboard_type: HOSTILE },
      { player_name: LONG, map_name: LONG, date: 'nope', value: -3, leaderboard_type: 'time' },
      { player_name: 'Bare' },
    ]) {
      for (const t of [en, fr]) expectSafe(renderMapRank(t, entry, LONG));
    }
    const bare = embedOf(renderMapRank(en, { player_name: 'Bare' }, 'Fallback'));
    expect(bare.title).toBe('Bare on Fallback');
    expect(fieldValue(bare, 'Position')).toBe('—');
    expect(fieldValue(bare, 'Leaderboard')).toBe('No leaderboard');
  });
});

describe('featured maps', () => {
  it('renders the sandbox list newest first with creators', async () => {
    const data = await live.client.api.featuredMaps({});
    const payload = renderFeaturedMaps(en, data);
    expectSafe(payload);
    const rows = descriptionLines(payload);
    expect(rows).toHaveLength(data.maps.length);
    data.maps.forEach((map, i) => {
      expect(rows[i]).toBe(
        `**${i + 1}.** ${text(map.name, 80)} · by ${text(map.creator_name, 40)} · ▶ ${playUrl(map.name)}`,
      );
    });
    expect(embedOf(payload).footer?.text).toBe(`${data.maps.length} featured maps · newest first`);
    expectSafe(renderFeaturedMaps(fr, data));
    expect(embedOf(renderFeaturedMaps(fr, data)).title).toBe('Cartes en vedette');
  });

  it('cuts a long list, and handles an empty list and missing creators', () => {
    const many: FeaturedMaps = {
      count: 100,
      maps: Array.from({ length: 100 }, (_, i) => ({
        map_id: i,
        name: i % 2 ? LONG : HOSTILE,
        ...(i % 3 ? { creator_name: HOSTILE } : {}),
      })),
    };
    for (const t of [en, fr]) expectSafe(renderFeaturedMaps(t, many));
    const rows = descriptionLines(renderFeaturedMaps(en, many));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThanOrEqual(41);
    expect(rows.at(-1)).toBe(`…and ${100 - (rows.length - 1)} more`);
    expect(rows[0]).toBe(`**1.** ${text(HOSTILE, 80)} · ▶ ${playUrl(HOSTILE)}`);
    const short = descriptionLines(
      renderFeaturedMaps(en, { maps: many.maps.map((map) => ({ ...map, name: 'M' })) }),
    );
    expect(short).toHaveLength(41);
    expect(short.at(-1)).toBe('…and 60 more');

    const empty = renderFeaturedMaps(en, { maps: [] });
    expectSafe(empty);
    expect(embedOf(empty).description).toBe('No map is featured right now.');
    expect(embedOf(empty).footer?.text).toBe('0 featured maps · newest first');
  });
});

/** A map button's id with these arguments. */
const boardId = (args: string[]) => ({ command: 'map', action: 'leaderboard', args, expiresAt: 0 });

describe('/map command', () => {
  it('checks the board options again', () => {
    expect(boardOptions({})).toEqual({
      type: undefined,
      order: undefined,
      page: 1,
    });
    expect(boardOptions({ type: 'time', order: 1, page: 3 })).toEqual({ type: 'time', order: 1, page: 3 });
    const refused = (() => {
      try {
        boardOptions({ type: 'laps', order: 2, page: 0 });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).key).toBe('common:errors.invalidInputFields');
    expect((refused as UserError).vars).toEqual({ fields: 'type, order, page' });
  });

  it('refuses button arguments it did not write', () => {
    expect(parseBoardArgs(boardId(['Map', '', '', '1']))).toEqual({
      name: 'Map',
      type: undefined,
      order: undefined,
      page: 1,
    });
    expect(parseBoardArgs(boardId([]))).toBeUndefined();
    expect(parseBoardArgs(boardId(['Map', 'laps', '', '1']))).toBeUndefined();
    expect(parseBoardArgs(boardId(['Map', 'time', '2', '1']))).toBeUndefined();
    expect(parseBoardArgs(boardId(['Map', 'time', '1', '0']))).toBeUndefined();
    expect(parseBoardArgs(boardId(['Map', 'time', '1', 'x']))).toBeUndefined();
  });

  it('offers its eight choices (board type and order) in the localized definition', () => {
    const count = (node: { choices?: unknown[] | undefined; options?: unknown[] | undefined }): number =>
      (node.choices?.length ?? 0) +
      (node.options ?? []).reduce<number>((sum, option) => sum + count(option as typeof node), 0);
    expect(count(localizeCommand(command.data, 'map', translations))).toBe(8);
  });
});
