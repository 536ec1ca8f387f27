import { linear, niceTicks, tickFormatter, valueFormatter } from './axis.ts';
import { ellipsizeToWidth, measureText } from './font.ts';
import {
  background,
  emptyMessage,
  legend,
  plotBackground,
  sentences,
  title,
  type PlotArea,
} from './layout.ts';
import { chartSvg, toChartImage, type ChartImage, type ChartSvg } from './png.ts';
import { line, rect, svgDocument, text } from './svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN } from './theme.ts';

export interface RankedRegionStanding {
  label: string;
  mmr: number;
  wins: number;
  losses: number;
}

export interface RankedStandingChartInput {
  title: string;
  regions: readonly RankedRegionStanding[];
  locale: string;
  labels: { mmr: string; wins: string; losses: string; none: string };
}

const PLOT_TOP = 92;
const PLOT_BOTTOM = CHART_HEIGHT - 40;
const REGION_LABEL_MAX = 200;
const ANNOTATION_MAX = 300;

function finite(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

/**
 * One horizontal bar per region, its length the MMR, with the MMR and the win/loss record written after it
 * and a strip under the bar split green/red by the share of wins.
 */
export function buildRankedStandingSvg(input: RankedStandingChartInput): ChartSvg {
  const { labels } = input;
  const regions = input.regions.map((region) => ({
    label: region.label,
    mmr: finite(region.mmr),
    wins: Math.max(0, finite(region.wins)),
    losses: Math.max(0, finite(region.losses)),
  }));
  const formatValue = valueFormatter(input.locale, 0);

  if (regions.length === 0) {
    const area: PlotArea = { left: MARGIN, top: PLOT_TOP, right: CHART_WIDTH - MARGIN, bottom: PLOT_BOTTOM };
    const svg = svgDocument(CHART_WIDTH, CHART_HEIGHT, [
      background(),
      title(input.title),
      plotBackground(area),
      emptyMessage(labels.none, area),
    ]);
    return chartSvg(svg, sentences([input.title, labels.none]));
  }

  const ticks = niceTicks(0, Math.max(1, ...regions.map((region) => region.mmr)), 5);
  const formatTick = tickFormatter(input.locale, ticks);
  const rowHeight = (PLOT_BOTTOM - PLOT_TOP) / regions.length;
  const labelSize = Math.min(Fonts.label, Math.max(9, rowHeight * 0.45));
  const annotationSize = Math.min(Fonts.annotation, Math.max(9, rowHeight * 0.42));

  const rows = regions.map((region) => {
    const mmrText = ellipsizeToWidth(formatValue(region.mmr), ANNOTATION_MAX / 2, annotationSize, 'bold');
    const recordText = ellipsizeToWidth(
      `${labels.wins} ${formatValue(region.wins)} · ${labels.losses} ${formatValue(region.losses)}`,
      ANNOTATION_MAX / 2,
      annotationSize,
    );
    return {
      ...region,
      label: ellipsizeToWidth(region.label, REGION_LABEL_MAX, labelSize, 'bold'),
      mmrText,
      recordText,
      mmrWidth: measureText(mmrText, annotationSize, 'bold'),
      annotationWidth:
        measureText(mmrText, annotationSize, 'bold') + 10 + measureText(recordText, annotationSize),
    };
  });
  const labelWidth = Math.max(...rows.map((row) => measureText(row.label, labelSize, 'bold')));
  const annotationWidth = Math.max(...rows.map((row) => row.annotationWidth));
  const area: PlotArea = {
    left: MARGIN + labelWidth + 14,
    top: PLOT_TOP,
    right: CHART_WIDTH - MARGIN,
    bottom: PLOT_BOTTOM,
  };
  const barRight = area.right - annotationWidth - 16;
  const xOf = linear(0, ticks.max, area.left, barRight);

  const parts: string[] = [background(), title(input.title)];
  parts.push(
    legend(
      [
        { label: labels.mmr, color: Colors.mmr, shape: 'box' },
        { label: labels.wins, color: Colors.wins, shape: 'box' },
        { label: labels.losses, color: Colors.losses, shape: 'box' },
      ],
      area.left,
    ),
  );
  parts.push(plotBackground(area));

  for (const value of ticks.values) {
    const x = xOf(value);
    parts.push(line(x, area.top, x, area.bottom, Colors.grid));
    parts.push(
      text(formatTick(value), {
        x,
        y: area.bottom + 18,
        size: Fonts.tick,
        fill: Colors.muted,
        anchor: 'middle',
      }),
    );
  }

  const barHeight = Math.min(30, rowHeight * 0.5);
  const stripHeight = Math.max(2, Math.min(6, rowHeight * 0.1));
  rows.forEach((row, i) => {
    const middle = area.top + (i + 0.5) * rowHeight;
    const barTop = middle - (barHeight + 2 + stripHeight) / 2;
    const barWidth = Math.max(0, xOf(Math.max(0, row.mmr)) - area.left);
    parts.push(
      text(row.label, {
        x: area.left - 14,
        y: middle + labelSize * 0.35,
        size: labelSize,
        fill: Colors.text,
        weight: 'bold',
        anchor: 'end',
      }),
    );
    parts.push(rect(area.left, barTop, Math.max(barWidth, 2), barHeight, Colors.mmr, { rx: 2 }));
    const stripTop = barTop + barHeight + 2;
    const games = row.wins + row.losses;
    const stripWidth = Math.max(barWidth, 2);
    if (games === 0) {
      parts.push(rect(area.left, stripTop, stripWidth, stripHeight, Colors.axis));
    } else {
      const winWidth = (stripWidth * row.wins) / games;
      parts.push(rect(area.left, stripTop, winWidth, stripHeight, Colors.wins));
      parts.push(rect(area.left + winWidth, stripTop, stripWidth - winWidth, stripHeight, Colors.losses));
    }
    const annotationX = area.left + Math.max(barWidth, 2) + 10;
    const baseline = barTop + barHeight / 2 + annotationSize * 0.35;
    parts.push(
      text(row.mmrText, {
        x: annotationX,
        y: baseline,
        size: annotationSize,
        fill: Colors.title,
        weight: 'bold',
      }),
      text(row.recordText, {
        x: annotationX + row.mmrWidth + 10,
        y: baseline,
        size: annotationSize,
        fill: Colors.muted,
      }),
    );
  });

  const svg = svgDocument(CHART_WIDTH, CHART_HEIGHT, parts);
  const summary = regions.map(
    (region) =>
      `${region.label}: ${labels.mmr} ${formatValue(region.mmr)}, ${labels.wins} ${formatValue(region.wins)}, ` +
      `${labels.losses} ${formatValue(region.losses)}`,
  );
  return chartSvg(svg, sentences([input.title, ...summary]));
}

/** The ranked standing chart as a 960×480 PNG; see {@link buildRankedStandingSvg}. */
export function renderRankedStandingChart(input: RankedStandingChartInput): ChartImage {
  return toChartImage(buildRankedStandingSvg(input));
}
