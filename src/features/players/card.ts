import {
  drawableText,
  ellipsizeToWidth,
  fontFilesFor,
  measureText,
  MISSING_GLYPH,
  type FontWeight,
} from '../../render/chart/font.ts';
import { sentences } from '../../render/chart/layout.ts';
import { chartSvg, type ChartImage, type ChartSvg } from '../../render/chart/png.ts';
import { element, rect, svgDocument, text, type TextOptions } from '../../render/chart/svg.ts';
import { Colors } from '../../render/chart/theme.ts';
import { chartImage } from '../../render/image/images.ts';

/** The card's size: wide enough for a long name, small enough that Discord shows it whole in an embed. */
export const CARD_WIDTH = 800;
export const CARD_HEIGHT = 360;

export type CardBadgeKind = 'verified' | 'premium' | 'kpd' | 'hacker';

export interface CardBadge {
  kind: CardBadgeKind;
  /** The badge's name in the reader's language. */
  label: string;
}

export interface CardStat {
  label: string;
  /** Already formatted in the reader's locale ("2.14", "12,345", "3d 4h"). */
  value: string;
}

export interface CardRegion {
  label: string;
  /** Already formatted, unit included ("2,140 MMR"). */
  value: string;
}

export interface ProfileCardInput {
  /** The player's name, as the API sent it: any script, any length. */
  name: string;
  /** The clan tag, undefined or empty without a clan. */
  clan: string | undefined;
  /** "Level 87", formatted. */
  level: string;
  badges: readonly CardBadge[];
  /** The headline numbers, one tile each (at most {@link MAX_STATS}). */
  stats: readonly CardStat[];
  ranked: {
    title: string;
    /** Regions in the order to show (at most {@link MAX_REGIONS}). */
    regions: readonly CardRegion[];
    /** What the ranked strip says without a region. */
    none: string;
  };
}

/** The card's SVG and alt text, with every text drawn on it (which picks the fonts to render with). */
export interface ProfileCardSvg extends ChartSvg {
  texts: string[];
}

export const MAX_STATS = 6;
export const MAX_REGIONS = 4;
const MAX_BADGES = 4;

const PAD = 28;
const AVATAR = { cx: PAD + 40, cy: 76, r: 40 };
const NAME = { x: PAD + 100, baseline: 74, size: 32 };
const SUB = { baseline: 108, size: 18 };
const CLAN_MAX = 240;
const DIVIDER_Y = 134;
const TILES = { top: 152, height: 84, gap: 12 };
const RANKED_TITLE_BASELINE = 266;
const CHIPS = { top: 280, height: 56, gap: 12 };
const BADGE = { height: 24, size: 13, gap: 8, padX: 10 };

const BADGE_STYLE: Record<CardBadgeKind, { color: string; icon: string }> = {
  verified: { color: Colors.sales, icon: '✔' },
  premium: { color: Colors.price, icon: '★' },
  kpd: { color: Colors.rival, icon: '⚑' },
  hacker: { color: Colors.losses, icon: '⚠' },
};

/** The card's accent, as the embed's colour says it: flagged, premium, verified, or the default. */
function accentOf(badges: readonly CardBadge[]): string {
  const has = (kind: CardBadgeKind) => badges.some((badge) => badge.kind === kind);
  if (has('hacker')) return Colors.losses;
  if (has('premium')) return Colors.price;
  if (has('verified')) return Colors.sales;
  return Colors.mmr;
}

/** Data made drawable (squares for glyphs no font has) and cut to `maxWidth` with an ellipsis. */
function fitted(content: string, maxWidth: number, size: number, weight: FontWeight = 'normal'): string {
  return ellipsizeToWidth(drawableText(content, weight), maxWidth, size, weight);
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

const INVISIBLE = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\u115F\u1160\u2800\u3164\uFFA0]+$/u;

/** The first visible character of the name, for the round avatar (the API gives no picture). */
function initialOf(name: string): string {
  for (const { segment } of graphemes.segment(drawableText(name.slice(0, 64), 'bold'))) {
    if (!INVISIBLE.test(segment)) return segment.toLocaleUpperCase('en');
  }
  return MISSING_GLYPH;
}

/**
 * The profile card: a round initial and the name, the clan tag, level and badges under it, a row of
 * headline numbers and the ranked MMR per region. Every piece of text comes in as data and is escaped,
 * made drawable and cut to its box here; the numbers come formatted in the reader's locale.
 */
export function buildProfileCardSvg(input: ProfileCardInput): ProfileCardSvg {
  const accent = accentOf(input.badges);
  // Every text drawn, to pick the fonts the render needs.
  const texts: string[] = [];
  const say = (content: string, options: TextOptions) => {
    texts.push(content);
    return text(content, options);
  };
  const parts: string[] = [
    rect(0, 0, CARD_WIDTH, CARD_HEIGHT, Colors.background),
    rect(0, 0, CARD_WIDTH, 6, accent),
    element('circle', { cx: AVATAR.cx, cy: AVATAR.cy, r: AVATAR.r, fill: accent }),
    say(initialOf(input.name), {
      x: AVATAR.cx,
      y: AVATAR.cy + 13,
      size: 36,
      fill: Colors.background,
      weight: 'bold',
      anchor: 'middle',
    }),
    say(fitted(input.name, CARD_WIDTH - NAME.x - PAD, NAME.size, 'bold'), {
      x: NAME.x,
      y: NAME.baseline,
      size: NAME.size,
      fill: Colors.title,
      weight: 'bold',
    }),
  ];

  // The line under the name: [CLAN] · Level 87, then the badges as long as they fit.
  let cursor = NAME.x;
  const clan = input.clan?.trim() ?? '';
  if (clan !== '') {
    const tag = fitted(`[${clan}]`, CLAN_MAX, SUB.size, 'bold');
    parts.push(say(tag, { x: cursor, y: SUB.baseline, size: SUB.size, fill: accent, weight: 'bold' }));
    cursor += measureText(tag, SUB.size, 'bold') + 10;
  }
  const level = fitted(input.level, 200, SUB.size);
  parts.push(say(level, { x: cursor, y: SUB.baseline, size: SUB.size, fill: Colors.text }));
  cursor += measureText(level, SUB.size) + 16;
  for (const badge of input.badges.slice(0, MAX_BADGES)) {
    const style = BADGE_STYLE[badge.kind];
    const label = fitted(`${style.icon} ${badge.label}`, 160, BADGE.size, 'bold');
    const width = measureText(label, BADGE.size, 'bold') + 2 * BADGE.padX;
    if (cursor + width > CARD_WIDTH - PAD) break;
    const top = SUB.baseline - SUB.size * 0.35 - BADGE.height / 2;
    parts.push(
      rect(cursor, top, width, BADGE.height, style.color, { rx: BADGE.height / 2 }),
      say(label, {
        x: cursor + BADGE.padX,
        y: top + BADGE.height / 2 + BADGE.size * 0.35,
        size: BADGE.size,
        fill: Colors.background,
        weight: 'bold',
      }),
    );
    cursor += width + BADGE.gap;
  }

  parts.push(rect(PAD, DIVIDER_Y, CARD_WIDTH - 2 * PAD, 1, Colors.grid));

  const stats = input.stats.slice(0, MAX_STATS);
  if (stats.length > 0) {
    const width = (CARD_WIDTH - 2 * PAD - TILES.gap * (stats.length - 1)) / stats.length;
    stats.forEach((stat, i) => {
      const x = PAD + i * (width + TILES.gap);
      const middle = x + width / 2;
      // A long number is set smaller before it is cut: "9,876,543" whole beats "9,876,…".
      let valueSize = 26;
      while (
        valueSize > 16 &&
        measureText(drawableText(stat.value, 'bold'), valueSize, 'bold') > width - 16
      ) {
        valueSize -= 2;
      }
      parts.push(
        rect(x, TILES.top, width, TILES.height, Colors.plot, { rx: 10 }),
        say(fitted(stat.value, width - 16, valueSize, 'bold'), {
          x: middle,
          y: TILES.top + 42,
          size: valueSize,
          fill: Colors.title,
          weight: 'bold',
          anchor: 'middle',
        }),
        say(fitted(stat.label, width - 16, 13), {
          x: middle,
          y: TILES.top + 66,
          size: 13,
          fill: Colors.muted,
          anchor: 'middle',
        }),
      );
    });
  }

  parts.push(
    say(fitted(input.ranked.title, CARD_WIDTH - 2 * PAD, 14, 'bold'), {
      x: PAD,
      y: RANKED_TITLE_BASELINE,
      size: 14,
      fill: Colors.muted,
      weight: 'bold',
    }),
  );
  const regions = input.ranked.regions.slice(0, MAX_REGIONS);
  if (regions.length === 0) {
    parts.push(
      say(fitted(input.ranked.none, CARD_WIDTH - 2 * PAD, 16), {
        x: PAD,
        y: CHIPS.top + 34,
        size: 16,
        fill: Colors.text,
      }),
    );
  } else {
    const slots = Math.max(regions.length, 3);
    const width = (CARD_WIDTH - 2 * PAD - CHIPS.gap * (slots - 1)) / slots;
    regions.forEach((region, i) => {
      const x = PAD + i * (width + CHIPS.gap);
      parts.push(
        rect(x, CHIPS.top, width, CHIPS.height, Colors.plot, { rx: 10 }),
        rect(x, CHIPS.top, 5, CHIPS.height, Colors.mmr, { rx: 2 }),
        say(fitted(region.label, width - 28, 13), {
          x: x + 18,
          y: CHIPS.top + 22,
          size: 13,
          fill: Colors.muted,
        }),
        say(fitted(region.value, width - 28, 20, 'bold'), {
          x: x + 18,
          y: CHIPS.top + 46,
          size: 20,
          fill: Colors.title,
          weight: 'bold',
        }),
      );
    });
  }

  const svg = svgDocument(CARD_WIDTH, CARD_HEIGHT, parts);
  const altText = sentences([
    [input.name.slice(0, 128), clan === '' ? '' : `[${clan.slice(0, 64)}]`, input.level]
      .filter(Boolean)
      .join(' '),
    input.badges.map((badge) => badge.label).join(', '),
    stats.map((stat) => `${stat.label} ${stat.value}`).join(', '),
    regions.length === 0
      ? input.ranked.none
      : `${input.ranked.title}: ${regions.map((region) => `${region.label} ${region.value}`).join(', ')}`,
  ]);
  return { ...chartSvg(svg, altText), texts };
}

/**
 * The profile card as an 800×360 PNG; see {@link buildProfileCardSvg}. Kept by its input (every text
 * formatted in the reader's language): a card asked again is a lookup, with no SVG built.
 */
export function renderProfileCard(input: ProfileCardInput): Promise<ChartImage | undefined> {
  return chartImage({ kind: 'profile-card', data: input }, () => {
    const card = buildProfileCardSvg(input);
    return { svg: card.svg, altText: card.altText, fontFiles: fontFilesFor(card.texts) };
  });
}
