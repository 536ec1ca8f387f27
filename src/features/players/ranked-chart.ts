import { dayFormatter, linear, niceTicks, tickFormatter, valueFormatter } from '../../render/chart/axis.ts';
import { inRange, isDrawableAmount, isDrawableTime } from '../../render/chart/bounds.ts';
import { drawableText, ellipsizeToWidth, measureText } from '../../render/chart/font.ts';
import {
  background,
  droppedNote,
  droppedSentence,
  emptyMessage,
  legend,
  plotBackground,
  sentences,
  title,
  type PlotArea,
} from '../../render/chart/layout.ts';
import { richText } from './card.ts';
import { chartSvg, toChartImage, type ChartImage, type ChartSvg } from '../../render/chart/png.ts';
import { element, line, num, rect, svgDocument, text } from '../../render/chart/svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN } from '../../render/chart/theme.ts';

/** One reading of a region's MMR (from the snapshots the bot keeps). */
export interface RankedPoint {
  /** Milliseconds since the epoch. */
  at: number;
  mmr: number;
}

export interface RankedRegionStanding {
  label: string;
  mmr: number;
  wins: number;
  losses: number;
  /** Earlier readings of this region's MMR, any order; the current one is added at `now`. */
  history?: readonly RankedPoint[] | undefined;
}

export interface RankedStandingChartInput {
  title: string;
  regions: readonly RankedRegionStanding[];
  locale: string;
  /** When the current MMR was read (the end of the line over time). */
  now: number;
  labels: {
    mmr: string;
    wins: string;
    losses: string;
    none: string;
    /** The word before the best MMR ("best 2,210"). */
    best: string;
    history: string;
    noHistory: string;
    /** The note of a chart that left `count` values out (not finite, out of range). */
    outOfRange: (count: number) => string;
  };
}

const PLOT_TOP = 92;
const PLOT_BOTTOM = CHART_HEIGHT - 40;
/** The standings column on the left; the line over time takes the rest. */
const COLUMN_RIGHT = 360;
const MAX_REGIONS = 6;
/** Readings drawn per region at most (the snapshots keep fewer; a hostile caller gets no more). */
const MAX_POINTS = 400;
const REGION_COLORS = [Colors.mmr, Colors.rival, Colors.price, Colors.sales, Colors.player, Colors.wins];
const DAY_MS = 86_400_000;

interface Region {
  label: string;
  mmr: number;
  wins: number;
  losses: number;
  best: number;
  color: string;
  points: RankedPoint[];
}

/**
 * The regions to draw, every value within bounds: an MMR is a finite number within ±1e12, wins and losses
 * counts of 0..1e12, a reading's time one Intl can format. What is not is left out (a count reads 0) and
 * counted in `dropped`, for the chart to say so.
 */
function regionsOf(input: RankedStandingChartInput): { regions: Region[]; dropped: number } {
  const now = isDrawableTime(input.now) ? input.now : 0;
  let dropped = 0;
  const kept = (value: number, ok: (value: number) => boolean): number => {
    if (ok(value)) return value;
    dropped += 1;
    return 0;
  };
  const regions = input.regions.slice(0, MAX_REGIONS).map((region, i) => {
    const mmr = kept(region.mmr, (value) => inRange(value));
    const history = (region.history ?? []).slice(0, MAX_POINTS);
    const earlier = history
      .filter((point) => isDrawableTime(point.at) && inRange(point.mmr) && point.at < now)
      .sort((a, b) => a.at - b.at);
    dropped += history.filter((point) => !isDrawableTime(point.at) || !inRange(point.mmr)).length;
    const points = [...earlier.slice(-(MAX_POINTS - 1)), { at: now, mmr }];
    return {
      label: region.label,
      mmr,
      wins: kept(region.wins, isDrawableAmount),
      losses: kept(region.losses, isDrawableAmount),
      best: Math.max(mmr, ...points.map((point) => point.mmr)),
      color: REGION_COLORS[i % REGION_COLORS.length] ?? Colors.mmr,
      points,
    };
  });
  return { regions, dropped };
}

/** Words of `content` on at most `maxLines` lines of `maxWidth`, the last one ellipsized. */
function wrap(content: string, maxWidth: number, size: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  const words = content.split(/\s+/).slice(0, 200);
  for (const word of words) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (measureText(candidate, size) <= maxWidth || current === '') {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = word;
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && current !== '') lines.push(current);
  return lines
    .slice(0, maxLines)
    .map((part, i) =>
      i === maxLines - 1 && lines.length === maxLines && lines.join(' ').length < content.trim().length
        ? ellipsizeToWidth(`${part}…`, maxWidth, size)
        : ellipsizeToWidth(part, maxWidth, size),
    );
}

/**
 * The ranked standing in two parts. On the left, one block per region: its MMR large, a bar of the MMR
 * against the player's best seen in that region (the best of the readings kept and the current one), and
 * the season's wins and losses as a strip split green/red. On the right, the MMR of every region over
 * time, one coloured line each, from the snapshots; until there are two readings it says when the line
 * will show.
 */
export function buildRankedStandingSvg(input: RankedStandingChartInput): ChartSvg {
  const { labels } = input;
  const formatValue = valueFormatter(input.locale, 0);
  const { regions, dropped } = regionsOf(input);
  const note = droppedNote(dropped, labels.outOfRange);
  const said = droppedSentence(dropped, labels.outOfRange);

  if (regions.length === 0) {
    const area: PlotArea = { left: MARGIN, top: PLOT_TOP, right: CHART_WIDTH - MARGIN, bottom: PLOT_BOTTOM };
    const svg = svgDocument(CHART_WIDTH, CHART_HEIGHT, [
      background(),
      title(input.title),
      plotBackground(area),
      emptyMessage(drawableText(labels.none), area),
    ]);
    return chartSvg(svg, sentences([input.title, labels.none]));
  }

  // The title holds the player's name: drawn run by run in its fonts, as on the profile card.
  const heading = ellipsizeToWidth(
    drawableText(input.title, 'bold'),
    CHART_WIDTH - 2 * MARGIN,
    Fonts.title,
    'bold',
  );
  const parts: string[] = [
    background(),
    richText(heading, { x: MARGIN, y: 40, size: Fonts.title, fill: Colors.title, weight: 'bold' }),
  ];
  const columnWidth = COLUMN_RIGHT - MARGIN;
  const rowHeight = (PLOT_BOTTOM - PLOT_TOP) / regions.length;
  const scale = Math.min(1, rowHeight / 112);
  const labelSize = Math.max(10, 15 * scale);
  const mmrSize = Math.max(12, 28 * scale);
  const smallSize = Math.max(9, 13 * scale);

  regions.forEach((region, i) => {
    const top = PLOT_TOP + i * rowHeight;
    const label = ellipsizeToWidth(drawableText(region.label, 'bold'), columnWidth - 20, labelSize, 'bold');
    parts.push(
      element('circle', { cx: MARGIN + 5, cy: top + labelSize * 0.65, r: 5, fill: region.color }),
      text(label, {
        x: MARGIN + 16,
        y: top + labelSize,
        size: labelSize,
        fill: Colors.text,
        weight: 'bold',
      }),
    );
    const bestText = ellipsizeToWidth(
      drawableText(`${labels.best} ${formatValue(region.best)}`),
      columnWidth / 2 - 8,
      smallSize,
    );
    const mmrText = ellipsizeToWidth(
      drawableText(`${formatValue(region.mmr)} ${labels.mmr}`, 'bold'),
      columnWidth - measureText(bestText, smallSize) - 12,
      mmrSize,
      'bold',
    );
    const mmrBaseline = top + labelSize + 6 + mmrSize;
    parts.push(
      text(mmrText, {
        x: MARGIN,
        y: mmrBaseline,
        size: mmrSize,
        fill: Colors.title,
        weight: 'bold',
      }),
    );
    parts.push(
      text(bestText, {
        x: COLUMN_RIGHT,
        y: mmrBaseline,
        size: smallSize,
        fill: Colors.muted,
        anchor: 'end',
      }),
    );
    // The MMR against the best: a full track is the best, the fill how close the MMR is to it now.
    const barTop = mmrBaseline + 8 * scale + 2;
    const barHeight = Math.max(4, 10 * scale);
    const share = region.best > 0 ? Math.min(1, Math.max(0, region.mmr / region.best)) : 0;
    parts.push(
      rect(MARGIN, barTop, columnWidth, barHeight, Colors.grid, { rx: barHeight / 2 }),
      rect(MARGIN, barTop, Math.max(barHeight, columnWidth * share), barHeight, region.color, {
        rx: barHeight / 2,
      }),
    );
    const games = region.wins + region.losses;
    const stripTop = barTop + barHeight + 4;
    const stripHeight = Math.max(2, 4 * scale);
    if (games === 0) {
      parts.push(rect(MARGIN, stripTop, columnWidth, stripHeight, Colors.axis));
    } else {
      const winWidth = (columnWidth * region.wins) / games;
      parts.push(
        rect(MARGIN, stripTop, winWidth, stripHeight, Colors.wins),
        rect(MARGIN + winWidth, stripTop, columnWidth - winWidth, stripHeight, Colors.losses),
      );
    }
    const record = ellipsizeToWidth(
      drawableText(
        `${labels.wins} ${formatValue(region.wins)} · ${labels.losses} ${formatValue(region.losses)}`,
      ),
      columnWidth,
      smallSize,
    );
    parts.push(
      text(record, {
        x: MARGIN,
        y: stripTop + stripHeight + smallSize + 3,
        size: smallSize,
        fill: Colors.muted,
      }),
    );
  });

  const history = historyPanel(input, regions);
  parts.push(...history.parts, note);

  const svg = svgDocument(CHART_WIDTH, CHART_HEIGHT, parts);
  const summary = regions.map(
    (region) =>
      `${region.label}: ${labels.mmr} ${formatValue(region.mmr)} (${labels.best} ${formatValue(region.best)}), ` +
      `${labels.wins} ${formatValue(region.wins)}, ${labels.losses} ${formatValue(region.losses)}`,
  );
  return chartSvg(svg, sentences([input.title, ...summary, history.alt, said]));
}

function historyPanel(
  input: RankedStandingChartInput,
  regions: readonly Region[],
): { parts: string[]; alt: string } {
  const { labels } = input;
  const parts: string[] = [];
  const withLine = regions.filter((region) => region.points.length >= 2);
  const panelLeft = COLUMN_RIGHT + 36;
  if (withLine.length === 0) {
    const area: PlotArea = {
      left: panelLeft,
      top: PLOT_TOP,
      right: CHART_WIDTH - MARGIN,
      bottom: PLOT_BOTTOM,
    };
    parts.push(plotBackground(area));
    const lines = wrap(drawableText(labels.noHistory), area.right - area.left - 2 * MARGIN, 16, 3);
    const first = (area.top + area.bottom) / 2 - ((lines.length - 1) * 22) / 2 + 6;
    lines.forEach((content, i) => {
      parts.push(
        text(content, {
          x: (area.left + area.right) / 2,
          y: first + i * 22,
          size: 16,
          fill: Colors.muted,
          anchor: 'middle',
        }),
      );
    });
    return { parts, alt: labels.noHistory };
  }

  let low = Infinity;
  let high = -Infinity;
  let from = Infinity;
  for (const region of withLine) {
    for (const point of region.points) {
      low = Math.min(low, point.mmr);
      high = Math.max(high, point.mmr);
      from = Math.min(from, point.at);
    }
  }
  const to = isDrawableTime(input.now) ? input.now : 0;
  const ticks = niceTicks(low === high ? low - 50 : low, low === high ? high + 50 : high, 5);
  const formatTick = tickFormatter(input.locale, ticks);
  let widest = 0;
  for (const value of ticks.values) widest = Math.max(widest, measureText(formatTick(value), Fonts.tick));
  const area: PlotArea = {
    left: panelLeft + widest + 8,
    top: PLOT_TOP,
    right: CHART_WIDTH - MARGIN,
    bottom: PLOT_BOTTOM,
  };
  const xOf = linear(from, Math.max(to, from + 1), area.left + 8, area.right - 8);
  const yOf = linear(ticks.min, ticks.max, area.bottom, area.top);

  const heading = ellipsizeToWidth(drawableText(labels.history, 'bold'), 220, Fonts.legend, 'bold');
  parts.push(
    text(heading, { x: area.left, y: 70, size: Fonts.legend, fill: Colors.text, weight: 'bold' }),
    legend(
      withLine.map((region) => ({
        label: drawableText(region.label),
        color: region.color,
        shape: 'line' as const,
      })),
      area.left + measureText(heading, Fonts.legend, 'bold') + 16,
    ),
  );
  parts.push(plotBackground(area));
  for (const value of ticks.values) {
    const y = yOf(value);
    parts.push(
      line(area.left, y, area.right, y, Colors.grid),
      text(formatTick(value), {
        x: area.left - 8,
        y: y + Fonts.tick * 0.35,
        size: Fonts.tick,
        fill: Colors.muted,
        anchor: 'end',
      }),
    );
  }
  const formatDay = dayFormatter(input.locale);
  const days = Math.max(1, Math.round((to - from) / DAY_MS));
  const dateTicks = days >= 3 ? [from, from + (to - from) / 2, to] : [from, to];
  for (const at of dateTicks) {
    parts.push(
      text(formatDay(at), {
        x: Math.min(Math.max(xOf(at), area.left + 24), area.right - 24),
        y: area.bottom + 18,
        size: Fonts.tick,
        fill: Colors.muted,
        anchor: 'middle',
      }),
    );
  }
  const formatValue = valueFormatter(input.locale, 0);
  const alt: string[] = [];
  for (const region of withLine) {
    const path = region.points
      .map((point, i) => `${i === 0 ? 'M' : 'L'}${num(xOf(point.at))} ${num(yOf(point.mmr))}`)
      .join(' ');
    parts.push(
      element('path', {
        d: path,
        fill: 'none',
        stroke: region.color,
        'stroke-width': 2.5,
        'stroke-linejoin': 'round',
        'stroke-linecap': 'round',
      }),
    );
    const first = region.points[0];
    const last = region.points[region.points.length - 1];
    if (first === undefined || last === undefined) continue;
    parts.push(element('circle', { cx: xOf(last.at), cy: yOf(last.mmr), r: 4, fill: region.color }));
    alt.push(`${region.label} ${formatValue(first.mmr)} → ${formatValue(last.mmr)}`);
  }
  return {
    parts,
    alt: `${labels.history} (${formatDay(from)} – ${formatDay(to)}): ${alt.join(', ')}`,
  };
}

/** The ranked standing chart as a 960×480 PNG; see {@link buildRankedStandingSvg}. */
export function renderRankedStandingChart(input: RankedStandingChartInput): Promise<ChartImage | undefined> {
  return toChartImage(buildRankedStandingSvg(input));
}
