import { CHART_FONT_FAMILY, fontRuns, measureText } from './font.ts';

export type Attributes = Record<string, string | number | undefined>;

// Characters XML 1.0 forbids (C0 controls but tab/newline/return, lone surrogates, U+FFFE/U+FFFF): resvg
// refuses the whole document over one of them, so a player name holding one must not reach the parser.
const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** `text` made safe as XML character data or an attribute value. */
export function escapeXml(text: string): string {
  return text.replace(INVALID_XML, '').replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** Rounds coordinates so the SVG stays short and identical for identical input. */
export function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

function attributes(attrs: Attributes): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    out += ` ${name}="${typeof value === 'number' ? num(value) : escapeXml(value)}"`;
  }
  return out;
}

/** An element whose children are already SVG markup. */
export function element(tag: string, attrs: Attributes, children: readonly string[] = []): string {
  return children.length === 0
    ? `<${tag}${attributes(attrs)}/>`
    : `<${tag}${attributes(attrs)}>${children.join('')}</${tag}>`;
}

export interface TextOptions {
  x: number;
  y: number;
  size: number;
  fill: string;
  weight?: 'normal' | 'bold';
  anchor?: 'start' | 'middle' | 'end';
}

// Text the chart font draws whole, without looking at each character: printable ASCII, most of any chart.
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * A text element in the chart font; `content` is plain text and is escaped here. Text with characters the
 * chart font lacks is drawn one element per font run ({@link fontRuns}), each naming its shipped font and
 * placed after the previous one by the fonts' advance widths: resvg then needs no fallback of its own,
 * which loses glyphs after a ligature.
 */
export function text(content: string, options: TextOptions): string {
  const weight = options.weight ?? 'normal';
  // What XML forbids goes first: a control character some font maps must not make a run of its own.
  const runs = PLAIN.test(content) ? [] : fontRuns(content.replace(INVALID_XML, ''), weight);
  if (runs.every((run) => run.family === CHART_FONT_FAMILY)) return oneText(content, options);
  const widths = runs.map((run) => measureText(run.text, options.size, weight));
  const total = widths.reduce((sum, width) => sum + width, 0);
  let x =
    options.anchor === 'middle'
      ? options.x - total / 2
      : options.anchor === 'end'
        ? options.x - total
        : options.x;
  return runs
    .map((run, i) => {
      const part = element(
        'text',
        {
          x,
          y: options.y,
          'xml:space': 'preserve',
          'font-family': run.family,
          'font-size': options.size,
          'font-weight': weight === 'bold' ? 'bold' : undefined,
          fill: options.fill,
        },
        [escapeXml(run.text)],
      );
      x += widths[i] ?? 0;
      return part;
    })
    .join('');
}

function oneText(content: string, options: TextOptions): string {
  const attrs: Attributes = {
    x: options.x,
    y: options.y,
    'font-family': CHART_FONT_FAMILY,
    'font-size': options.size,
    'font-weight': options.weight === 'bold' ? 'bold' : undefined,
    'text-anchor': options.anchor === undefined || options.anchor === 'start' ? undefined : options.anchor,
    fill: options.fill,
  };
  return `<text${attributes(attrs)}>${escapeXml(content)}</text>`;
}

export function rect(
  x: number,
  y: number,
  width: number,
  height: number,
  fill: string,
  extra: Attributes = {},
): string {
  return element('rect', { x, y, width: Math.max(0, width), height: Math.max(0, height), fill, ...extra });
}

export function line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1): string {
  return element('line', { x1, y1, x2, y2, stroke, 'stroke-width': width });
}

export function svgDocument(width: number, height: number, children: readonly string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" ` +
    `viewBox="0 0 ${num(width)} ${num(height)}">${children.join('')}</svg>`
  );
}
