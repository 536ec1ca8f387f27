import { parentPort } from 'node:worker_threads';
import type { DrawnPng } from './draw.ts';

/** What the pool asks of a render worker: one SVG to draw, with the font files its text needs. */
export interface RenderRequest {
  id: number;
  svg: string;
  fontFiles?: readonly string[];
}

/** A worker's answers: ready once it has set itself up, then one reply per request. */
export type RenderReply =
  | { kind: 'ready' }
  | { kind: 'drawn'; id: number; png: Uint8Array; width: number; height: number }
  | { kind: 'failed'; id: number; message: string };

/**
 * The loop of a render worker thread: sets itself up once (`warmUp`), says it is ready, then draws each
 * request with `draw` and answers it, the PNG's memory handed over rather than copied. A draw that throws
 * is answered as failed and the thread goes on. Shared by `worker.ts` and the test workers that hang.
 */
export function serveRenders(
  draw: (svg: string, fontFiles?: readonly string[]) => DrawnPng,
  warmUp: () => void,
): void {
  const port = parentPort;
  if (port === null) throw new Error('a render worker runs in a worker thread');
  warmUp();
  port.on('message', (request: RenderRequest) => {
    let reply: RenderReply;
    const transfer: ArrayBuffer[] = [];
    try {
      const { png, width, height } = draw(request.svg, request.fontFiles);
      // A copy of its own, so that the whole buffer can be moved (a small Buffer shares Node's pool).
      const bytes = new Uint8Array(png);
      transfer.push(bytes.buffer);
      reply = { kind: 'drawn', id: request.id, png: bytes, width, height };
    } catch (error) {
      reply = {
        kind: 'failed',
        id: request.id,
        message: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(reply, transfer);
  });
  port.postMessage({ kind: 'ready' } satisfies RenderReply);
}
