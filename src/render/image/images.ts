import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { ByteLruCache } from './cache.ts';
import type { DrawnPng } from './draw.ts';
import { defaultPoolSize, RenderPool, type RenderJob, type RenderPoolOptions } from './pool.ts';

/**
 * What draws the images besides the SVG: this module's PNG encoding and resvg's version. A change to
 * either draws every image again rather than serving one drawn the old way.
 */
export const RENDERER_VERSION = `png-1/resvg-${
  (createRequire(import.meta.url)('@resvg/resvg-js/package.json') as { version: string }).version
}`;

export interface ImageRendererOptions {
  /** The drawn PNGs kept, in bytes (keys included). */
  cacheBytes: number;
  pool: RenderPoolOptions | RenderPool;
}

/** Counts since start: images drawn in a worker, served from the cache, joined to a draw under way, failed. */
export interface ImageStats {
  drawn: number;
  cached: number;
  joined: number;
  failed: number;
}

/**
 * The one place images are drawn: an SVG is drawn once in a worker thread ({@link RenderPool}) and its PNG
 * kept by exactly what it shows (the SVG, which holds the data, the locale's text and the theme's colours,
 * the fonts it is drawn with and {@link RENDERER_VERSION}), in a cache bounded in bytes; the same image asked
 * again is a lookup, and asked while it is being drawn, joins that draw. A draw that fails, hangs past the
 * pool's timeout or finds the queue full answers undefined: the reply goes out without its image.
 */
export class ImageRenderer {
  readonly #cache: ByteLruCache<DrawnPng>;
  readonly #pool: RenderPool;
  readonly #drawing = new Map<string, Promise<DrawnPng | undefined>>();
  readonly #failureListeners = new Set<(error: Error) => void>();
  readonly #stats: ImageStats = { drawn: 0, cached: 0, joined: 0, failed: 0 };

  constructor(options: ImageRendererOptions) {
    this.#cache = new ByteLruCache(options.cacheBytes, (image) => image.png.length + 32);
    this.#pool = options.pool instanceof RenderPool ? options.pool : new RenderPool(options.pool);
  }

  /** The PNG of `job`, from the cache or drawn; undefined when it could not be drawn. */
  draw(job: RenderJob): Promise<DrawnPng | undefined> {
    const key = imageKey(job);
    const kept = this.#cache.get(key);
    if (kept !== undefined) {
      this.#stats.cached += 1;
      return Promise.resolve(kept);
    }
    const under = this.#drawing.get(key);
    if (under !== undefined) {
      this.#stats.joined += 1;
      return under;
    }
    const drawing = this.#pool.run(job).then(
      (image) => {
        this.#stats.drawn += 1;
        this.#cache.set(key, image);
        return image;
      },
      (error: unknown) => {
        this.#stats.failed += 1;
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const listener of this.#failureListeners) listener(failure);
        return undefined;
      },
    );
    this.#drawing.set(key, drawing);
    void drawing.finally(() => this.#drawing.delete(key));
    return drawing;
  }

  /** Calls `listener` with each draw that failed (to log it); returns what removes it. */
  onFailure(listener: (error: Error) => void): () => void {
    this.#failureListeners.add(listener);
    return () => this.#failureListeners.delete(listener);
  }

  get stats(): ImageStats & { cache: ByteLruCache<DrawnPng>['stats']; pool: RenderPool['stats'] } {
    return { ...this.#stats, cache: this.#cache.stats, pool: this.#pool.stats };
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** The cache key of a job: a digest of everything that decides its pixels. */
export function imageKey(job: RenderJob): string {
  const hash = createHash('sha256').update(RENDERER_VERSION).update('\0');
  // By file name: the same fonts drawn from another checkout or build are the same image.
  for (const file of job.fontFiles ?? ['*']) hash.update(basename(file)).update('\0');
  return hash.update('\0').update(job.svg).digest('base64url');
}

/** Images kept: about 900 cards or 600 charts. */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/** A draw takes 10–50 ms; one past this is stuck, and its thread is replaced. */
export const DEFAULT_TIMEOUT_MS = 5_000;
/** Draws waiting for a thread at most: about a second of work for two threads. */
export const DEFAULT_QUEUE_LIMIT = 64;

let shared: ImageRenderer | undefined;

/**
 * The process's renderer, made at first use and shared by commands and announcements alike: its threads
 * start with the first draw and let the process exit when idle.
 */
export function images(): ImageRenderer {
  shared ??= new ImageRenderer({
    cacheBytes: DEFAULT_CACHE_BYTES,
    pool: { size: defaultPoolSize(), queueLimit: DEFAULT_QUEUE_LIMIT, timeoutMs: DEFAULT_TIMEOUT_MS },
  });
  return shared;
}

/**
 * Puts `renderer` in place of the process's renderer (tests: one whose pool hangs or fails) and returns
 * the one it replaced, to put back.
 */
export function useImages(renderer: ImageRenderer | undefined): ImageRenderer | undefined {
  const previous = shared;
  shared = renderer;
  return previous;
}
