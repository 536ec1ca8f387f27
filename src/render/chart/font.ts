import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../core/package-root.ts';

/** The family name inside the shipped DejaVu Sans files; every text element of a chart uses it. */
export const CHART_FONT_FAMILY = 'DejaVu Sans';

export type FontWeight = 'normal' | 'bold';

// Resolved from the package root (from src/render/chart/font.ts under tsx as from dist/src/render/chart/font.js
// compiled), never from the working directory or the system's fonts, so a chart renders the same text
// wherever the bot runs.
const FONTS = new URL('assets/fonts/', packageRoot(import.meta.url, 3));
const FONT_URLS: Record<FontWeight, URL> = {
  normal: new URL('DejaVuSans.ttf', FONTS),
  bold: new URL('DejaVuSans-Bold.ttf', FONTS),
};

/** Absolute paths of the shipped font files (regular, bold), as resvg's `fontFiles` wants them. */
export function chartFontFiles(): string[] {
  return [fileURLToPath(FONT_URLS.normal), fileURLToPath(FONT_URLS.bold)];
}

interface FontMetrics {
  unitsPerEm: number;
  advance(codePoint: number): number;
}

const metricsCache = new Map<FontWeight, FontMetrics>();

function metrics(weight: FontWeight): FontMetrics {
  let found = metricsCache.get(weight);
  if (found === undefined) {
    found = parseMetrics(readFileSync(FONT_URLS[weight]));
    metricsCache.set(weight, found);
  }
  return found;
}

/**
 * Width in pixels of `text` set in the shipped font, from its advance widths (kerning ignored, which DejaVu
 * applies sparingly). Good enough to lay out labels and to ellipsize, which is all the charts need.
 */
export function measureText(text: string, fontSize: number, weight: FontWeight = 'normal'): number {
  const font = metrics(weight);
  let units = 0;
  for (const char of text) units += font.advance(char.codePointAt(0) ?? 0);
  return (units / font.unitsPerEm) * fontSize;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

// More characters than any chart line can show: a longer label is cut to this before it is measured, so
// that a huge name costs no more than a long one.
const MAX_LABEL = 1_000;

/** `text` cut at a grapheme boundary and ended with `…` so that it fits in `maxWidth` pixels. */
export function ellipsizeToWidth(
  text: string,
  maxWidth: number,
  fontSize: number,
  weight: FontWeight = 'normal',
): string {
  const head = text.length > MAX_LABEL ? text.slice(0, MAX_LABEL) : text;
  if (head === text && measureText(text, fontSize, weight) <= maxWidth) return text;
  const budget = maxWidth - measureText('…', fontSize, weight);
  let kept = '';
  let width = 0;
  for (const { segment } of graphemes.segment(head)) {
    const next = measureText(segment, fontSize, weight);
    if (width + next > budget) break;
    kept += segment;
    width += next;
  }
  return `${kept.trimEnd()}…`;
}

interface TableRecord {
  offset: number;
  length: number;
}

function parseMetrics(font: Buffer): FontMetrics {
  const tables = new Map<string, TableRecord>();
  const numTables = font.readUInt16BE(4);
  for (let i = 0; i < numTables; i++) {
    const record = 12 + i * 16;
    tables.set(font.toString('latin1', record, record + 4), {
      offset: font.readUInt32BE(record + 8),
      length: font.readUInt32BE(record + 12),
    });
  }
  const table = (tag: string): TableRecord => {
    const found = tables.get(tag);
    if (found === undefined) throw new Error(`font has no ${tag} table`);
    return found;
  };
  const unitsPerEm = font.readUInt16BE(table('head').offset + 18);
  const numberOfHMetrics = font.readUInt16BE(table('hhea').offset + 34);
  const hmtx = table('hmtx').offset;
  const glyphOf = cmapLookup(font, table('cmap').offset);
  const cache = new Map<number, number>();
  return {
    unitsPerEm,
    advance(codePoint) {
      let width = cache.get(codePoint);
      if (width === undefined) {
        const glyph = Math.min(glyphOf(codePoint), numberOfHMetrics - 1);
        width = font.readUInt16BE(hmtx + glyph * 4);
        cache.set(codePoint, width);
      }
      return width;
    },
  };
}

function cmapLookup(font: Buffer, cmap: number): (codePoint: number) => number {
  const count = font.readUInt16BE(cmap + 2);
  let format4: number | undefined;
  let format12: number | undefined;
  for (let i = 0; i < count; i++) {
    const record = cmap + 4 + i * 8;
    const platform = font.readUInt16BE(record);
    const encoding = font.readUInt16BE(record + 2);
    const subtable = cmap + font.readUInt32BE(record + 4);
    const format = font.readUInt16BE(subtable);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    if (format === 12) format12 ??= subtable;
    if (format === 4) format4 ??= subtable;
  }
  if (format12 !== undefined) return format12Lookup(font, format12);
  if (format4 !== undefined) return format4Lookup(font, format4);
  throw new Error('font has no Unicode cmap');
}

function format12Lookup(font: Buffer, subtable: number): (codePoint: number) => number {
  const groups = font.readUInt32BE(subtable + 12);
  return (codePoint) => {
    let low = 0;
    let high = groups - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const group = subtable + 16 + mid * 12;
      const start = font.readUInt32BE(group);
      const end = font.readUInt32BE(group + 4);
      if (codePoint < start) high = mid - 1;
      else if (codePoint > end) low = mid + 1;
      else return font.readUInt32BE(group + 8) + (codePoint - start);
    }
    return 0;
  };
}

function format4Lookup(font: Buffer, subtable: number): (codePoint: number) => number {
  const segCount = font.readUInt16BE(subtable + 6) / 2;
  const endCodes = subtable + 14;
  const startCodes = endCodes + segCount * 2 + 2;
  const idDeltas = startCodes + segCount * 2;
  const idRangeOffsets = idDeltas + segCount * 2;
  return (codePoint) => {
    if (codePoint > 0xffff) return 0;
    for (let i = 0; i < segCount; i++) {
      if (font.readUInt16BE(endCodes + i * 2) < codePoint) continue;
      const start = font.readUInt16BE(startCodes + i * 2);
      if (start > codePoint) return 0;
      const delta = font.readInt16BE(idDeltas + i * 2);
      const rangeOffsetAt = idRangeOffsets + i * 2;
      const rangeOffset = font.readUInt16BE(rangeOffsetAt);
      if (rangeOffset === 0) return (codePoint + delta) & 0xffff;
      const glyph = font.readUInt16BE(rangeOffsetAt + rangeOffset + (codePoint - start) * 2);
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}
