import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fontFilesForSvg } from '../chart/font.ts';
import { Colors, Fonts } from '../chart/theme.ts';
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

/**
 * The look every image shares: the theme's colours and text sizes. There is one theme, fixed while the
 * bot runs; it is in every key all the same, so that no image outlives a change of it.
 */
export const THEME = JSON.stringify({ Colors, Fonts });

/**
 * What an image shows, as its cache key: `kind` names the card or chart that draws it (two kinds never
 * share a key), `data` is everything that builder reads: the values drawn, the texts in the reader's
 * language and the locale that formats its numbers and dates. Plain data: a function in it is refused
 * (what it would say is not in the key).
 */
export interface ImageContent {
  readonly kind: string;
  readonly data: unknown;
}

/** An image to draw when the cache does not have it: its SVG and fonts, and the alt text that goes with it. */
export interface ImageJob extends RenderJob {
  altText: string;
}

/** A drawn image with its alt text. */
export interface DrawnImage extends DrawnPng {
  altText: string;
}

/** A kept image: a drawn SVG ({@link ImageRenderer.draw}), or an image and its alt text by what it shows. */
type KeptImage = DrawnPng & { altText?: string };

export interface ImageRendererOptions {
  /** The drawn PNGs kept, in bytes (keys included). */
  cacheBytes: number;
  pool: RenderPoolOptions | RenderPool;
}

/**
 * Counts since start: images built (their SVG made, {@link ImageRenderer.drawContent}), drawn in a worker,
 * served from the cache, joined to a draw under way, failed.
 */
export interface ImageStats {
  built: number;
  drawn: number;
  cached: number;
  joined: number;
  failed: number;
}

/**
 * The one place images are drawn: an SVG is drawn once in a worker thread ({@link RenderPool}) and its PNG
 * kept in a cache bounded in bytes; the same image asked again is a lookup, and asked while it is being
 * drawn, joins that draw. The cards and charts of replies are kept by what they show
 * ({@link drawContent}: the data, the locale, the theme and {@link RENDERER_VERSION}), so a repeat builds
 * no SVG; an SVG alone ({@link draw}) is kept by its markup and fonts. A draw that fails, hangs past the
 * pool's timeout or finds the queue full answers undefined: the reply goes out without its image.
 */
export class ImageRenderer {
  readonly #cache: ByteLruCache<KeptImage>;
  readonly #pool: RenderPool;
  readonly #drawing = new Map<string, Promise<KeptImage | undefined>>();
  readonly #failureListeners = new Set<(error: Error) => void>();
  readonly #stats: ImageStats = { built: 0, drawn: 0, cached: 0, joined: 0, failed: 0 };

  constructor(options: ImageRendererOptions) {
    this.#cache = new ByteLruCache(
      options.cacheBytes,
      (image) => image.png.length + 32 + 2 * (image.altText?.length ?? 0),
    );
    this.#pool = options.pool instanceof RenderPool ? options.pool : new RenderPool(options.pool);
  }

  /** The PNG of `job`, from the cache or drawn; undefined when it could not be drawn. */
  draw(job: RenderJob): Promise<DrawnPng | undefined> {
    return this.#obtain(imageKey(job), () => job);
  }

  /**
   * The image that shows `content`, from the cache without building anything, or built by `build` (its
   * SVG and alt text) and drawn; undefined when it could not be drawn. `build` must draw exactly what
   * `content` says: the key is made from `content` alone.
   */
  drawContent(content: ImageContent, build: () => ImageJob): Promise<DrawnImage | undefined> {
    // A content key is kept only with the alt text of its job (no SVG key is one): its image has one.
    return this.#obtain(contentKey(content), () => {
      this.#stats.built += 1;
      return build();
    }) as Promise<DrawnImage | undefined>;
  }

  #obtain(key: string, build: () => RenderJob & { altText?: string }): Promise<KeptImage | undefined> {
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
    const job = build();
    const drawing = this.#pool.run(job).then(
      (drawn) => {
        this.#stats.drawn += 1;
        const image: KeptImage = job.altText === undefined ? drawn : { ...drawn, altText: job.altText };
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

  get stats(): ImageStats & { cache: ByteLruCache<KeptImage>['stats']; pool: RenderPool['stats'] } {
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

/**
 * The cache key of what an image shows: a digest of {@link RENDERER_VERSION}, the theme, the kind and the
 * data. Another digest than {@link imageKey}'s (it starts with another text), so the two never meet.
 */
export function contentKey(content: ImageContent, theme: string = THEME): string {
  // In an array, so that any data (undefined too) is some text.
  const data = JSON.stringify([content.data], (name, value: unknown) => {
    if (typeof value === 'function')
      throw new TypeError(`${content.kind}: "${name}" is a function, not data`);
    // JSON writes NaN and the infinities as null: each keeps a text of its own.
    return typeof value === 'number' && !Number.isFinite(value) ? `${value}` : value;
  });
  return createHash('sha256')
    .update(`content\0${RENDERER_VERSION}\0`)
    .update(theme)
    .update('\0')
    .update(content.kind)
    .update('\0')
    .update(data)
    .digest('base64url');
}

/**
 * A card or chart of the process's renderer, kept by what it shows ({@link ImageRenderer.drawContent}):
 * `build` makes its SVG and alt text only when the cache does not have it, and it is drawn with the fonts
 * its text needs (`fontFiles`, else those of the SVG's text).
 */
export function chartImage(
  content: ImageContent,
  build: () => { svg: string; altText: string; fontFiles?: readonly string[] },
): Promise<DrawnImage | undefined> {
  return images().drawContent(content, () => {
    const { svg, altText, fontFiles } = build();
    return { svg, altText, fontFiles: fontFiles ?? fontFilesForSvg(svg) };
  });
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
