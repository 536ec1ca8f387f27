import type {
  ClanLeaderboard,
  CupPlayerLeaderboard,
  CupTeamLeaderboard,
  Leaderboard,
  RaidLeaderboard,
  RankedLeaderboard,
} from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import {
  duration,
  fit,
  num,
  pageRow,
  pageRows,
  ratio,
  regionLabel,
  text,
  type Pager,
  type Row,
} from '../../render/common.ts';
import { officialMapName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { localPage, localRow, place } from '../../render/pages.ts';

/** Ranked regions of the developer API (2 Asia, 3 Europe, 4 North America). */
export const RANKED_REGIONS = [2, 3, 4] as const;
/** Player boards of `/leaderboards/{board}` (the siblings `player_clan`, `raids`, `krunkcup` have their own routes). */
export const PLAYER_BOARDS = [
  'score',
  'kills',
  'wins',
  'kdr',
  'time_played',
  'nukes',
  'level',
  'junk',
] as const;
export type PlayerBoard = (typeof PLAYER_BOARDS)[number];
/** `sort` of the game tier's boards; absent means the board's own order. */
export const BOARD_SORTS = ['desc', 'asc'] as const;
export type BoardSort = (typeof BOARD_SORTS)[number];
export const CUP_BOARDS = ['players', 'teams'] as const;
export type CupBoard = (typeof CUP_BOARDS)[number];
/** The raid map the spec names; others may answer 400 `invalid raid map`. */
export const DEFAULT_RAID_MAP = 31;
const RANKED_PAGE_SIZE = 10;
const NAME_MAX = 48;
const CLAN_MAX = 32;

export function isPlayerBoard(value: string | undefined | null): value is PlayerBoard {
  return (PLAYER_BOARDS as readonly string[]).includes(value ?? '');
}

export function isBoardSort(value: string | undefined | null): value is BoardSort {
  return (BOARD_SORTS as readonly string[]).includes(value ?? '');
}

export function isCupBoard(value: string | undefined | null): value is CupBoard {
  return (CUP_BOARDS as readonly string[]).includes(value ?? '');
}

export function isRankedRegion(value: number | undefined | null): value is (typeof RANKED_REGIONS)[number] {
  return (RANKED_REGIONS as readonly number[]).includes(value ?? -1);
}

function board(
  color: number,
  title: string,
  lines: readonly string[],
  none: string,
  footer: string,
  components: Row[],
): ReplyPayload {
  return {
    embeds: [
      fit({
        color,
        title,
        description: lines.length > 0 ? lines.join('\n') : none,
        footer: { text: footer },
      }),
    ],
    components,
  };
}

function seasonText(t: Translator, season: number | undefined): string {
  return season ? t.t('common:season', { season: t.n(season) }) : t.t('common:currentSeason');
}

export interface RankedView {
  readonly data: RankedLeaderboard;
  readonly region: number;
  /** As asked: 0 or undefined is the current season. */
  readonly season: number | undefined;
  readonly page: number;
  readonly pager: Pager;
}

/** `/api/leaderboard/{region}`: 10 a page, paged by the API. */
export function renderRankedLeaderboard(
  t: Translator,
  { data, region, season, page, pager }: RankedView,
): ReplyPayload {
  const perPage = data.per_page ?? RANKED_PAGE_SIZE;
  const lines = pageRows(data.entries, perPage).map((entry, index) =>
    t.t('leaderboard:ranked.line', {
      place: place(t, entry.position, (page - 1) * perPage + index),
      name: text(entry.player_name, NAME_MAX),
      mmr: num(t, entry.mmr),
      wins: num(t, entry.wins),
      losses: num(t, entry.losses),
      kd: ratio(t, entry.kills !== undefined && entry.deaths ? entry.kills / entry.deaths : entry.kills),
    }),
  );
  const shownSeason = data.season ?? (season || undefined);
  const row = pageRow(t, {
    pager,
    page,
    hasNext: data.entries.length >= perPage,
  });
  return board(
    Colors.brand,
    t.t('leaderboard:ranked.title', { region: regionLabel(t, data.region ?? region) }),
    lines,
    t.t(page > 1 ? 'leaderboard:ranked.noneOnPage' : 'leaderboard:ranked.none'),
    `${seasonText(t, shownSeason)} · ${t.t('leaderboard:ranked.footer')}`,
    row && (page > 1 || data.entries.length >= perPage) ? [row] : [],
  );
}

/** A player board's value in its own unit. */
export function boardValue(t: Translator, boardName: string, value: number | undefined): string {
  if (boardName === 'kdr' || boardName === 'junk') return ratio(t, value);
  if (boardName === 'time_played') return duration(t, value);
  return num(t, value, { maximumFractionDigits: 2 });
}

export interface PlayerBoardView {
  readonly board: PlayerBoard;
  readonly data: Leaderboard;
  readonly season: number | undefined;
  readonly page: number;
  readonly pager: Pager;
}

export function renderPlayerBoard(
  t: Translator,
  { board: name, data, season, page, pager }: PlayerBoardView,
): ReplyPayload {
  const slice = localPage(data.rows, page);
  const lines = slice.rows.map((row, index) =>
    t.t('leaderboard:players.line', {
      place: place(t, row.position, slice.offset + index),
      name: text(row.player_name, NAME_MAX),
      clan: row.clan ? t.t('leaderboard:players.clan', { clan: text(row.clan, CLAN_MAX) }) : '',
      value: boardValue(t, name, row.value),
    }),
  );
  return board(
    Colors.brand,
    t.t('leaderboard:players.title', { board: t.t(`leaderboard:boards.${name}`) }),
    lines,
    t.t('leaderboard:none'),
    `${seasonText(t, data.season ?? (season || undefined))} · ${t.t('leaderboard:rows', { n: t.n(data.rows.length) })}`,
    localRow(t, slice, pager),
  );
}

export interface ClanBoardView {
  readonly data: ClanLeaderboard;
  readonly sort: BoardSort | undefined;
  readonly page: number;
  readonly pager: Pager;
}

export function renderClanBoard(t: Translator, { data, sort, page, pager }: ClanBoardView): ReplyPayload {
  const slice = localPage(data.rows, page);
  const lines = slice.rows.map((row, index) =>
    t.t('leaderboard:clans.line', {
      place: place(t, row.position, slice.offset + index),
      name: text(row.clan_name, NAME_MAX),
      value: num(t, row.value, { maximumFractionDigits: 2 }),
    }),
  );
  return board(
    Colors.info,
    t.t('leaderboard:clans.title'),
    lines,
    t.t('leaderboard:none'),
    `${t.t(`leaderboard:sorts.${sort ?? 'default'}`)} · ${t.t('leaderboard:rows', { n: t.n(data.rows.length) })}`,
    localRow(t, slice, pager),
  );
}

/**
 * A raid time. The spec gives raid rows a bare `value`, sorted ascending by default; it is read here as
 * a completion time in milliseconds (`m:ss.mmm`).
 */
export function raidTime(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value) || value < 0) return '—';
  const ms = Math.round(value);
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  const millis = ms % 1000;
  return `${minutes}:${String(seconds).padStart(2, '0')}.${String(millis).padStart(3, '0')}`;
}

export interface RaidBoardView {
  readonly data: RaidLeaderboard;
  readonly mapId: number;
  /** The official maps' names by id (the game's `/maps`); a map not in it reads "Unknown map 31". */
  readonly mapNames?: ReadonlyMap<number, string> | undefined;
  readonly page: number;
  readonly pager: Pager;
}

export function renderRaidBoard(
  t: Translator,
  { data, mapId, mapNames, page, pager }: RaidBoardView,
): ReplyPayload {
  const slice = localPage(data.rows, page);
  const lines = slice.rows.map((row, index) =>
    t.t('leaderboard:raids.line', {
      place: place(t, row.position, slice.offset + index),
      name: text(row.player_name, NAME_MAX),
      time: raidTime(row.value),
    }),
  );
  return board(
    Colors.danger,
    t.t('leaderboard:raids.title', { map: officialMapName(t, mapNames, data.map_id ?? mapId) }),
    lines,
    t.t('leaderboard:none'),
    t.t('leaderboard:rows', { n: t.n(data.rows.length) }),
    localRow(t, slice, pager),
  );
}

export type CupView =
  | {
      readonly board: 'players';
      readonly data: CupPlayerLeaderboard;
      readonly page: number;
      readonly pager: Pager;
    }
  | {
      readonly board: 'teams';
      readonly data: CupTeamLeaderboard;
      readonly page: number;
      readonly pager: Pager;
    };

export function renderCupBoard(t: Translator, view: CupView): ReplyPayload {
  const rows =
    view.board === 'players'
      ? view.data.rows.map((row) => ({ position: row.position, name: row.player_name, value: row.value }))
      : view.data.rows.map((row) => ({ position: row.position, name: row.team_name, value: row.value }));
  const slice = localPage(rows, view.page);
  const lines = slice.rows.map((row, index) =>
    t.t('leaderboard:cup.line', {
      place: place(t, row.position, slice.offset + index),
      name: text(row.name, NAME_MAX),
      points: num(t, row.value, { maximumFractionDigits: 2 }),
      count: row.value ?? 0,
    }),
  );
  return board(
    Colors.gold,
    t.t(`leaderboard:cup.title.${view.board}`),
    lines,
    t.t('leaderboard:none'),
    t.t('leaderboard:rows', { n: t.n(rows.length) }),
    localRow(t, slice, view.pager),
  );
}
