import { DiscordLimits, truncate } from '../text.ts';
import { drawPng } from '../image/draw.ts';
import { images } from '../image/images.ts';
import { fontFilesForSvg } from './font.ts';

export { chartFontOptions, chartRenderOptions } from '../image/options.ts';

/** A rendered chart, ready to attach: `altText` goes into the attachment's description. */
export interface ChartImage {
  png: Buffer;
  width: number;
  height: number;
  altText: string;
}

/**
 * `svg` as a PNG, drawn on the calling thread (tests and tools; replies go through {@link toChartImage}).
 * `fontFiles`, when given, replaces the chart's font files (DejaVu Sans and every fallback) with the few
 * the text needs ({@link fontFilesFor}): fewer fonts, less work for resvg.
 */
export function renderSvgToPng(
  svg: string,
  fontFiles?: readonly string[],
): { png: Buffer; width: number; height: number } {
  return drawPng(svg, fontFiles);
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

/**
 * The chart as a PNG, from the process's image cache or drawn in a render worker (`src/render/image`),
 * never on the event loop. Undefined when it could not be drawn (the worker failed or hung, or too many
 * draws wait): the reply then goes without its image. `fontFiles` defaults to the fonts the SVG's text
 * needs ({@link fontFilesForSvg}).
 */
export async function toChartImage(
  chart: ChartSvg,
  fontFiles: readonly string[] = fontFilesForSvg(chart.svg),
): Promise<ChartImage | undefined> {
  const drawn = await images().draw({ svg: chart.svg, fontFiles });
  return drawn === undefined ? undefined : { ...drawn, altText: chart.altText };
}
