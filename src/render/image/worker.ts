// A render worker thread (started by `pool.ts`): draws SVG into PNG with resvg off the main event loop.
import { chartFontFiles } from '../chart/font.ts';
import { drawPng } from './draw.ts';
import { serveRenders } from './protocol.ts';

/**
 * Set-up once per thread: resvg's native module is loaded and the shipped fonts read (the first text
 * drawn maps DejaVu Sans and parses its tables; later draws of the thread find them in the page cache).
 */
function warmUp(): void {
  drawPng(
    '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><text x="0" y="8" font-size="8">Ag</text></svg>',
    chartFontFiles(),
  );
}

serveRenders(drawPng, warmUp);
