import { inflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../../src/render/image/encode.ts';

/** The chunks of a PNG, each with whether its CRC matches (decoded here, independently of the encoder). */
function chunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  const found: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    found.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return found;
}

describe('encodePng', () => {
  it('writes straight RGBA rows that decode to what resvg drew, partly transparent pixels included', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="3" height="2"><rect width="3" height="1" fill="#ff8040" fill-opacity="0.5"/><rect y="1" width="3" height="1" fill="#102030"/></svg>';
    const image = new Resvg(svg).render();
    const png = encodePng(image.pixels, image.width, image.height);
    const [header, data, end] = chunks(png);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([header?.type, data?.type, end?.type]).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([
      header?.data.readUInt32BE(0),
      header?.data.readUInt32BE(4),
      header?.data[8],
      header?.data[9],
    ]).toEqual([3, 2, 8, 6]);
    const rows = inflateSync(data?.data ?? Buffer.alloc(0));
    // Row 0: filter 0, then the half-transparent orange as straight colour (premultiplied 128,64,32,128).
    expect([...rows.subarray(0, 5)]).toEqual([0, 255, 128, 64, 128]);
    expect([...rows.subarray(13, 18)]).toEqual([0, 0x10, 0x20, 0x30, 255]);
  });

  it('gives resvg’s own PNG the same pixels (checked through resvg reading both back)', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#2b2d31"/><circle cx="10" cy="10" r="8" fill="#f0b232"/></svg>';
    const image = new Resvg(svg).render();
    const ours = encodePng(image.pixels, image.width, image.height);
    const back = (png: Buffer) =>
      new Resvg(
        `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><image width="40" height="20" href="data:image/png;base64,${png.toString('base64')}"/></svg>`,
      ).render().pixels;
    expect(back(ours).equals(back(image.asPng()))).toBe(true);
  });

  it('demultiplies an image opaque but for one pixel, wherever that pixel lies and however the pixels are aligned', () => {
    const opaque = [0x10, 0x20, 0x30, 255];
    const half = [128, 64, 32, 128];
    for (let width = 1; width <= 9; width++) {
      for (let at = 0; at < width; at++) {
        const pixels = Array.from({ length: width }, (_, i) => (i === at ? half : opaque)).flat();
        // Copied one byte into a larger buffer, so that the pixels do not start on a four-byte boundary.
        const unaligned = Buffer.from([0, ...pixels]).subarray(1);
        for (const premultiplied of [Buffer.from(pixels), unaligned]) {
          const [, data] = chunks(encodePng(premultiplied, width, 1));
          const row = inflateSync(data?.data ?? Buffer.alloc(0));
          expect([...row.subarray(1 + at * 4, 5 + at * 4)]).toEqual([255, 128, 64, 128]);
          if (width > 1) expect([...row.subarray(1 + ((at + 1) % width) * 4)].slice(0, 4)).toEqual(opaque);
        }
      }
    }
  });

  it('refuses pixels that do not match the size', () => {
    expect(() => encodePng(Buffer.alloc(10), 2, 2)).toThrow(RangeError);
  });
});
