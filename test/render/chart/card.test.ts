import { drawnChart } from '../../support/drawn.ts';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildProfileCardSvg,
  CARD_HEIGHT,
  CARD_WIDTH,
  renderProfileCard,
  type ProfileCardInput,
} from '../../../src/features/players/card.ts';
import {
  CHART_FONT_FAMILY,
  chartFontFiles,
  drawableText,
  fallbackFontFiles,
  fontFilesFor,
  fontFilesForSvg,
  hasGlyph,
  measureText,
  MISSING_GLYPH,
} from '../../../src/render/chart/font.ts';
import { chartRenderOptions, renderSvgToPng } from '../../../src/render/chart/png.ts';
import { svgDocument } from '../../../src/render/chart/svg.ts';
import {
  PNG_SIGNATURE,
  differingPixels,
  pngSize,
  rasterize,
  rasterizeWithoutFonts,
  whole,
  withoutText,
  type Raster,
} from '../../support/pixels.ts';

function input(overrides: Partial<ProfileCardInput> = {}): ProfileCardInput {
  return {
    name: 'Sn1per',
    clan: 'FRAG',
    level: 'Level 87',
    badges: [
      { kind: 'verified', label: 'Verified' },
      { kind: 'premium', label: 'Premium' },
      { kind: 'kpd', label: 'KPD moderator' },
    ],
    stats: [
      { label: 'K/D', value: '2.14' },
      { label: 'Kills', value: '123,456' },
      { label: 'Score', value: '9,876,543' },
      { label: 'Win rate', value: '54.2%' },
      { label: 'Time played', value: '12d 4h' },
    ],
    ranked: {
      title: 'Ranked MMR',
      regions: [
        { label: 'Europe', value: '2,140 MMR' },
        { label: 'North America', value: '1,575 MMR' },
      ],
      none: 'No ranked standing this season',
    },
    ...overrides,
  };
}

/** Every text element of the SVG, whole (markup) and its content unescaped. */
function runs(svg: string): Array<{ element: string; content: string }> {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => ({
    element: match[0],
    content: match[1]!
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&apos;', "'")
      .replaceAll('&amp;', '&'),
  }));
}

function drawn(raster: Raster): number {
  let count = 0;
  for (let i = 3; i < raster.pixels.length; i += 4) if (raster.pixels[i]! > 0) count += 1;
  return count;
}

/**
 * Pixels one text element draws on its own, on a transparent card, with the font files the bot gives a draw
 * of it (`fontFilesForSvg`: the chart font and only the fallbacks its text needs). Loading every fallback
 * for each of some 400 elements cost this file 20 s of CPU.
 */
function pixelsOf(element: string): number {
  const svg = svgDocument(CARD_WIDTH, CARD_HEIGHT, [element]);
  const options = chartRenderOptions();
  return drawn(rasterize(svg, { ...options, font: { ...options.font, fontFiles: fontFilesForSvg(svg) } }));
}

const NAME_BAND = { left: 120, top: 36, right: CARD_WIDTH, bottom: 86 };

const HOSTILE_NAMES: ReadonlyArray<[string, string]> = [
  ['Latin', 'Sn1per_Pro'],
  ['Latin with accents', 'Ŝñïpęr Çàfé'],
  ['Cyrillic', 'Снайпер'],
  ['Greek', 'Σκοπευτής'],
  ['Chinese', '狙击手大师'],
  ['Japanese', 'スナイパーかな'],
  ['Korean', '저격수'],
  ['emoji', '😀🔥🎯'],
  ['emoji with skin tone and joiners', '👍🏽👨‍👩‍👧'],
  ['flag', '🇺🇦🇯🇵'],
  ['mixed scripts', 'Ωmega狙击Снайпер😀'],
  ['markup', '<script>alert("x")</script>&amp;'],
  ['bidi override', '\u202Eredaer\u202C'],
  ['control characters', 'A\u0000B\u0007C\u001F'],
  ['Zalgo', `Z${'\u0301\u0302\u0303\u0304\u0305'.repeat(40)}algo`],
  ['Thai (no shipped font)', 'ไทยแลนด์'],
  ['private use', '\uE000\uF8FF'],
  ['unassigned', '\u0378\u{10FFFD}'],
  ['lone surrogate', 'ab\uD800cd'],
  ['only a Hangul filler', '\u3164'],
  ['only spaces and zero-width', ' \u200B\u2060 '],
  ['mentions', '@everyone @here <@123>'],
  ['very long', 'W'.repeat(5_000)],
];

describe('renderProfileCard', () => {
  it('returns an 800×360 PNG with alt text of everything on it', async () => {
    const card = await drawnChart(renderProfileCard(input()));
    expect(card.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(card.png)).toEqual({ width: 800, height: 360 });
    expect(card.altText).toBe(
      'Sn1per [FRAG] Level 87. Verified, Premium, KPD moderator. K/D 2.14, Kills 123,456, ' +
        'Score 9,876,543, Win rate 54.2%, Time played 12d 4h. ' +
        'Ranked MMR: Europe 2,140 MMR, North America 1,575 MMR.',
    );
  });

  it('shows the name, clan, level, badges, every stat and every region', async () => {
    const contents = runs(buildProfileCardSvg(input()).svg).map((run) => run.content);
    expect(contents).toEqual(
      expect.arrayContaining([
        'S',
        'Sn1per',
        '[FRAG]',
        'Level 87',
        '✔ Verified',
        '★ Premium',
        '⚑ KPD moderator',
        '2.14',
        'K/D',
        '123,456',
        '9,876,543',
        '54.2%',
        '12d 4h',
        'Time played',
        'Ranked MMR',
        'Europe',
        '2,140 MMR',
        '1,575 MMR',
      ]),
    );
  });

  it('says so without ranked regions, and leaves out the clan without one', async () => {
    const { svg, altText } = buildProfileCardSvg(
      input({ clan: undefined, ranked: { title: 'Ranked MMR', regions: [], none: 'No ranked yet' } }),
    );
    const contents = runs(svg).map((run) => run.content);
    expect(contents).toContain('No ranked yet');
    expect(contents.some((content) => content.startsWith('['))).toBe(false);
    expect(altText).toContain('Sn1per Level 87.');
    expect(altText.endsWith('No ranked yet.')).toBe(true);
  });

  describe.each(HOSTILE_NAMES)('with a hostile name (%s)', (_script, name) => {
    const { svg, texts } = buildProfileCardSvg(input({ name, clan: name }));
    const textRuns = runs(svg);

    it('draws every text run: no run is an empty glyph run', async () => {
      expect(textRuns.length).toBeGreaterThan(15);
      for (const run of textRuns) {
        expect(run.content.trim(), run.element).not.toBe('');
        expect(pixelsOf(run.element), run.element).toBeGreaterThan(10);
      }
    });

    it('has a shipped glyph for every visible character (a square where none has one)', async () => {
      for (const run of textRuns) {
        for (const char of run.content) {
          if (/\p{Default_Ignorable_Code_Point}/u.test(char)) continue;
          expect(
            hasGlyph(char.codePointAt(0)!),
            `U+${char.codePointAt(0)!.toString(16)} in ${run.content}`,
          ).toBe(true);
        }
      }
    });

    it('keeps the name and clan within their boxes and the markup escaped', async () => {
      const [, drawnName, drawnClan] = texts;
      expect(measureText(drawnName!, 32, 'bold')).toBeLessThanOrEqual(CARD_WIDTH - 128 - 28 + 0.01);
      expect(drawnClan!.startsWith('[')).toBe(true);
      expect(measureText(drawnClan!, 18, 'bold')).toBeLessThanOrEqual(240 + 0.01);
      // Every run of the name lies within the card.
      for (const match of svg.matchAll(/<text x="([\d.]+)" y="74"[^>]*>[^<]*<\/text>/g)) {
        const [run] = runs(match[0]);
        expect(Number(match[1]) + measureText(run!.content, 32, 'bold')).toBeLessThanOrEqual(
          CARD_WIDTH - 28 + 0.5,
        );
      }
      expect(svg).not.toContain('<script');
      expect(svg.length).toBeLessThan(12_000);
      expect(() => rasterize(svg)).not.toThrow();
    });
  });

  it('draws a square for characters no shipped font has, never nothing', async () => {
    expect(drawableText('aไb')).toBe(`a${MISSING_GLYPH.repeat(1)}b`);
    expect(drawableText('\uE000')).toBe(MISSING_GLYPH);
    expect(drawableText('\u3164')).toBe(MISSING_GLYPH);
    expect(drawableText('a\u3164b\u0000')).toBe('a b');
    expect(drawableText('   ')).toBe(MISSING_GLYPH);
    expect(drawableText('')).toBe(MISSING_GLYPH);
    // Emoji sequences come apart into what resvg can draw from a fallback font, one glyph each.
    expect(drawableText('👨‍👩‍👧')).toBe('👨👩👧');
    expect(drawableText('👍🏽❤️1️⃣')).toBe('👍❤1');
    expect(drawableText('🇺🇦')).toBe('🇺\u200C🇦');
    expect(drawableText('ab\u200Dcd')).toBe('ab\u200Dcd');
    const { svg } = buildProfileCardSvg(input({ name: 'ไทย' }));
    expect(runs(svg)[1]!.content).toBe(MISSING_GLYPH.repeat(3));
  });

  it('cuts stacks of combining marks', async () => {
    const cut = drawableText(`a${'\u0301'.repeat(50)}b`);
    // a + U+0301 composes to á (NFC), which keeps three more.
    expect(cut).toBe(`á${'\u0301'.repeat(3)}b`);
  });

  it('keeps its limits: six stats, four regions, four badges, a bounded name', async () => {
    const many = input({
      name: '狙'.repeat(100_000),
      stats: Array.from({ length: 20 }, (_, i) => ({ label: `S${i}`, value: String(i) })),
      ranked: {
        title: 'Ranked',
        regions: Array.from({ length: 20 }, (_, i) => ({ label: `R${i}`, value: `${i} MMR` })),
        none: '-',
      },
      badges: Array.from({ length: 20 }, () => ({ kind: 'kpd' as const, label: 'K' })),
    });
    const { svg, altText, texts } = buildProfileCardSvg(many);
    const contents = runs(svg).map((run) => run.content);
    expect(contents.filter((content) => /^S\d+$/.test(content))).toHaveLength(6);
    expect(contents.filter((content) => /^R\d+$/.test(content))).toHaveLength(4);
    expect(contents.filter((content) => content === '⚑ K')).toHaveLength(4);
    expect(texts[1]!.endsWith('…')).toBe(true);
    expect(svg.length).toBeLessThan(12_000);
    expect(altText.length).toBeLessThanOrEqual(1024);
  });

  it('sets a long number smaller rather than cutting it', async () => {
    const contents = runs(buildProfileCardSvg(input()).svg).map((run) => run.content);
    expect(contents).toContain('9,876,543');
  });
});

describe('the card’s fonts', () => {
  it('draws its text with the shipped fonts only: without them the text is gone', async () => {
    const { svg } = buildProfileCardSvg(input({ name: 'Sn1per狙击手😀' }));
    const bare = rasterize(withoutText(svg));
    const noFonts = rasterizeWithoutFonts(svg);
    expect(differingPixels(noFonts, bare, whole(bare))).toBe(0);
    const withFonts = rasterize(svg);
    expect(differingPixels(withFonts, bare, NAME_BAND)).toBeGreaterThan(500);
  });

  it.each([
    ['Chinese', '狙击手大师'],
    ['Korean', '저격수'],
    ['emoji', '🔥🎯🚀'],
  ])('draws %s names with the fallback fonts, which DejaVu alone has no glyphs for', (_script, name) => {
    const { svg } = buildProfileCardSvg(input({ name }));
    const nameOnly = svg.replace(/<text\b[^>]*>[^<]*<\/text>/g, (element) =>
      element.includes(`>${name}<`) ? element : '',
    );
    expect(nameOnly).toContain(`>${name}<`);
    const bare = rasterize(withoutText(svg));
    const dejaVuOnly = rasterize(nameOnly, {
      ...chartRenderOptions(),
      font: { fontFiles: chartFontFiles(), loadSystemFonts: false, defaultFontFamily: CHART_FONT_FAMILY },
      logLevel: 'off',
    });
    const full = rasterize(nameOnly);
    expect(differingPixels(full, bare, NAME_BAND)).toBeGreaterThan(300);
    // DejaVu alone draws its empty boxes (.notdef) there: the glyphs come from the fallback fonts.
    expect(differingPixels(full, dejaVuOnly, NAME_BAND)).toBeGreaterThan(300);
  });

  it.each([
    ['a flag', '🇺🇦🇯🇵'],
    ['a family', '👨‍👩‍👧'],
    ['a skin tone', '👍🏽'],
    ['a keycap', '1️⃣'],
  ])(
    'draws the Japanese after %s with its fallback font (resvg loses no character after an emoji)',
    (_what, emoji) => {
      const name = `${emoji}スナイパー`;
      const { svg } = buildProfileCardSvg(input({ name }));
      const withoutJapanese = buildProfileCardSvg(input({ name: emoji })).svg;
      const options = chartRenderOptions();
      const noSc = {
        ...options,
        font: {
          ...options.font,
          fontFiles: [
            ...chartFontFiles(),
            ...fallbackFontFiles().filter((file) => !file.endsWith('NotoSansSC-Subset.ttf')),
          ],
        },
        logLevel: 'off' as const,
      };
      // Right of the emoji: the katakana, drawn by Noto Sans SC (not DejaVu's empty boxes, not nothing).
      const band = { left: 128 + 100, top: 36, right: CARD_WIDTH, bottom: 86 };
      const full = rasterize(svg);
      expect(differingPixels(full, rasterize(withoutJapanese), band)).toBeGreaterThan(300);
      expect(differingPixels(full, rasterize(svg, noSc), band)).toBeGreaterThan(300);
    },
  );

  it('ships the fallback fonts in assets/fonts, as TrueType files with their licences', async () => {
    const files = fallbackFontFiles();
    expect(files.map((file) => file.slice(file.lastIndexOf('/') + 1))).toEqual([
      'DejaVuSans.ttf',
      'DejaVuSans-Bold.ttf',
      'NotoSansSC-Subset.ttf',
      'NotoSansKR-Subset.ttf',
      'NotoEmoji-Regular.ttf',
    ]);
    for (const file of files) {
      expect(dirname(file)).toBe(dirname(chartFontFiles()[0]!));
      expect(readFileSync(file).subarray(0, 4)).toEqual(Buffer.from([0, 1, 0, 0]));
    }
    for (const licence of ['LICENSE-NotoSansSC-KR.txt', 'LICENSE-NotoEmoji.txt']) {
      expect(readFileSync(join(dirname(files[0]!), licence), 'utf8')).toContain('SIL Open Font License');
    }
    expect(chartRenderOptions().font?.fontFiles).toEqual([...chartFontFiles(), ...files]);
    expect(chartRenderOptions().font?.loadSystemFonts).toBe(false);
  });

  it('renders with the fonts its text needs only, drawing exactly what the whole chain draws', async () => {
    const [dejaVu, dejaVuBold, sc, kr, emoji] = fallbackFontFiles();
    expect(fontFilesFor(['Sn1per', 'Снайпер Σκοπευτής', 'Zażółć ★ №1'])).toEqual(chartFontFiles());
    expect(fontFilesFor(['Ջ'])).toEqual([...chartFontFiles(), dejaVu, dejaVuBold]);
    expect(fontFilesFor(['狙击手'])).toEqual([...chartFontFiles(), sc]);
    expect(fontFilesFor(['저격수 🔥'])).toEqual([...chartFontFiles(), kr, emoji]);
    for (const name of ['Sn1per', '狙击手😀', 'Ջ Sn1per']) {
      const card = buildProfileCardSvg(input({ name }));
      const needed = (await drawnChart(renderProfileCard(input({ name })))).png;
      expect(needed.equals(renderSvgToPng(card.svg).png)).toBe(true);
    }
  });

  it('is deterministic', async () => {
    const name = 'Ωmega狙击Снайпер😀';
    expect(
      (await drawnChart(renderProfileCard(input({ name })))).png.equals(
        (await drawnChart(renderProfileCard(input({ name })))).png,
      ),
    ).toBe(true);
  });
});
