import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { chartRenderOptions } from '../../src/render/chart/png.ts';

export interface Raster {
  pixels: Buffer;
  width: number;
  height: number;
}

/** RGBA pixels of `svg` rendered the way charts are, or with other resvg options. */
export function rasterize(svg: string, options: ResvgRenderOptions = chartRenderOptions()): Raster {
  const image = new Resvg(svg, options).render();
  return { pixels: image.pixels, width: image.width, height: image.height };
}

/** resvg with neither the shipped font nor the system's: the failure mode of a chart without fonts. */
export function rasterizeWithoutFonts(svg: string): Raster {
  return rasterize(svg, { font: { loadSystemFonts: false }, logLevel: 'off' });
}

/** How many pixels differ between two rasters of one size inside the rows [top, bottom) and columns [left, right). */
export function differingPixels(
  a: Raster,
  b: Raster,
  region: { left: number; top: number; right: number; bottom: number },
): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('rasters differ in size');
  let count = 0;
  for (let y = region.top; y < region.bottom; y++) {
    for (let x = region.left; x < region.right; x++) {
      const i = (y * a.width + x) * 4;
      if (
        a.pixels[i] !== b.pixels[i] ||
        a.pixels[i + 1] !== b.pixels[i + 1] ||
        a.pixels[i + 2] !== b.pixels[i + 2] ||
        a.pixels[i + 3] !== b.pixels[i + 3]
      ) {
        count += 1;
      }
    }
  }
  return count;
}

export function whole(raster: Raster): { left: number; top: number; right: number; bottom: number } {
  return { left: 0, top: 0, right: raster.width, bottom: raster.height };
}

/** The SVG without any text element. */
export function withoutText(svg: string): string {
  return svg.replace(/<text\b[^>]*>[^<]*<\/text>/g, '');
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
