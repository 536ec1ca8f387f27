import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { DiscordLimits, truncate } from '../text.ts';
import { CHART_FONT_FAMILY, chartFontFiles, fallbackFontFiles } from './font.ts';

/** A rendered chart, ready to attach: `altText` goes into the attachment's description. */
export interface ChartImage {
  png: Buffer;
  width: number;
  height: number;
  altText: string;
}

/**
 * resvg's font options for charts: only the shipped fonts, DejaVu Sans and after it the CJK and emoji
 * fallbacks (resvg takes a glyph DejaVu lacks from the first loaded font that has it). Without a font file
 * resvg draws no text at all and says nothing, and system fonts differ between machines. Passed as files,
 * not buffers: resvg maps a file, where it would copy a buffer's 20 MB on every render.
 */
export function chartFontOptions(): NonNullable<ResvgRenderOptions['font']> {
  return {
    fontFiles: [...chartFontFiles(), ...fallbackFontFiles()],
    loadSystemFonts: false,
    defaultFontFamily: CHART_FONT_FAMILY,
    sansSerifFamily: CHART_FONT_FAMILY,
  };
}

/** The resvg options every chart renders with; exposed so tests can rasterize the same way. */
export function chartRenderOptions(): ResvgRenderOptions {
  return { font: chartFontOptions(), fitTo: { mode: 'original' }, logLevel: 'error' };
}

/**
 * `svg` as a PNG. `fontFiles`, when given, replaces the chart's font files (DejaVu Sans and every
 * fallback) with the few the text needs ({@link fontFilesFor}): fewer fonts, less work for resvg.
 */
export function renderSvgToPng(
  svg: string,
  fontFiles?: readonly string[],
): { png: Buffer; width: number; height: number } {
  const options = chartRenderOptions();
  if (fontFiles !== undefined) options.font = { ...options.font, fontFiles: [...fontFiles] };
  const image = new Resvg(svg, options).render();
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

export function toChartImage(chart: ChartSvg, fontFiles?: readonly string[]): ChartImage {
  return { ...renderSvgToPng(chart.svg, fontFiles), altText: chart.altText };
}
