import { ButtonStyle, ComponentType } from 'discord.js';
import type { FeaturedMaps, MapInfo, MapLeaderboard, MapLeaderboardPlayer } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { MAP_BOARD_PER_PAGE, type BoardSize } from './board-size.ts';
import {
  duration,
  field,
  fit,
  num,
  pageRow,
  pageRows,
  pastTimestamp,
  text,
  type Pager,
  type PastTimes,
  type Row,
} from '../../render/common.ts';
import { playUrl } from '../../announcements/render-posts.ts';
import { mapCategoryName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { DiscordLimits, textLength, truncate } from '../../render/text.ts';

export const BOARD_TYPES = ['score', 'time'] as const;
export type BoardType = (typeof BOARD_TYPES)[number];
/** 0 ascending (lower is better), 1 descending (higher is better). */
export type BoardOrder = 0 | 1;

export function isBoardType(value: unknown): value is BoardType {
  return (BOARD_TYPES as readonly unknown[]).includes(value);
}

export function isBoardOrder(value: unknown): value is BoardOrder {
  return value === 0 || value === 1;
}

/** Milliseconds as `mm:ss.mmm` (minutes keep counting past the hour: `75:02.010`). */
export function formatLapTime(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  const whole = Math.floor(ms);
  const minutes = Math.floor(whole / 60_000);
  const seconds = Math.floor(whole / 1000) % 60;
  const millis = whole % 1000;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${String(millis).padStart(3, '0')}`;
}

/** A board's value: a time for `time` boards, a number in the reader's locale otherwise. */
export function boardValue(t: Translator, type: string | undefined, value: number | undefined): string {
  return type === 'time' ? formatLapTime(value) : num(t, value);
}

export function boardTypeLabel(t: Translator, type: string | undefined): string {
  if (type === undefined || type === '') return t.t('map:board.none');
  return isBoardType(type) ? t.t(`map:board.type.${type}`) : text(type, 40);
}

export function boardOrderLabel(t: Translator, order: number | undefined): string {
  return isBoardOrder(order) ? t.t(`map:board.order.${order}`) : '—';
}

function hasBoard(type: string | undefined): boolean {
  return type !== undefined && type !== '';
}

function leaderboardButton(t: Translator, map: MapInfo, id: string | undefined): Row | undefined {
  if (!hasBoard(map.leaderboard_type) || !id) return undefined;
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        custom_id: id,
        label: truncate(t.t('map:info.showLeaderboard'), DiscordLimits.buttonLabel),
      },
    ],
  };
}

/**
 * A map's record: creator, votes, plays, playtime, dates, its leaderboard, whether it is featured, and
 * the game's link that starts it (as the featured-map post has it).
 */
export function renderMapInfo(
  t: Translator,
  map: MapInfo,
  leaderboardId: string | undefined,
  past?: PastTimes,
): ReplyPayload {
  const fields = [
    field(t.t('map:info.creator'), text(map.creator_name, 100)),
    field(t.t('map:info.votes'), num(t, map.votes)),
    field(t.t('map:info.plays'), num(t, map.gameplays)),
    field(
      t.t('map:info.playtime'),
      duration(t, map.playtime === undefined ? undefined : map.playtime / 1000),
    ),
    field(t.t('map:info.category'), mapCategoryName(t, map.category)),
    field(t.t('map:info.featured'), t.t(map.featured ? 'common:yes' : 'common:no')),
    field(t.t('map:info.created'), pastTimestamp(map.created_at, 'D', past)),
    field(t.t('map:info.updated'), pastTimestamp(map.updated_at, 'D', past)),
    field(t.t('map:info.board'), boardTypeLabel(t, map.leaderboard_type)),
  ];
  if (hasBoard(map.leaderboard_type)) {
    fields.push(field(t.t('map:info.order'), boardOrderLabel(t, map.leaderboard_order)));
  }
  const url = playUrl(map.name);
  if (url) fields.push(field(t.t('map:info.play'), url, false));
  const description = map.description?.trim() ? text(map.description, 2000) : undefined;
  const row = leaderboardButton(t, map, leaderboardId);
  return {
    embeds: [
      fit({
        color: map.featured ? Colors.gold : Colors.info,
        title: `${map.featured ? '⭐ ' : ''}${text(map.name, 200)}`,
        ...(description ? { description } : {}),
        fields,
        footer: { text: t.t('map:info.id', { id: map.map_id }) },
      }),
    ],
    components: row ? [row] : [],
  };
}

const MEDALS = ['🥇', '🥈', '🥉'] as const;

function positionMark(position: number | undefined): string {
  if (position === undefined) return '—';
  return MEDALS[position - 1] ?? `#${position}`;
}

export interface MapLeaderboardView {
  /** The map name as asked (the reply's own spelling is preferred when present). */
  readonly name: string;
  readonly data: MapLeaderboard;
  readonly page: number;
  /** The board the user asked for; undefined means the map's own. */
  readonly type?: BoardType | undefined;
  readonly order?: BoardOrder | undefined;
  readonly pager: Pager;
  /** Now, for the times of past events (one after it is shown as now and reported). */
  readonly past?: PastTimes | undefined;
  /**
   * The map's own board type from its record ('' for none), when it was read: an empty board of
   * another type is then explained (a score map has no time board) instead of "nobody is on it yet".
   */
  readonly ownType?: string | undefined;
}

/** What an empty page of a board says. */
function emptyBoard(t: Translator, view: MapLeaderboardView, name: string, type: string | undefined): string {
  const own = view.ownType;
  if (view.page <= 1 && view.type !== undefined && own !== undefined && own !== view.type) {
    if (!isBoardType(own)) return t.t('map:leaderboard.noBoard');
    return t.t(`map:leaderboard.otherType.${own}`, { name: text(name, 100) });
  }
  if (!hasBoard(type)) return t.t('map:leaderboard.noBoard');
  return t.t(view.page > 1 ? 'map:leaderboard.emptyPage' : 'map:leaderboard.empty');
}

/** One page (25 rows) of a map's leaderboard; times as `mm:ss.mmm`, scores as numbers. */
export function renderMapLeaderboard(t: Translator, view: MapLeaderboardView): ReplyPayload {
  const { data, page } = view;
  const name = data.map_name ?? view.name;
  const type = view.type ?? data.leaderboard_type;
  const order = view.order ?? data.leaderboard_order;
  const perPage = data.per_page ?? MAP_BOARD_PER_PAGE;
  const lines = pageRows(data.entries, perPage).map((entry) =>
    t.t('map:leaderboard.line', {
      position: positionMark(entry.position),
      player: text(entry.player_name, 40),
      value: boardValue(t, type, entry.value),
      when: pastTimestamp(entry.date, 'R', view.past),
    }),
  );
  const empty = lines.length > 0 ? '' : emptyBoard(t, view, name, type);
  const embed = fit({
    color: Colors.info,
    title: t.t('map:leaderboard.title', { name: text(name, 100) }),
    description: lines.length > 0 ? lines.join('\n') : empty,
    footer: {
      text: hasBoard(type)
        ? t.t('map:leaderboard.footer', { type: boardTypeLabel(t, type), order: boardOrderLabel(t, order) })
        : boardTypeLabel(t, type),
    },
  });
  const row = pageRow(t, { pager: view.pager, page, hasNext: data.entries.length >= perPage });
  return { embeds: [embed], components: row ? [row] : [] };
}

/** The position and, when it is known, out of how many (`of 500+` when only a lower bound is). */
function positionOf(t: Translator, position: number | undefined, board: BoardSize | undefined): string {
  const mark = positionMark(position);
  if (position === undefined || !board || !Number.isSafeInteger(board.size) || board.size < 1) return mark;
  return t.t(board.exact ? 'map:rank.of' : 'map:rank.ofAtLeast', {
    position: mark,
    total: num(t, board.size),
  });
}

/** One player's standing on a map's board: position out of how many, value and when it was set. */
export function renderMapRank(
  t: Translator,
  entry: MapLeaderboardPlayer,
  mapName: string,
  past?: PastTimes,
  board?: BoardSize,
): ReplyPayload {
  const type = entry.leaderboard_type;
  const podium = entry.position !== undefined && entry.position >= 1 && entry.position <= 3;
  return {
    embeds: [
      fit({
        color: podium ? Colors.gold : Colors.info,
        title: t.t('map:rank.title', {
          player: text(entry.player_name, 100),
          name: text(entry.map_name ?? mapName, 100),
        }),
        fields: [
          field(t.t('map:rank.position'), positionOf(t, entry.position, board)),
          field(t.t(type === 'time' ? 'map:rank.time' : 'map:rank.value'), boardValue(t, type, entry.value)),
          field(t.t('map:rank.date'), pastTimestamp(entry.date, 'f', past)),
          field(t.t('map:info.board'), boardTypeLabel(t, type)),
          field(t.t('map:info.order'), boardOrderLabel(t, entry.leaderboard_order)),
        ],
      }),
    ],
  };
}

/** ` · ▶ url` (the game's link that starts the map; Discord shows it as a link), or nothing. */
function playLink(name: string): string {
  const url = playUrl(name);
  return url ? ` · ▶ ${url}` : '';
}

const FEATURED_LINES = 40;
// Room for the "…and N more" line within the description's 4096.
const FEATURED_BUDGET = DiscordLimits.embedDescription - 96;

/**
 * The featured maps, newest first as the API lists them: what the featured-map post shows of each that the
 * list carries (name, creator and the link that starts it), one line a map.
 */
export function renderFeaturedMaps(t: Translator, data: FeaturedMaps): ReplyPayload {
  const lines: string[] = [];
  let used = 0;
  for (const [index, map] of data.maps.entries()) {
    const line = t.t(map.creator_name ? 'map:featured.line' : 'map:featured.lineNoCreator', {
      position: num(t, index + 1),
      name: text(map.name, 80),
      creator: text(map.creator_name, 40),
      play: playLink(map.name),
    });
    const size = textLength(line) + 1;
    if (lines.length >= FEATURED_LINES || used + size > FEATURED_BUDGET) break;
    lines.push(line);
    used += size;
  }
  if (data.maps.length > lines.length) {
    const rest = data.maps.length - lines.length;
    lines.push(t.t('map:featured.more', { n: num(t, rest) }));
  }
  const total = data.count !== undefined && data.count >= 0 ? data.count : data.maps.length;
  return {
    embeds: [
      fit({
        color: Colors.gold,
        title: t.t('map:featured.title'),
        description: lines.length > 0 ? lines.join('\n') : t.t('map:featured.none'),
        footer: { text: t.t('map:featured.footer', { count: total, n: num(t, total) }) },
      }),
    ],
  };
}
