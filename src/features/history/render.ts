import type { APIEmbed } from 'discord.js';
import {
  higherIsBetter,
  HISTORY_STATS,
  mmrRegion,
  statValue,
  type HistoryStat,
  type Snapshot,
  type SnapshotStats,
} from '../../players/stats.ts';
import type { Translator } from '../../i18n/index.ts';
import { renderHistoryChart } from './chart.ts';
import {
  field,
  fit,
  MAX_PAGE_ROWS,
  num,
  pageRow,
  regionLabel,
  text,
  timestamp,
  type Pager,
  type Row,
} from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

/**
 * Replies that draw on snapshots: `/player history` (a stat over time), `/player compare`, the change
 * beside a profile's headline numbers, and `/server leaderboard`.
 */
const NAME_MAX = 64;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A stat's name in the reader's language (`mmr-3`: "MMR (Europe)"). */
export function statLabel(t: Translator, stat: HistoryStat): string {
  const region = mmrRegion(stat);
  return region === undefined
    ? t.t(`player:stats.${stat}`)
    : t.t('player:stats.mmrIn', { region: regionLabel(t, region) });
}

function decimalsOf(stat: HistoryStat): number {
  return stat === 'kd' ? 2 : 0;
}

export function statText(t: Translator, stat: HistoryStat, value: number | undefined): string {
  const digits = decimalsOf(stat);
  return num(t, value, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function signedText(t: Translator, stat: HistoryStat, change: number): string {
  const shown = statText(t, stat, Math.abs(change));
  if (Math.abs(change) < 10 ** -decimalsOf(stat) / 2) return statText(t, stat, 0);
  return change > 0 ? `+${shown}` : `−${shown}`;
}

export interface HistoryView {
  readonly playerName: string;
  readonly stat: HistoryStat;
  readonly days: number;
  readonly points: readonly Snapshot[];
  readonly now: number;
}

/** `/player history`: the chart, and the change over the period. Fewer than two points: when there will be. */
export async function renderHistory(t: Translator, view: HistoryView): Promise<ReplyPayload> {
  const name = text(view.playerName, NAME_MAX);
  const label = statLabel(t, view.stat);
  const values = view.points.flatMap((point) => {
    const value = statValue(point.stats, view.stat);
    return value === undefined ? [] : [{ at: point.at, value }];
  });
  const title = t.t('player:history.title', { stat: label, name, days: view.days });
  if (values.length < 2) {
    const next = Math.floor(view.now / HOUR_MS) * HOUR_MS + HOUR_MS;
    const embed: APIEmbed = {
      color: Colors.neutral,
      title,
      description: t.t('player:history.notYet', { when: timestamp(next, 'R') }),
    };
    return { embeds: [fit(embed)] };
  }
  const first = values[0];
  const last = values.at(-1);
  const chart = await renderHistoryChart({
    title: t.t('player:history.chartTitle', { stat: label, name: view.playerName, days: view.days }),
    series: [{ label: view.playerName, points: values }],
    from: view.now - view.days * DAY_MS,
    to: view.now,
    locale: t.locale,
    decimals: decimalsOf(view.stat),
    labels: {
      noData: t.t('player:history.noData'),
      outOfRange: (count) => t.t('player:card.chart.outOfRange', { points: t.n(count) }),
    },
  });
  const fields =
    first && last
      ? [
          field(
            t.t('player:history.from', { when: timestamp(first.at, 'd') }),
            statText(t, view.stat, first.value),
          ),
          field(t.t('player:history.now'), statText(t, view.stat, last.value)),
          field(t.t('player:history.change'), signedText(t, view.stat, last.value - first.value)),
        ]
      : [];
  const embed: APIEmbed = {
    color: Colors.info,
    title,
    fields,
    // Without its chart (it could not be drawn) the reply is the text alone.
    ...(chart ? { image: { url: 'attachment://history.png' } } : {}),
    footer: { text: t.t('player:history.points', { count: values.length }) },
  };
  return {
    embeds: [fit(embed)],
    ...(chart ? { files: [{ name: 'history.png', data: chart.png, description: chart.altText }] } : {}),
  };
}

/** The stats a profile shows a change of, beside its headline numbers. */
const CHANGE_STATS = [
  'kd',
  'kills',
  'deaths',
  'score',
  'level',
  'wins',
] as const satisfies readonly HistoryStat[];

/**
 * Lines of "since yesterday" and "since last week" for a profile's overview: the change of each headline
 * stat from the older snapshot to the current numbers. Empty without snapshots.
 */
export function changeFields(
  t: Translator,
  current: SnapshotStats,
  since: { readonly day?: Snapshot | undefined; readonly week?: Snapshot | undefined },
) {
  const line = (older: SnapshotStats) =>
    CHANGE_STATS.map((stat) => {
      const before = statValue(older, stat) ?? 0;
      const after = statValue(current, stat) ?? 0;
      return `${statLabel(t, stat)} ${signedText(t, stat, after - before)}`;
    }).join(' · ');
  const fields = [];
  if (since.day) fields.push(field(t.t('player:history.sinceDay'), line(since.day.stats), false));
  if (since.week) fields.push(field(t.t('player:history.sinceWeek'), line(since.week.stats), false));
  return fields;
}

export interface CompareSide {
  readonly playerName: string;
  readonly stats: SnapshotStats;
  /** Points of the compare chart (K/D over 30 days); fewer than two: no chart for this side. */
  readonly history: readonly Snapshot[];
}

/** `/player compare a b`: stat by stat, the better value marked; the K/D histories overlaid when both have some. */
export async function renderCompare(
  t: Translator,
  a: CompareSide,
  b: CompareSide,
  now: number,
): Promise<ReplyPayload> {
  const [nameA, nameB] = [text(a.playerName, NAME_MAX), text(b.playerName, NAME_MAX)];
  const fields = HISTORY_STATS.flatMap((stat) => {
    const [va, vb] = [statValue(a.stats, stat), statValue(b.stats, stat)];
    if (va === undefined && vb === undefined) return [];
    const better =
      va === undefined || vb === undefined || va === vb
        ? undefined
        : va > vb === higherIsBetter(stat)
          ? 'a'
          : 'b';
    const mark = (side: 'a' | 'b') => (better === side ? ' ✅' : '');
    return [
      field(statLabel(t, stat), `${statText(t, stat, va)}${mark('a')}\n${statText(t, stat, vb)}${mark('b')}`),
    ];
  });
  const embed: APIEmbed = {
    color: Colors.info,
    title: t.t('player:compare.title', { a: nameA, b: nameB }),
    description: t.t('player:compare.legend', { a: nameA, b: nameB }),
    fields,
  };
  const series = [a, b].map((side) => ({
    label: side.playerName,
    points: side.history.map((point) => ({ at: point.at, value: statValue(point.stats, 'kd') ?? 0 })),
  }));
  if (series.every((s) => s.points.length >= 2)) {
    const chart = await renderHistoryChart({
      title: t.t('player:compare.chartTitle', { a: a.playerName, b: b.playerName }),
      series,
      from: now - 30 * DAY_MS,
      to: now,
      locale: t.locale,
      decimals: 2,
      labels: {
        noData: t.t('player:history.noData'),
        outOfRange: (count) => t.t('player:card.chart.outOfRange', { points: t.n(count) }),
      },
    });
    // Not drawn (a failed or stuck render): the comparison as text alone.
    if (chart === undefined) return { embeds: [fit(embed)] };
    embed.image = { url: 'attachment://compare.png' };
    return {
      embeds: [fit(embed)],
      files: [{ name: 'compare.png', data: chart.png, description: chart.altText }],
    };
  }
  embed.footer = { text: t.t('player:compare.noChart') };
  return { embeds: [fit(embed)] };
}

export interface LeaderboardRow {
  readonly rank: number;
  readonly userId: string;
  readonly playerName: string;
  readonly value: number;
}

export interface ServerLeaderboardView {
  readonly guildName: string;
  readonly stat: HistoryStat;
  readonly rows: readonly LeaderboardRow[];
  readonly page: number;
  readonly pages: number;
  readonly total: number;
  /** The caller's own row, shown under the page when it is not on it. */
  readonly own: LeaderboardRow | undefined;
  readonly pager: Pager;
}

function leaderboardLine(t: Translator, stat: HistoryStat, row: LeaderboardRow): string {
  return t.t('server:leaderboard.line', {
    rank: num(t, row.rank),
    name: text(row.playerName, NAME_MAX),
    user: `<@${row.userId}>`,
    value: statText(t, stat, row.value),
  });
}

/** `/server leaderboard`: the server's linked members by a stat of their latest snapshots (no request). */
export function renderServerLeaderboard(t: Translator, view: ServerLeaderboardView): ReplyPayload {
  const rows = view.rows.slice(0, MAX_PAGE_ROWS);
  const lines = rows.map((row) => leaderboardLine(t, view.stat, row));
  const onPage = view.own !== undefined && rows.some((row) => row.userId === view.own?.userId);
  if (view.own && !onPage) lines.push('…', leaderboardLine(t, view.stat, view.own));
  const embed: APIEmbed = {
    color: Colors.brand,
    title: t.t('server:leaderboard.title', {
      server: text(view.guildName, 100),
      stat: statLabel(t, view.stat),
    }),
    description: lines.length === 0 ? t.t('server:leaderboard.none') : lines.join('\n'),
    footer: { text: t.t('server:leaderboard.footer', { count: view.total, n: num(t, view.total) }) },
  };
  const components: Row[] = [];
  const row = pageRow(t, {
    pager: view.pager,
    page: view.page,
    totalPages: view.pages,
    hasNext: view.page < view.pages,
  });
  if (row) components.push(row);
  // Mentions name members; they never ping (the reply allows no mentions).
  return { embeds: [fit(embed)], components };
}
