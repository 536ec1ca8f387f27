import { Resvg } from '@resvg/resvg-js';
import { chartRenderOptions } from './options.ts';
import { encodePng } from './encode.ts';

/** A drawn image: PNG bytes and the pixel size. */
export interface DrawnPng {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * `svg` drawn by resvg and encoded as a PNG, on the calling thread: what each render worker runs
 * (`worker.ts`), and what tests call to rasterize the way the workers do. `fontFiles` replaces the
 * chart's font files with the few the text needs (`fontFilesFor`, `fontFilesForSvg`).
 */
export function drawPng(svg: string, fontFiles?: readonly string[]): DrawnPng {
  const options = chartRenderOptions();
  if (fontFiles !== undefined) options.font = { ...options.font, fontFiles: [...fontFiles] };
  const image = new Resvg(svg, options).render();
  const { width, height } = image;
  return { png: encodePng(image.pixels, width, height), width, height };
}
