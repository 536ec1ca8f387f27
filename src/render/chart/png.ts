import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { DiscordLimits, truncate } from '../text.ts';
import { CHART_FONT_FAMILY, chartFontFiles } from './font.ts';

/** A rendered chart, ready to attach: `altText` goes into the attachment's description. */
export interface ChartImage {
  png: Buffer;
  width: number;
  height: number;
  altText: string;
}

/**
 * resvg's font options for charts: only the shipped DejaVu Sans. Without a font file resvg draws no text at
 * all and says nothing, and system fonts differ between machines.
 */
export function chartFontOptions(): NonNullable<ResvgRenderOptions['font']> {
  return {
    fontFiles: chartFontFiles(),
    loadSystemFonts: false,
    defaultFontFamily: CHART_FONT_FAMILY,
    sansSerifFamily: CHART_FONT_FAMILY,
  };
}

/** The resvg options every chart renders with; exposed so tests can rasterize the same way. */
export function chartRenderOptions(): ResvgRenderOptions {
  return { font: chartFontOptions(), fitTo: { mode: 'original' }, logLevel: 'error' };
}

export function renderSvgToPng(svg: string): { png: Buffer; width: number; height: number } {
  const image = new Resvg(svg, chartRenderOptions()).render();
  return { png: image.asPng(), width: image.width, height: image.height };
}

/** A chart before rasterizing: the SVG markup and the alt text that describes it. */
export interface ChartSvg {
  svg: string;
  altText: string;
}

/** `altText` is cut to Discord's limit for an attachment's description. */
export function chartSvg(svg: string, altText: string): ChartSvg {
  return { svg, altText: truncate(altText, DiscordLimits.attachmentDescription) };
}

export function toChartImage(chart: ChartSvg): ChartImage {
  return { ...renderSvgToPng(chart.svg), altText: chart.altText };
}
