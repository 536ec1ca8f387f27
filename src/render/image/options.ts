import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { CHART_FONT_FAMILY, chartFontFiles, fallbackFontFiles } from '../chart/font.ts';

/**
 * resvg's font options for charts: only the shipped fonts, the chart font (a subset of DejaVu Sans) and after
 * it the fallbacks, the whole DejaVu Sans, CJK and emoji (resvg takes a glyph the chart font lacks from the
 * first loaded font that has it). Without a font file resvg draws no text at all and says nothing, and
 * system fonts differ between machines. resvg keeps no font from one render to the next: it reads each file
 * it is given when it starts, and the whole file again for every glyph it draws from it, so the size of the
 * chart font is paid per character (a draw passes only the files its text needs, `fontFilesFor`).
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
