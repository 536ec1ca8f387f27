import { dayFormatter, linear, niceTicks, tickFormatter, valueFormatter } from '../../render/chart/axis.ts';
import { isDrawableTime } from '../../render/chart/bounds.ts';
import { drawableText, ellipsizeToWidth, measureText } from '../../render/chart/font.ts';
import {
  background,
  chartOf,
  dropped,
  emptyChart,
  legend,
  plotBackground,
  sentences,
} from '../../render/chart/layout.ts';
import type { PlotArea } from '../../render/chart/layout.ts';
import { regionsOf, wrap, type RankedStandingChartInput, type Region } from './ranked-data.ts';
import type { ChartImage, ChartSvg } from '../../render/chart/png.ts';
import { chartImage } from '../../render/image/images.ts';
import { element, line, num, rect, text } from '../../render/chart/svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN } from '../../render/chart/theme.ts';

const PLOT_TOP = 92;
const PLOT_BOTTOM = CHART_HEIGHT - 40;
/** The standings column on the left; the line over time takes the rest. */
const COLUMN_RIGHT = 360;
const DAY_MS = 86_400_000;
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
  const { regions, dropped: count } = regionsOf(input);
  const left = dropped(count, labels.outOfRange);

  if (regions.length === 0) {
    const area: PlotArea = { left: MARGIN, top: PLOT_TOP, right: CHART_WIDTH - MARGIN, bottom: PLOT_BOTTOM };
    return emptyChart(input.title, drawableText(labels.none), area);
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
    text(heading, { x: MARGIN, y: 40, size: Fonts.title, fill: Colors.title, weight: 'bold' }),
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
    // "best" only with an earlier reading: the current MMR alone is no best worth naming.
    const bestText =
      region.best === undefined
        ? ''
        : ellipsizeToWidth(
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
    const barTop = mmrBaseline + 8 * scale + 2;
    const barHeight = Math.max(4, 10 * scale);
    if (region.best !== undefined) {
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
      const share = region.best > 0 ? Math.min(1, Math.max(0, region.mmr / region.best)) : 0;
      parts.push(
        rect(MARGIN, barTop, columnWidth, barHeight, Colors.grid, { rx: barHeight / 2 }),
        rect(MARGIN, barTop, Math.max(barHeight, columnWidth * share), barHeight, region.color, {
          rx: barHeight / 2,
        }),
      );
    }
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
  parts.push(...history.parts, left.note);

  const summary = regions.map(
    (region) =>
      `${region.label}: ${labels.mmr} ${formatValue(region.mmr)}` +
      (region.best === undefined ? '' : ` (${labels.best} ${formatValue(region.best)})`) +
      `, ${labels.wins} ${formatValue(region.wins)}, ${labels.losses} ${formatValue(region.losses)}`,
  );
  return chartOf(parts, sentences([input.title, ...summary, history.alt, left.sentence]));
}

function historyPanel(
  input: RankedStandingChartInput,
  regions: readonly Region[],
): { parts: string[]; alt: string } {
  const { labels } = input;
  const parts: string[] = [];
  const withLine = regions.filter((region) => region.points.length >= 2);
  const panelLeft = COLUMN_RIGHT + 36;
  if (withLine.length === 0) return singleReadings(input, regions, panelLeft);

  let low = Infinity;
  let high = -Infinity;
  let from = Infinity;
  for (const region of regions) {
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
  // A region read once more than the others have no line: its one reading is a point with its value.
  for (const region of regions) {
    if (region.points.length !== 1) continue;
    parts.push(...lonePoint(region, xOf(to), yOf(region.mmr), area, formatValue));
    alt.push(`${region.label} ${formatValue(region.mmr)}`);
  }
  return {
    parts,
    alt: `${labels.history} (${formatDay(from)} – ${formatDay(to)}): ${alt.join(', ')}`,
  };
}

/** A region's one reading: a dot, and its value beside it (left of it when the dot is at the right end). */
function lonePoint(
  region: Region,
  x: number,
  y: number,
  area: PlotArea,
  formatValue: (value: number) => string,
): string[] {
  const label = ellipsizeToWidth(
    drawableText(formatValue(region.mmr), 'bold'),
    200,
    Fonts.annotation,
    'bold',
  );
  const width = measureText(label, Fonts.annotation, 'bold');
  const left = x + 12 + width > area.right - 4 ? x - 12 - width : x + 12;
  return [
    element('circle', { cx: x, cy: y, r: 6, fill: region.color, stroke: Colors.plot, 'stroke-width': 1 }),
    text(label, {
      x: left,
      y: y + Fonts.annotation * 0.35,
      size: Fonts.annotation,
      fill: region.color,
      weight: 'bold',
    }),
  ];
}

/**
 * The panel over time before there are two readings of any region: each region's one reading as a point
 * with its value at today's date (never a line), and the sentence saying when the line will show.
 */
function singleReadings(
  input: RankedStandingChartInput,
  regions: readonly Region[],
  panelLeft: number,
): { parts: string[]; alt: string } {
  const { labels } = input;
  const area: PlotArea = { left: panelLeft, top: PLOT_TOP, right: CHART_WIDTH - MARGIN, bottom: PLOT_BOTTOM };
  const parts = [plotBackground(area)];
  const lines = wrap(drawableText(labels.noHistory), area.right - area.left - 2 * MARGIN, 15, 2);
  lines.forEach((content, i) => {
    parts.push(
      text(content, {
        x: (area.left + area.right) / 2,
        y: area.top + 24 + i * 20,
        size: 15,
        fill: Colors.muted,
        anchor: 'middle',
      }),
    );
  });
  const formatValue = valueFormatter(input.locale, 0);
  const values = regions.map((region) => region.mmr);
  const low = Math.min(...values);
  const high = Math.max(...values);
  // The points sit below the sentence, spread by their values (the lowest at the bottom).
  const top = area.top + 24 + lines.length * 20 + 16;
  const yOf = low === high ? () => (top + area.bottom) / 2 : linear(low, high, area.bottom - 24, top);
  const x = (area.left + area.right) / 2;
  const sorted = [...regions].sort((a, b) => b.mmr - a.mmr);
  let previous = -Infinity;
  for (const region of sorted) {
    // Labels never overlap: a point too close to the one above moves down (within the panel).
    const y = Math.min(area.bottom - 24, Math.max(yOf(region.mmr), previous + 22));
    previous = y;
    parts.push(...lonePoint(region, x, y, area, formatValue));
  }
  const day = isDrawableTime(input.now) ? dayFormatter(input.locale)(input.now) : '';
  parts.push(text(day, { x, y: area.bottom - 6, size: Fonts.tick, fill: Colors.muted, anchor: 'middle' }));
  const readings = sorted.map((region) => `${region.label} ${formatValue(region.mmr)}`).join(', ');
  return { parts, alt: `${labels.history} (${day}): ${readings}. ${labels.noHistory}` };
}

/** The ranked standing chart as a 960×480 PNG; see {@link buildRankedStandingSvg}. */
export function renderRankedStandingChart(input: RankedStandingChartInput): Promise<ChartImage | undefined> {
  // Kept by the input: the note of points left out is the locale's words (the locale is in the key).
  const { outOfRange: _note, ...labels } = input.labels;
  return chartImage({ kind: 'ranked-standing', data: { ...input, labels } }, () =>
    buildRankedStandingSvg(input),
  );
}
