import { ellipsizeToWidth, measureText } from './font.ts';
import { chartSvg, type ChartSvg } from './png.ts';
import { element, rect, svgDocument, text } from './svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN } from './theme.ts';

const TITLE_BASELINE = 40;
const LEGEND_BASELINE = 70;

export function background(): string {
  return rect(0, 0, CHART_WIDTH, CHART_HEIGHT, Colors.background);
}

/** The chart's title, bold, cut with an ellipsis where it would run off the image. */
export function title(content: string): string {
  const fitted = ellipsizeToWidth(content, CHART_WIDTH - 2 * MARGIN, Fonts.title, 'bold');
  return text(fitted, {
    x: MARGIN,
    y: TITLE_BASELINE,
    size: Fonts.title,
    fill: Colors.title,
    weight: 'bold',
  });
}

export interface LegendItem {
  label: string;
  color: string;
  shape: 'line' | 'box';
}

const SWATCH = 18;
const LEGEND_LABEL_MAX = 260;

/** Legend entries side by side from `x`, each a swatch of its series' colour and a label. */
export function legend(items: readonly LegendItem[], x: number): string {
  const parts: string[] = [];
  let cursor = x;
  const middle = LEGEND_BASELINE - Fonts.legend * 0.35;
  for (const item of items) {
    parts.push(
      item.shape === 'line'
        ? element('line', {
            x1: cursor,
            y1: middle,
            x2: cursor + SWATCH,
            y2: middle,
            stroke: item.color,
            'stroke-width': 3,
            'stroke-linecap': 'round',
          })
        : rect(cursor + 3, middle - 6, 12, 12, item.color, { rx: 2 }),
    );
    cursor += SWATCH + 6;
    const label = ellipsizeToWidth(item.label, LEGEND_LABEL_MAX, Fonts.legend);
    parts.push(text(label, { x: cursor, y: LEGEND_BASELINE, size: Fonts.legend, fill: Colors.text }));
    cursor += measureText(label, Fonts.legend) + 20;
  }
  return parts.join('');
}

export interface PlotArea {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function plotBackground(area: PlotArea): string {
  return rect(area.left, area.top, area.right - area.left, area.bottom - area.top, Colors.plot, { rx: 4 });
}

/** The message of a chart with nothing to plot, centred in the plot area. */
function emptyMessage(message: string, area: PlotArea): string {
  const fitted = ellipsizeToWidth(message, area.right - area.left - 2 * MARGIN, Fonts.empty);
  return text(fitted, {
    x: (area.left + area.right) / 2,
    y: (area.top + area.bottom) / 2 + Fonts.empty * 0.35,
    size: Fonts.empty,
    fill: Colors.muted,
    anchor: 'middle',
  });
}

/** Joins alt-text sentences, without doubling the full stop of one that already ends with it. */
export function sentences(parts: readonly string[]): string {
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => (/[.!?…。]$/u.test(part) ? part : `${part}.`))
    .join(' ');
}

const NOTE_SIZE = 11;
const NOTE_MAX_WIDTH = 420;

/**
 * The note of a chart that left values out (out of range, not finite): small, muted, in the bottom right
 * corner below the axis labels. Nothing when nothing was left out.
 */
function droppedNote(dropped: number, say: (count: number) => string): string {
  if (!(dropped > 0)) return '';
  const fitted = ellipsizeToWidth(say(dropped), NOTE_MAX_WIDTH, NOTE_SIZE);
  return text(fitted, {
    x: CHART_WIDTH - MARGIN,
    y: CHART_HEIGHT - 6,
    size: NOTE_SIZE,
    fill: Colors.muted,
    anchor: 'end',
  });
}

/** What a chart says of the values it left out: the note drawn ({@link droppedNote}) and the alt text's sentence. */
export interface Dropped {
  note: string;
  sentence: string;
}

/** The note and the sentence of a chart that left `count` values out, both empty when it left none. */
export function dropped(count: number, say: (count: number) => string): Dropped {
  return { note: droppedNote(count, say), sentence: count > 0 ? say(count) : '' };
}

/**
 * What every chart draws first: the background, the title, the legend above the plot (when it has one)
 * and the plot's background; the chart's own parts follow.
 */
export function frame(heading: string, area: PlotArea, legendItems: readonly LegendItem[] = []): string[] {
  const parts = [background(), title(heading)];
  if (legendItems.length > 0) parts.push(legend(legendItems, area.left));
  parts.push(plotBackground(area));
  return parts;
}

/** The chart of `parts`, drawn in order on the chart's canvas, with its alt text. */
export function chartOf(parts: readonly string[], altText: string): ChartSvg {
  return chartSvg(svgDocument(CHART_WIDTH, CHART_HEIGHT, parts), altText);
}

/**
 * A chart with nothing to plot: its title over the empty plot area, which says `message`, and the note
 * of the values left out; the alt text says the same.
 */
export function emptyChart(heading: string, message: string, area: PlotArea, left?: Dropped): ChartSvg {
  return chartOf(
    [...frame(heading, area), emptyMessage(message, area), left?.note ?? ''],
    sentences([heading, message, left?.sentence ?? '']),
  );
}
