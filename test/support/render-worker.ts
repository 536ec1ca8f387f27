// A render worker for the pool's tests: draws like the real one, except an SVG that asks it to hang (a busy
// loop only terminating the thread ends) or to crash (the thread dies in the middle of the draw).
import { drawPng } from '../../src/render/image/draw.ts';
import { serveRenders } from '../../src/render/image/protocol.ts';
import { CRASH, HANG } from './render-pool.ts';

serveRenders(
  (svg, fontFiles) => {
    if (svg.includes(HANG)) for (;;);
    // In a worker thread, exit ends the thread alone, as a fatal error in resvg would.
    if (svg.includes(CRASH)) process.exit(3);
    return drawPng(svg, fontFiles);
  },
  () => undefined,
);
