import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../core/package-root.ts';

/**
 * The family of the chart font, a subset of DejaVu Sans (Latin, Greek, Cyrillic, punctuation, a few symbols:
 * assets/fonts/SUBSETS.md) under a name of its own; every text element of a chart asks for it first.
 */
export const CHART_FONT_FAMILY = 'DejaVu Sans Core';

export type FontWeight = 'normal' | 'bold';

// Resolved from the package root (from src/render/chart/font.ts under tsx as from dist/src/render/chart/font.js
// compiled), never from the working directory or the system's fonts, so a chart renders the same text
// wherever the bot runs.
const FONTS = new URL('assets/fonts/', packageRoot(import.meta.url, 3));
const FONT_URLS: Record<FontWeight, URL> = {
  normal: new URL('DejaVuSansCore.ttf', FONTS),
  bold: new URL('DejaVuSansCore-Bold.ttf', FONTS),
};

/** Absolute paths of the chart font's files (regular, bold), as resvg's `fontFiles` wants them. */
export function chartFontFiles(): string[] {
  return [fileURLToPath(FONT_URLS.normal), fileURLToPath(FONT_URLS.bold)];
}

interface FallbackFont {
  family: string;
  urls: Record<FontWeight, URL>;
}

/** A fallback font of `family` from its files in assets/fonts; one file serves both weights unless given two. */
function fallback(family: string, normal: string, bold = normal): FallbackFont {
  const regular = new URL(normal, FONTS);
  return { family, urls: { normal: regular, bold: bold === normal ? regular : new URL(bold, FONTS) } };
}

/**
 * The fallback chain after the chart font, in the order resvg looks for a glyph: the whole DejaVu Sans (the
 * scripts and symbols the subset leaves out), Chinese (with Japanese kanji and kana), Korean, then monochrome
 * emoji. Shipped in assets/fonts (nothing is downloaded at run time): the CJK ones are subsets of Noto Sans
 * SC and KR (assets/fonts/SUBSETS.md says what they cover and why). resvg reads a font file again for every
 * glyph it takes from it, so most text is drawn from the small subset and only the rest from these. The
 * CJK and emoji fonts come in one regular weight: bold text in these scripts is set in it.
 */
const FALLBACK_FONTS: readonly FallbackFont[] = [
  fallback('DejaVu Sans', 'DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'),
  fallback('Noto Sans SC', 'NotoSansSC-Subset.ttf'),
  fallback('Noto Sans KR', 'NotoSansKR-Subset.ttf'),
  fallback('Noto Emoji', 'NotoEmoji-Regular.ttf'),
];

/** Absolute paths of a fallback font's files, each once (regular, then bold where it has its own). */
function filesOf(font: FallbackFont): string[] {
  const { normal, bold } = font.urls;
  return (normal === bold ? [normal] : [normal, bold]).map((url) => fileURLToPath(url));
}

/** Absolute paths of the fallback fonts (all of DejaVu Sans, CJK, emoji), tried after {@link chartFontFiles}. */
export function fallbackFontFiles(): string[] {
  return FALLBACK_FONTS.flatMap(filesOf);
}

interface FontMetrics {
  unitsPerEm: number;
  /** The glyph of a code point, 0 (.notdef) where the font has none. */
  glyph(codePoint: number): number;
  advance(codePoint: number): number;
}

// By the module's own URL objects, one for each shipped file.
const metricsCache = new Map<URL, FontMetrics>();

/** The metrics of a shipped font file, read once (a fallback's only when a glyph the subset lacks comes up). */
function metricsOf(url: URL): FontMetrics {
  let found = metricsCache.get(url);
  if (found === undefined) {
    found = parseMetrics(readFileSync(url));
    metricsCache.set(url, found);
  }
  return found;
}

function metrics(weight: FontWeight): FontMetrics {
  return metricsOf(FONT_URLS[weight]);
}

/** The index in the fallback chain of the first font that draws `codePoint` in `weight`, or -1. */
function fallbackIndex(codePoint: number, weight: FontWeight): number {
  return FALLBACK_FONTS.findIndex((font) => metricsOf(font.urls[weight]).glyph(codePoint) !== 0);
}

/** The font of the chain that draws `codePoint` (the chart font of `weight` first), or undefined when none has it. */
function fontFor(codePoint: number, weight: FontWeight): FontMetrics | undefined {
  const primary = metrics(weight);
  if (primary.glyph(codePoint) !== 0) return primary;
  const font = FALLBACK_FONTS[fallbackIndex(codePoint, weight)];
  return font === undefined ? undefined : metricsOf(font.urls[weight]);
}

/**
 * The font files that `texts` need: the chart font always, and a fallback only where a character of the
 * texts is drawn from it (in either weight). resvg reads every font it is given on every render; a chart of
 * Latin text skips the whole DejaVu Sans and the large CJK files this way.
 */
export function fontFilesFor(texts: readonly string[]): string[] {
  const used = new Set<number>();
  const [normal, bold] = [metrics('normal'), metrics('bold')];
  for (const content of texts) {
    for (const char of content.slice(0, 4 * MAX_LABEL)) {
      const codePoint = char.codePointAt(0) ?? 0;
      if (normal.glyph(codePoint) === 0) used.add(fallbackIndex(codePoint, 'normal'));
      if (bold.glyph(codePoint) === 0) used.add(fallbackIndex(codePoint, 'bold'));
    }
  }
  return [...chartFontFiles(), ...FALLBACK_FONTS.filter((_, i) => used.has(i)).flatMap(filesOf)];
}

/**
 * The font files an SVG of ours needs: {@link fontFilesFor} over the whole markup, whose tags and numbers
 * are ASCII (the chart font draws them), so only the characters of its texts can add a fallback. Bounded by the
 * SVG, which the chart builders bound.
 */
export function fontFilesForSvg(svg: string): string[] {
  const wide: string[] = [];
  // eslint-disable-next-line no-control-regex -- a run of anything outside ASCII
  for (const match of svg.matchAll(/[^\u0000-\u007f]+/gu)) wide.push(match[0]);
  return fontFilesFor(wide);
}

/** A piece of text and the family of the shipped font that draws it. */
export interface FontRun {
  family: string;
  text: string;
}

/**
 * `text` cut into runs of one font each (the chart font, or the fallback that has the glyph), a grapheme
 * cluster never split: the font of a cluster is that of its first character. resvg's own fallback loses
 * glyphs (and every later character the first font lacks) once that font has made a ligature ("fi", Arabic
 * lam-alef) or composed a character before them; text drawn one run per element in its named font needs none.
 */
export function fontRuns(text: string, weight: FontWeight = 'normal'): FontRun[] {
  const runs: FontRun[] = [];
  for (const { segment } of graphemes.segment(text.slice(0, 4 * MAX_LABEL))) {
    const codePoint = segment.codePointAt(0) ?? 0;
    let family: string = CHART_FONT_FAMILY;
    if (metrics(weight).glyph(codePoint) === 0)
      family = FALLBACK_FONTS[fallbackIndex(codePoint, weight)]?.family ?? CHART_FONT_FAMILY;
    const last = runs[runs.length - 1];
    if (last !== undefined && last.family === family) last.text += segment;
    else runs.push({ family, text: segment });
  }
  return runs;
}

/** Whether a font of the shipped chain (the chart font, then the fallbacks) has a glyph for `codePoint`. */
export function hasGlyph(codePoint: number, weight: FontWeight = 'normal'): boolean {
  return fontFor(codePoint, weight) !== undefined;
}

/**
 * Width in pixels of `text` set in the shipped fonts, from their advance widths (kerning ignored, which
 * DejaVu applies sparingly); a character the chart font lacks is measured in the fallback font that draws
 * it. Good enough to lay out labels and to ellipsize, which is all the charts need.
 */
export function measureText(text: string, fontSize: number, weight: FontWeight = 'normal'): number {
  const primary = metrics(weight);
  let width = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const font = fontFor(codePoint, weight) ?? primary;
    width += font.advance(codePoint) / font.unitsPerEm;
  }
  return width * fontSize;
}

/** What a character no shipped font has is drawn as: a white square, visible where nothing would be. */
export const MISSING_GLYPH = '\u25A1';

// Characters that are invisible by design (joiners, variation selectors, tags, bidi controls): kept where a
// font knows them (they shape emoji sequences), dropped where none does, never turned into a square.
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
// Characters with a glyph that draws nothing: a name made of these alone would be an empty image.
const BLANK = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\u115F\u1160\u2800\u3164\uFFA0]$/u;
const MARK = /^\p{M}$/u;
// Control characters: nothing to draw, and no XML may hold most of them.
const CONTROL = /^\p{Cc}$/u;
// Letters with a glyph that draws nothing (Hangul fillers, the blank Braille pattern).
const FILLER = /^[\u115F\u1160\u2800\u3164\uFFA0]$/u;
// What makes several emoji one (joiners, presentation selectors, skin tones, keycaps, tag sequences): resvg
// cannot take such a ligature from a fallback font and then loses the whole sequence and every character
// after it that DejaVu lacks. Dropped, the parts draw one by one (a family as its members, a thumb without
// its tone, which the monochrome emoji font would not show anyway).
const EMOJI_GLUE = /^(?:\uFE0E|\uFE0F|\u20E3|\p{Emoji_Modifier}|[\u{E0020}-\u{E007F}])$/u;
const PICTOGRAPH = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)$/u;
const REGIONAL_INDICATOR = /^[\u{1F1E6}-\u{1F1FF}]$/u;
/** Kept between two regional indicators, so that each draws as a letter rather than as a flag resvg loses. */
const NON_JOINER = '\u200C';
/** Combining marks kept on one character; a longer stack ("Zalgo" text) is cut to this. */
const MAX_MARKS = 3;

/**
 * `text` as the charts can draw it: every character no shipped font has becomes {@link MISSING_GLYPH},
 * invisible characters no font knows are dropped, stacks of combining marks are cut to {@link MAX_MARKS},
 * and text that would draw nothing at all (empty, spaces, fillers) becomes one square. Cut to a bounded
 * length first, so the work is bounded whatever the input.
 */
export function drawableText(text: string, weight: FontWeight = 'normal'): string {
  // Composed where Unicode can (a + U+0301 → á): one glyph, as DejaVu would draw it anyway.
  const head = (text.length > MAX_LABEL ? text.slice(0, MAX_LABEL) : text).normalize('NFC');
  let out = '';
  let marks = 0;
  let visible = false;
  let previous = '';
  for (const char of head) {
    const after = previous;
    previous = char;
    if (EMOJI_GLUE.test(char) || (char === '\u200D' && PICTOGRAPH.test(after)) || CONTROL.test(char))
      continue;
    if (FILLER.test(char)) {
      // Blank by design (names made to look empty): a space, and the text counts as empty if that is all.
      out += ' ';
      marks = 0;
      continue;
    }
    if (REGIONAL_INDICATOR.test(char) && REGIONAL_INDICATOR.test(after)) out += NON_JOINER;
    const codePoint = char.codePointAt(0) ?? 0;
    const known = hasGlyph(codePoint, weight);
    if (MARK.test(char)) {
      marks += 1;
      if (marks > MAX_MARKS) continue;
    } else {
      marks = 0;
    }
    if (!known) {
      if (IGNORABLE.test(char)) continue;
      out += MISSING_GLYPH;
      visible = true;
      continue;
    }
    out += char;
    if (!BLANK.test(char)) visible = true;
  }
  return visible ? out : MISSING_GLYPH;
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
    glyph: glyphOf,
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
