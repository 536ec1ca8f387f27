import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import {
  CHART_FONT_FAMILY,
  chartFontFiles,
  fallbackFontFiles,
  ellipsizeToWidth,
  measureText,
} from '../../../src/render/chart/font.ts';
import { chartFontOptions, renderSvgToPng } from '../../../src/render/chart/png.ts';
import { svgDocument, text } from '../../../src/render/chart/svg.ts';
import {
  PNG_SIGNATURE,
  differingPixels,
  pngSize,
  rasterize,
  rasterizeWithoutFonts,
  whole,
  withoutText,
} from '../../support/pixels.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sample(content: string, size = 32, weight: 'normal' | 'bold' = 'normal'): string {
  return svgDocument(400, 100, [
    '<rect width="400" height="100" fill="#2b2d31"/>',
    text(content, { x: 10, y: 60, size, fill: '#ffffff', weight }),
  ]);
}

describe('the shipped font', () => {
  it('lives in the repository, with its licence, resolved from the module rather than the working directory', () => {
    const files = chartFontFiles();
    expect(files).toEqual([
      join(repoRoot, 'assets/fonts/DejaVuSansCore.ttf'),
      join(repoRoot, 'assets/fonts/DejaVuSansCore-Bold.ttf'),
    ]);
    // The whole DejaVu Sans, which the chart font is cut from, draws what the subset leaves out.
    expect(fallbackFontFiles().slice(0, 2)).toEqual([
      join(repoRoot, 'assets/fonts/DejaVuSans.ttf'),
      join(repoRoot, 'assets/fonts/DejaVuSans-Bold.ttf'),
    ]);
    for (const file of [...files, ...fallbackFontFiles().slice(0, 2)]) {
      expect(isAbsolute(file)).toBe(true);
      expect(readFileSync(file).subarray(0, 4)).toEqual(Buffer.from([0, 1, 0, 0]));
    }
    expect(readFileSync(join(repoRoot, 'assets/fonts/LICENSE-DejaVu.txt'), 'utf8')).toContain(
      'Bitstream Vera Fonts Copyright',
    );
    expect(chartFontOptions()).toEqual({
      fontFiles: [...files, ...fallbackFontFiles()],
      loadSystemFonts: false,
      defaultFontFamily: CHART_FONT_FAMILY,
      sansSerifFamily: CHART_FONT_FAMILY,
    });
  });

  it('is a subset small enough that resvg reading it again for every glyph stays cheap', () => {
    for (const file of chartFontFiles()) expect(statSync(file).size).toBeLessThan(100_000);
  });

  it('draws the text of its scripts exactly as the whole DejaVu Sans does', () => {
    const [regular, bold] = fallbackFontFiles();
    const wholeDejaVu = { fontFiles: [regular!, bold!], loadSystemFonts: false };
    for (const weight of ['normal', 'bold'] as const) {
      for (const line of [
        'AVAT To Wa fi ffi 1,234.56 — … № € −3 ≥ □ ▶ ★ ⚑ ✔',
        'Zażółć gęślą jaźń ĞğİıŞş Ŝñïpęr Çàfé a\u0301',
        'Съешь же ещё этих мягких булок Σκοπευτής',
        '“quoted” «y» „z“ 1\u202F234\u00A0567',
      ]) {
        const svg = svgDocument(900, 40, [text(line, { x: 4, y: 28, size: 20, fill: '#ffffff', weight })]);
        expect(svg).toContain(`font-family="${CHART_FONT_FAMILY}"`);
        const drawn = rasterize(svg);
        expect(differingPixels(drawn, rasterizeWithoutFonts(svg), whole(drawn))).toBeGreaterThan(500);
        const reference = rasterize(svg.replaceAll(CHART_FONT_FAMILY, 'DejaVu Sans'), {
          font: wholeDejaVu,
          logLevel: 'off',
        });
        expect(differingPixels(drawn, reference, whole(drawn)), line).toBe(0);
      }
    }
  });

  it('is the family the SVG asks for', () => {
    expect(sample('x')).toContain(`font-family="${CHART_FONT_FAMILY}"`);
  });
});

describe('text rendering', () => {
  it('draws text with the shipped font', () => {
    const svg = sample('Killfeed');
    const drawn = rasterize(svg);
    const blank = rasterize(withoutText(svg));
    expect(differingPixels(drawn, blank, whole(drawn))).toBeGreaterThan(500);
  });

  it('draws nothing at all without a font file, silently: the failure the shipped font prevents', () => {
    const svg = sample('Killfeed');
    const noFont = rasterizeWithoutFonts(svg);
    const blank = rasterize(withoutText(svg));
    expect(differingPixels(noFont, blank, whole(noFont))).toBe(0);
  });

  it('draws bold text differently from regular text', () => {
    const regular = rasterize(sample('Killfeed', 32, 'normal'));
    const bold = rasterize(sample('Killfeed', 32, 'bold'));
    expect(differingPixels(regular, bold, whole(regular))).toBeGreaterThan(100);
  });
});

describe('renderSvgToPng', () => {
  it('returns a PNG of the SVG size', () => {
    const { png, width, height } = renderSvgToPng(sample('x'));
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect({ width, height }).toEqual({ width: 400, height: 100 });
    expect(pngSize(png)).toEqual({ width: 400, height: 100 });
  });
});

describe('measureText', () => {
  it.each([
    ['Killfeed', 'normal'],
    ['WWWWW mmmm', 'bold'],
    ['iiiii lll', 'normal'],
    ['Привет, мир', 'normal'],
    ['1,234,567.89', 'bold'],
  ] as const)('agrees with resvg on the width of %s (%s)', (content, weight) => {
    const svg = svgDocument(800, 100, [text(content, { x: 10, y: 60, size: 40, fill: '#ffffff', weight })]);
    const bbox = new Resvg(svg, { font: chartFontOptions() }).innerBBox();
    expect(bbox).toBeDefined();
    const measured = measureText(content, 40, weight);
    // The bounding box spans ink, the measure spans advances: they differ by the side bearings only.
    expect(Math.abs(measured - bbox!.width)).toBeLessThan(measured * 0.06 + 6);
  });

  it('is wider for wide letters and for bold', () => {
    expect(measureText('MMMM', 12)).toBeGreaterThan(measureText('iiii', 12));
    expect(measureText('MMMM', 12, 'bold')).toBeGreaterThan(measureText('MMMM', 12));
    expect(measureText('', 12)).toBe(0);
    expect(measureText('abc', 24)).toBeCloseTo(measureText('abc', 12) * 2, 6);
  });
});

describe('ellipsizeToWidth', () => {
  it('keeps text that fits and cuts text that does not, at a grapheme boundary', () => {
    expect(ellipsizeToWidth('short', 200, 14)).toBe('short');
    const long = 'A very long player name that cannot possibly fit '.repeat(3);
    const cut = ellipsizeToWidth(long, 200, 14, 'bold');
    expect(cut.endsWith('…')).toBe(true);
    expect(measureText(cut, 14, 'bold')).toBeLessThanOrEqual(200);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    const family = '👨‍👩‍👧‍👦';
    expect(ellipsizeToWidth(family.repeat(20), 60, 14)).toMatch(/^(👨‍👩‍👧‍👦)*…$/u);
  });
});

describe('fonts on disk', () => {
  it('are not looked up in the system font directories', () => {
    for (const file of chartFontFiles()) {
      expect(file.startsWith('/usr/share/fonts')).toBe(false);
      expect(existsSync(file)).toBe(true);
    }
  });
});
