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
  perMatchPoints,
  resultMarks,
  summarySince,
  type MatchReading,
  type MatchSummary,
} from './matches.ts';
import { field, fit, num, regionLabel, text, timestamp } from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

/**
 * Replies that draw on snapshots: `/player history` (a stat over time), `/player compare`, the change
 * beside a profile's headline numbers (`/server leaderboard` is in `server-board.ts`).
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
  /** The measured points (snapshots kept, and the profile just read), oldest first. */
  readonly points: readonly Snapshot[];
  readonly now: number;
  /** The player's recent ranked matches (`matchReadings`); none: measured points only. */
  readonly matches?: readonly MatchReading[] | undefined;
}

/**
 * The span a chart draws: `days` ending at the next whole minute after `now`, so that the same points asked
 * for again within the minute make the same drawing (a lookup in the image cache, not a second render).
 */
function chartSpan(now: number, days: number): { from: number; to: number } {
  const to = Math.ceil(now / 60_000) * 60_000;
  return { from: to - days * DAY_MS, to };
}

function chartLabels(t: Translator) {
  return {
    noData: t.t('player:history.noData'),
    outOfRange: (count: number) => t.t('player:card.chart.outOfRange', { points: t.n(count) }),
    results: (counts: Readonly<Record<'win' | 'loss' | 'draw', number>>) =>
      t.t('player:history.resultsAlt', {
        wins: t.n(counts.win),
        losses: t.n(counts.loss),
        draws: t.n(counts.draw),
      }),
  };
}

/**
 * What a history chart draws: the measured points (solid) and, from the match history, a value per ranked
 * match (dashed) and the results strip. A match's count (16 kills) and a lifetime total (50,000 kills)
 * share no axis: the per-match line goes beside the measured one only for K/D, and for a count only while
 * there are fewer than two measured points (instead of a lone one).
 */
function historySeries(t: Translator, view: HistoryView) {
  const from = view.now - view.days * DAY_MS;
  const measured = view.points.flatMap((point) => {
    const value = statValue(point.stats, view.stat);
    return value === undefined ? [] : [{ at: point.at, value }];
  });
  const readings = (view.matches ?? []).filter((reading) => reading.at >= from && reading.at <= view.now);
  const perMatch = perMatchPoints(readings, view.stat);
  const results = resultMarks(readings, view.stat);
  const sameScale = view.stat === 'kd';
  const withMatches = perMatch.length > 0 && (sameScale || measured.length < 2);
  const withMeasured = measured.length > 0 && (sameScale || measured.length >= 2 || !withMatches);
  const series = [
    ...(withMeasured
      ? [{ label: t.t('player:history.measured'), points: measured, source: 'measured' as const }]
      : []),
    ...(withMatches
      ? [{ label: t.t('player:history.perMatch'), points: perMatch, source: 'matches' as const }]
      : []),
  ];
  return { measured, readings, perMatch: withMatches ? perMatch : [], results, series };
}

/**
 * `/player history`: the chart, and the change over the period. The measured points and those from the match
 * history are told apart (solid and dashed, the footer counting each); with nothing at all to draw, when
 * there will be.
 */
export async function renderHistory(t: Translator, view: HistoryView): Promise<ReplyPayload> {
  const name = text(view.playerName, NAME_MAX);
  const label = statLabel(t, view.stat);
  const { measured, readings, perMatch, results, series } = historySeries(t, view);
  const title = t.t('player:history.title', { stat: label, name, count: view.days });
  const next = timestamp(Math.floor(view.now / HOUR_MS) * HOUR_MS + HOUR_MS, 'R');
  if (series.length === 0 && results.length === 0) {
    const embed: APIEmbed = {
      color: Colors.neutral,
      title,
      description: t.t('player:history.notYet', { when: next }),
    };
    return { embeds: [fit(embed)] };
  }
  const chart = await renderHistoryChart({
    title: t.t('player:history.chartTitle', { stat: label, name: view.playerName, count: view.days }),
    series,
    results,
    ...chartSpan(view.now, view.days),
    locale: t.locale,
    decimals: decimalsOf(view.stat),
    labels: chartLabels(t),
  });
  const first = measured[0];
  const last = measured.at(-1);
  const fields = [];
  if (first && last && measured.length >= 2) {
    fields.push(
      field(
        t.t('player:history.from', { when: timestamp(first.at, 'd') }),
        statText(t, view.stat, first.value),
      ),
      field(t.t('player:history.now'), statText(t, view.stat, last.value)),
      field(t.t('player:history.change'), signedText(t, view.stat, last.value - first.value)),
    );
  } else if (last) {
    fields.push(field(t.t('player:history.now'), statText(t, view.stat, last.value)));
  }
  const summary = summarySince(readings, 0, true);
  if (summary) fields.push(field(t.t('player:history.perMatch'), matchesLine(t, summary), false));
  const footer = [t.t('player:history.points', { count: measured.length })];
  const fromMatches = perMatch.length > 0 ? perMatch.length : results.length;
  if (fromMatches > 0) footer.push(t.t('player:history.matches', { count: fromMatches }));
  const description =
    perMatch.length > 0
      ? t.t('player:history.nextPoint', { when: next })
      : measured.length < 2
        ? t.t('player:history.onlyMeasured', { when: next })
        : undefined;
  const embed: APIEmbed = {
    color: Colors.info,
    title,
    ...(description === undefined ? {} : { description }),
    fields,
    // Without its chart (it could not be drawn) the reply is the text alone.
    ...(chart ? { image: { url: 'attachment://history.png' } } : {}),
    footer: { text: footer.join(' · ') },
  };
  return {
    embeds: [fit(embed)],
    files: chart ? [{ name: 'history.png', data: chart.png, description: chart.altText }] : [],
  };
}

/** "3 matches · 2 W / 1 L · K/D 1.45": a summary of ranked matches. */
export function matchesLine(t: Translator, summary: MatchSummary): string {
  return t.t('player:history.matchesLine', {
    played: t.t('player:history.played', { count: summary.played }),
    wins: t.n(summary.wins),
    losses: t.n(summary.losses),
    kd: statText(t, 'kd', summary.kd),
  });
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

/** The ranked matches a profile's "since" lines sum: the first page of the match history. */
export interface RecentMatches {
  readonly readings: readonly MatchReading[];
  /** The history has no older page (the page was not full): a window older than its oldest match is whole. */
  readonly complete: boolean;
  readonly now: number;
}

/**
 * Lines of "since yesterday" and "since last week" for a profile's overview: the change of each headline
 * stat from the older snapshot to the current numbers. Without those snapshots, the change since the oldest
 * one of the day (when the bot saw the player earlier), and from the match history the ranked matches of the
 * last 24 hours and 7 days (when the page read reaches back that far), which need no snapshots at all.
 */
export function changeFields(
  t: Translator,
  current: SnapshotStats,
  since: {
    readonly day?: Snapshot | undefined;
    readonly week?: Snapshot | undefined;
    readonly earliest?: Snapshot | undefined;
  },
  ranked?: RecentMatches,
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
  if (!since.day && !since.week && since.earliest) {
    // Discord shows no timestamp in a field's name: the time goes into the value.
    const when = t.t('player:history.sinceThen', { when: timestamp(since.earliest.at, 'R') });
    fields.push(field(t.t('player:history.change'), `${when}: ${line(since.earliest.stats)}`, false));
  }
  if (ranked) {
    const day = summarySince(ranked.readings, ranked.now - DAY_MS, ranked.complete);
    const week = summarySince(ranked.readings, ranked.now - 7 * DAY_MS, ranked.complete);
    if (day) fields.push(field(t.t('player:history.matchesDay'), matchesLine(t, day), false));
    if (week && week.played !== day?.played) {
      fields.push(field(t.t('player:history.matchesWeek'), matchesLine(t, week), false));
    }
  }
  return fields;
}

export interface CompareSide {
  readonly playerName: string;
  readonly stats: SnapshotStats;
  /** Measured points of the compare chart (K/D over 30 days), oldest first. */
  readonly history: readonly Snapshot[];
  /** The player's recent ranked matches: their K/D per match draws the chart until both have two points. */
  readonly matches?: readonly MatchReading[] | undefined;
}

/**
 * The compare chart's lines: the measured K/D of both once both have two points; until then the K/D per
 * ranked match of both, from their match histories (dashed), when both have a match in the 30 days; else
 * what was measured (a lone point each, with its value). Never one player measured against the other's
 * matches: the two lines always mean the same thing.
 */
function compareSeries(a: CompareSide, b: CompareSide, now: number) {
  const measured = [a, b].map((side) => ({
    label: side.playerName,
    points: side.history.map((point) => ({ at: point.at, value: statValue(point.stats, 'kd') ?? 0 })),
    source: 'measured' as const,
  }));
  const from = now - 30 * DAY_MS;
  const fromMatches = [a, b].map((side) => ({
    label: side.playerName,
    points: perMatchPoints(
      (side.matches ?? []).filter((reading) => reading.at >= from && reading.at <= now),
      'kd',
    ),
    source: 'matches' as const,
  }));
  if (measured.every((series) => series.points.length >= 2)) return { series: measured, kind: 'measured' };
  if (fromMatches.every((series) => series.points.length > 0))
    return { series: fromMatches, kind: 'matches' };
  if (measured.some((series) => series.points.length > 0)) return { series: measured, kind: 'measured' };
  return undefined;
}

/** `/player compare a b`: stat by stat, the better value marked; their K/D over time, saying what it is. */
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
  const chosen = compareSeries(a, b, now);
  if (chosen === undefined) {
    embed.footer = { text: t.t('player:compare.noChart') };
    return { embeds: [fit(embed)] };
  }
  const chart = await renderHistoryChart({
    title: t.t('player:compare.chartTitle', { a: a.playerName, b: b.playerName }),
    series: chosen.series,
    ...chartSpan(now, 30),
    locale: t.locale,
    decimals: 2,
    labels: chartLabels(t),
  });
  embed.footer = {
    text: t.t(chosen.kind === 'matches' ? 'player:compare.chartMatches' : 'player:compare.chartMeasured'),
  };
  // Not drawn (a failed or stuck render): the comparison as text alone.
  if (chart === undefined) return { embeds: [fit(embed)] };
  embed.image = { url: 'attachment://compare.png' };
  return {
    embeds: [fit(embed)],
    files: [{ name: 'compare.png', data: chart.png, description: chart.altText }],
  };
}
