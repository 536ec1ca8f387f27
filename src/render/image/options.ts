import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { CHART_FONT_FAMILY, chartFontFiles, fallbackFontFiles } from '../chart/font.ts';

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
