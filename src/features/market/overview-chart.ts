import { valueFormatter, zeroBasedTicks, linear } from '../../render/chart/axis.ts';
import { isDrawableAmount } from '../../render/chart/bounds.ts';
import { ellipsizeToWidth } from '../../render/chart/font.ts';
import { chartOf, dropped, emptyChart, frame, sentences, type PlotArea } from '../../render/chart/layout.ts';
import type { ChartImage, ChartSvg } from '../../render/chart/png.ts';
import { chartImage } from '../../render/image/images.ts';
import { line, rect, text } from '../../render/chart/svg.ts';
import { CHART_HEIGHT, CHART_WIDTH, Colors, Fonts, MARGIN } from '../../render/chart/theme.ts';

export interface MarketOverviewBar {
  /** The skin's name (game text: escaped when drawn, cut to fit). */
  readonly label: string;
  /** Listings on sale now. */
  readonly onSale: number;
  /** Sales over the recent days, when known. */
  readonly sales?: number | undefined;
}

export interface MarketOverviewChartInput {
  readonly title: string;
  readonly bars: readonly MarketOverviewBar[];
  readonly locale: string;
  readonly labels: {
    readonly onSale: string;
    readonly sales: string;
    /** Written where a skin's sales bar would be: it sold nothing in those days. */
    readonly noSales?: string | undefined;
    /** Written where a skin's sales bar would be: its sales are not known (not read, or unreadable). */
    readonly noData?: string | undefined;
    readonly empty: string;
    /**
     * The note of a chart that left `count` values out (not finite, negative, past 1e12): the same words for the same
     * locale, as `t` gives them (the image cache keys the chart by its data and locale, not by this).
     */
    readonly outOfRange: (count: number) => string;
  };
}

const MAX_BARS = 10;
const PLOT_TOP = 92;
const PLOT_BOTTOM = CHART_HEIGHT - 28;
const LABEL_WIDTH = 250;

/**
 * The market's most listed skins, one row each: listings on sale now as a gold bar (the ask side) and,
 * beneath it, the recent sales as a thinner blue bar (blue is a count of sales in every chart), on one
 * shared count axis so that supply and demand compare at a glance. Where there is no sales bar the row
 * says why: no sales in those days, or sales not known.
 */
export function buildMarketOverviewSvg(input: MarketOverviewChartInput): ChartSvg {
  // A bar whose count is not a finite 0..1e12 is left out, a sales count as well (the bar stays).
  const shown = input.bars.slice(0, MAX_BARS);
  const bars = shown
    .filter((bar) => isDrawableAmount(bar.onSale))
    .map((bar) => ({ ...bar, sales: isDrawableAmount(bar.sales) ? bar.sales : undefined }));
  const count =
    shown.length -
    bars.length +
    shown.filter(
      (bar) => isDrawableAmount(bar.onSale) && bar.sales !== undefined && !isDrawableAmount(bar.sales),
    ).length;
  const left = dropped(count, input.labels.outOfRange);
  const area: PlotArea = {
    left: MARGIN + LABEL_WIDTH + 12,
    top: PLOT_TOP,
    right: CHART_WIDTH - MARGIN - 60,
    bottom: PLOT_BOTTOM,
  };
  if (bars.length === 0) {
    return emptyChart(input.title, input.labels.empty, area, left);
  }
  const counts = bars.flatMap((bar) => [bar.onSale, bar.sales ?? 0]).filter((v) => Number.isFinite(v));
  const ticks = zeroBasedTicks(Math.max(1, ...counts), 5, true);
  const x = linear(0, ticks.max, area.left, area.right);
  const format = valueFormatter(input.locale, 0);
  const parts = frame(input.title, area, [
    { label: input.labels.onSale, color: Colors.price, shape: 'box' },
    { label: input.labels.sales, color: Colors.sales, shape: 'box' },
  ]);
  for (const value of ticks.values) parts.push(line(x(value), area.top, x(value), area.bottom, Colors.grid));
  const rowHeight = (area.bottom - area.top) / bars.length;
  bars.forEach((bar, i) => {
    const top = area.top + i * rowHeight;
    const middle = top + rowHeight / 2;
    const label = ellipsizeToWidth(bar.label, LABEL_WIDTH, Fonts.label);
    parts.push(
      text(label, {
        x: area.left - 12,
        y: middle + Fonts.label * 0.35,
        size: Fonts.label,
        fill: Colors.text,
        anchor: 'end',
      }),
    );
    const main = Math.max(4, rowHeight * 0.42);
    const width = Math.max(1, x(bar.onSale) - area.left);
    parts.push(rect(area.left, middle - main, width, main, Colors.price));
    parts.push(
      text(format(bar.onSale), {
        x: area.left + width + 6,
        y: middle - main / 2 + Fonts.tick * 0.35,
        size: Fonts.tick,
        fill: Colors.muted,
      }),
    );
    parts.push(
      ...salesBar(bar.sales, { left: area.left, middle, rowHeight, x, format, labels: input.labels }),
    );
  });
  parts.push(line(area.left, area.top, area.left, area.bottom, Colors.axis), left.note);
  const described = bars.map(
    (bar) =>
      `${bar.label}: ${format(bar.onSale)} ${input.labels.onSale}` +
      salesSaid(bar.sales, format, input.labels),
  );
  return chartOf(parts, sentences([input.title, ...described, left.sentence]));
}

function salesSaid(
  sales: number | undefined,
  format: (value: number) => string,
  labels: MarketOverviewChartInput['labels'],
): string {
  const said =
    sales === undefined ? labels.noData : sales === 0 && labels.noSales ? labels.noSales : undefined;
  if (said) return `, ${said}`;
  return sales === undefined ? '' : `, ${format(sales)} ${labels.sales}`;
}

interface SalesRow {
  readonly left: number;
  readonly middle: number;
  readonly rowHeight: number;
  readonly x: (value: number) => number;
  readonly format: (value: number) => string;
  readonly labels: MarketOverviewChartInput['labels'];
}

/** A row's sales: a thin blue bar with its count, or in its place "no sales" or "not known", muted. */
function salesBar(sales: number | undefined, row: SalesRow): string[] {
  const thin = Math.max(3, row.rowHeight * 0.28);
  const y = row.middle + 2 + thin / 2 + Fonts.tick * 0.35;
  if (sales === undefined || sales === 0) {
    const label = sales === undefined ? row.labels.noData : row.labels.noSales;
    if (label) return [text(label, { x: row.left + 6, y, size: Fonts.tick, fill: Colors.muted })];
    if (sales === undefined) return [];
  }
  const width = Math.max(1, row.x(sales) - row.left);
  return [
    rect(row.left, row.middle + 2, width, thin, Colors.sales),
    text(row.format(sales), { x: row.left + width + 6, y, size: Fonts.tick, fill: Colors.muted }),
  ];
}

/** The overview chart as a 960×480 PNG; see {@link buildMarketOverviewSvg}. */
export function renderMarketOverviewChart(input: MarketOverviewChartInput): Promise<ChartImage | undefined> {
  // Kept by the input: the note of points left out is the locale's words (the locale is in the key).
  const { outOfRange: _note, ...labels } = input.labels;
  return chartImage({ kind: 'market-overview', data: { ...input, labels } }, () =>
    buildMarketOverviewSvg(input),
  );
}
