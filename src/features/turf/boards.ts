import type {
  TurfTopGrossingClans,
  TurfTopPerformingClans,
  TurfTopPerformingPlayers,
} from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { fit, num, ratio, text, type Pager } from '../../render/common.ts';
import { localPage, localRow, place, type LocalPage } from '../../render/pages.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { dayLabel, mapScope } from './labels.ts';

/**
 * The three turf leaderboards (`/territorial-wars/leaderboards/...`): the API sends 100 rows at once,
 * shown 25 a page like the game's other boards. Only the clans board knows days; the grossing board is
 * the season's earnings and the players board the season's points, so a day (or a map, for grossing)
 * asked of them is named as not applying rather than silently dropped.
 */
export const TURF_BOARDS = ['clans', 'grossing', 'players'] as const;
export type TurfBoard = (typeof TURF_BOARDS)[number];
/** The most rows a turf board shows, whatever an upstream reply holds (the spec's boards have 100). */
export const TURF_BOARD_ROWS = 100;
const NAME_MAX = 40;
const CLAN_MAX = 32;

export function isTurfBoard(value: string | undefined | null): value is TurfBoard {
  return (TURF_BOARDS as readonly string[]).includes(value ?? '');
}

/** Which of the asked options a board cannot take. */
export function ignoredOptions(
  board: TurfBoard,
  asked: { readonly day: boolean; readonly map: boolean },
): Array<'day' | 'map'> {
  const ignored: Array<'day' | 'map'> = [];
  if (asked.day && board !== 'clans') ignored.push('day');
  if (asked.map && board === 'grossing') ignored.push('map');
  return ignored;
}

export type TurfBoardData =
  | { readonly board: 'clans'; readonly data: TurfTopPerformingClans }
  | { readonly board: 'grossing'; readonly data: TurfTopGrossingClans }
  | { readonly board: 'players'; readonly data: TurfTopPerformingPlayers };

export interface TurfBoardView {
  readonly rows: TurfBoardData;
  /** The day the clans board shows (the others are the season's). */
  readonly day: number;
  readonly mapId: number | undefined;
  /** Options the user gave that this board does not take. */
  readonly ignored: ReadonlyArray<'day' | 'map'>;
  readonly page: number;
  readonly pager: Pager;
}

function fighting(
  t: Translator,
  row: {
    readonly points?: number | undefined;
    readonly kills?: number | undefined;
    readonly deaths?: number | undefined;
    readonly kd?: number | undefined;
  },
): Record<string, string | number> {
  return {
    count: row.points ?? 0,
    points: num(t, row.points),
    kills: num(t, row.kills),
    deaths: num(t, row.deaths),
    kd: ratio(t, row.kd),
  };
}

/** Each row of the page as a line, the place taken from the row (or its index when absent). */
function lines(
  t: Translator,
  view: TurfBoardView,
): { lines: string[]; total: number; slice: LocalPage<unknown> } {
  const { rows } = view;
  if (rows.board === 'clans') {
    const slice = localPage(rows.data.rows.slice(0, TURF_BOARD_ROWS), view.page);
    const out = slice.rows.map((row, i) =>
      t.t('turf:boards.clanLine', {
        place: place(t, row.position, slice.offset + i),
        name: text(row.clan_name, NAME_MAX),
        ...fighting(t, row),
      }),
    );
    return { lines: out, total: Math.min(rows.data.rows.length, TURF_BOARD_ROWS), slice };
  }
  if (rows.board === 'grossing') {
    const slice = localPage(rows.data.rows.slice(0, TURF_BOARD_ROWS), view.page);
    const out = slice.rows.map((row, i) =>
      t.t('turf:boards.grossingLine', {
        place: place(t, row.position, slice.offset + i),
        name: text(row.clan_name, NAME_MAX),
        kr: num(t, row.kr),
      }),
    );
    return { lines: out, total: Math.min(rows.data.rows.length, TURF_BOARD_ROWS), slice };
  }
  const slice = localPage(rows.data.rows.slice(0, TURF_BOARD_ROWS), view.page);
  const out = slice.rows.map((row, i) =>
    t.t('turf:boards.playerLine', {
      place: place(t, row.position, slice.offset + i),
      name: text(row.player_name, NAME_MAX),
      clan: row.clan_name ? t.t('turf:boards.clan', { clan: text(row.clan_name, CLAN_MAX) }) : '',
      ...fighting(t, row),
    }),
  );
  return { lines: out, total: Math.min(rows.data.rows.length, TURF_BOARD_ROWS), slice };
}

/** What the board covers: a day and a map, or the season. */
function scope(t: Translator, view: TurfBoardView): string {
  const map = mapScope(t, view.mapId);
  switch (view.rows.board) {
    case 'clans':
      return t.t('turf:boards.scopeDay', { day: dayLabel(t, view.day), map });
    case 'grossing':
      return t.t('turf:boards.scopeGrossing');
    case 'players':
      return t.t('turf:boards.scopeSeason', { map });
  }
}

export function renderTurfBoard(t: Translator, view: TurfBoardView): ReplyPayload {
  const { lines: shown, total, slice } = lines(t, view);
  const notes = view.ignored.map((option) => t.t(`turf:boards.ignored.${option}`));
  const head = [scope(t, view), ...notes].join('\n');
  const body = shown.length > 0 ? shown.join('\n') : t.t('turf:boards.none');
  return {
    embeds: [
      fit({
        color: view.rows.board === 'grossing' ? Colors.gold : Colors.info,
        title: t.t(`turf:boards.title.${view.rows.board}`),
        description: `${head}\n\n${body}`,
        footer: { text: t.t('leaderboard:rows', { n: t.n(total) }) },
      }),
    ],
    components: localRow(t, slice, view.pager),
  };
}
