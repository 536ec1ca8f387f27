import {
  RenderPool,
  workerEntry,
  type RenderPoolOptions,
  type WorkerEntry,
} from '../../src/render/image/pool.ts';

/** Markers in an SVG that make the test render worker hang (a busy loop) or crash (its thread dies). */
export const HANG = '<!--hang-->';
export const CRASH = '<!--crash-->';

/** The test render worker (`render-worker.ts`): draws, or hangs or crashes on a marker in the SVG. */
export const markerWorker: WorkerEntry = workerEntry(import.meta.url, 'render-worker');

/** A worker that answers every draw as failed, as one whose resvg throws on everything. */
export const failingWorker: WorkerEntry = {
  script: `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (r) => parentPort.postMessage({ kind: 'failed', id: r.id, message: 'resvg threw' }));
parentPort.postMessage({ kind: 'ready' });`,
};

/** A worker that takes every draw and never answers (blocked, as a stuck native call would leave it). */
export const hangingWorker: WorkerEntry = {
  script: `const { parentPort } = require('node:worker_threads');
parentPort.on('message', () => { for (;;); });
parentPort.postMessage({ kind: 'ready' });`,
};

/** A pool of the given worker, one thread, a queue of 4 and a 1 s timeout measured by `sleep`. */
export function testPool(entry: WorkerEntry, options: Partial<RenderPoolOptions> = {}): RenderPool {
  return new RenderPool({ size: 1, queueLimit: 4, timeoutMs: 1_000, entry, ...options });
}

/** A small SVG, `n` telling one from another. */
export function tinySvg(n: number, extra = ''): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">${extra}<rect width="4" height="4" fill="#${(n % 4096).toString(16).padStart(3, '0')}"/></svg>`;
}
