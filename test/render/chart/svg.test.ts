import { describe, expect, it } from 'vitest';
import { element, escapeXml, num, svgDocument, text } from '../../../src/render/chart/svg.ts';
import { rasterize } from '../../support/pixels.ts';

describe('escapeXml', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`<script>&"'</script>`)).toBe('&lt;script&gt;&amp;&quot;&apos;&lt;/script&gt;');
  });

  it('drops characters XML 1.0 forbids and keeps the rest', () => {
    expect(escapeXml('a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFFg')).toBe('abcdefg');
    expect(escapeXml('tab\there\nnew')).toBe('tab\there\nnew');
    expect(escapeXml('lone \uD800 high, lone \uDC00 low, pair 😀')).toBe('lone  high, lone  low, pair 😀');
    expect(escapeXml('Ünïcödé ✓ 名前')).toBe('Ünïcödé ✓ 名前');
  });
});

describe('svg builder', () => {
  it('rounds numbers and escapes attribute values', () => {
    expect(num(1.23456)).toBe('1.23');
    expect(num(-0.001)).toBe('0');
    expect(element('rect', { x: 1.005, y: 2, fill: '"><script>', skipped: undefined })).toBe(
      '<rect x="1" y="2" fill="&quot;&gt;&lt;script&gt;"/>',
    );
    expect(element('g', {}, ['<a/>', '<b/>'])).toBe('<g><a/><b/></g>');
  });

  it('places escaped text in the chart font', () => {
    expect(text('a<b', { x: 1, y: 2, size: 12, fill: '#fff', weight: 'bold', anchor: 'end' })).toBe(
      '<text x="1" y="2" font-family="DejaVu Sans Core" font-size="12" font-weight="bold" text-anchor="end" fill="#fff">a&lt;b</text>',
    );
  });

  it('builds documents resvg parses, whatever the text holds', () => {
    const svg = svgDocument(100, 50, [text(`<\u0000&"'\uD800]]>`, { x: 0, y: 20, size: 12, fill: '#fff' })]);
    expect(rasterize(svg).width).toBe(100);
  });
});
