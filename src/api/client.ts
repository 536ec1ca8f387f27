import type { Logger } from 'pino';
import { z } from 'zod';
import { authorize, type Authorization, type Credentials } from './auth.ts';
import { memoryBackend, ReplyCache, type CacheBackend } from './cache.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import {
  describeError,
  LocalRefusalError,
  RateLimitedError,
  ReplyTooLargeError,
  TimeoutError,
  UpstreamError,
} from './errors.ts';
import {
  RateLimiter,
  WaitRefusedError,
  windowFromHeaders,
  type BucketDefaults,
  type Priority,
  type QueueOptions,
} from '../traffic/rate-limit.ts';
import type { SharedLimits } from '../traffic/index.ts';
import { DEFAULT_MAX_JSON_DEPTH } from './json.ts';
import { latestStart, slotRefused, SlotRefusedError } from './slot.ts';
import { checkReply, readReplyInTurns } from './reply.ts';
import { ReplyObservers } from './observers.ts';
import { cacheKey, routeUrl } from './url.ts';
import { CallKeys, type MemoryPeek } from './call-keys.ts';
import { decideRetry, defaultRetryPolicy, type RetryPolicy, type RetryState } from './retry.ts';
import type { Host, ParamsOf, Refusable, ReplyOf, RouteDef } from './route.ts';
import { routes, type RouteName, type Routes } from './routes/index.ts';
import { degradations } from './schemas/tolerant.ts';
import type { UpstreamRecorder } from '../metrics/recorders.ts';
import {
  BodyTooLargeFailure,
  createPoolTransport,
  DEFAULT_MAX_BODY_BYTES,
  TransportFailure,
  type HttpResponse,
  type Transport,
} from './transport.ts';

export type { RouteName, Routes };

export interface CallOptions extends Credentials {
  /** Interactive calls (a user waits) go before background polling when both wait for a slot. */
  readonly priority?: Priority;
  /** Budget for the whole call, waits and retries included, in ms. Default: twice the route's timeout. */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal;
  /** Skip reading the cache; the reply still refreshes it. */
  readonly fresh?: boolean;
  /** Called for each request this call sends upstream (retries included), for callers with budgets. */
  readonly onAttempt?: () => void;
  /** A command's turn in the fair queue, and what it is told while waiting; `needMs`: see `slot.ts`. */
  readonly queue?: QueueOptions;
  readonly needMs?: number;
}

/** The keys a caller must give (routes without any take no parameters argument). */
type RequiredKeys<P> = string extends keyof P
  ? never
  : { [K in keyof P]-?: object extends Pick<P, K> ? never : K }[keyof P];

type MethodArgs<D extends RouteDef> = [RequiredKeys<ParamsOf<D>>] extends [never]
  ? [params?: ParamsOf<D>, options?: CallOptions]
  : [params: ParamsOf<D>, options?: CallOptions];

export type ResultOf<D extends RouteDef> = D extends { readonly soft: true }
  ? Refusable<ReplyOf<D>>
  : ReplyOf<D>;

export type GameApi = {
  readonly [N in RouteName]: (...args: MethodArgs<Routes[N]>) => Promise<ResultOf<Routes[N]>>;
};

export interface TierClientOptions {
  readonly urls: Readonly<Record<Host, string>>;
  readonly apiKey?: string | undefined;
  readonly apiKeyHeader?: string;
  readonly cache?: CacheBackend;
  readonly transport?: Transport;
  readonly clock?: Clock;
  readonly logger?: Pick<Logger, 'debug' | 'warn'>;
  /** Per-attempt time budget of routes that set none. */
  readonly defaultTimeoutMs?: number;
  /** The key's general window until a reply tells otherwise (observed: 60 a minute; background leaves 10). */
  readonly generalLimit?: BucketDefaults;
  readonly retryPolicy?: RetryPolicy;
  /** The largest reply body read, in bytes; a larger one fails the call unread. Default 4 MiB. */
  readonly maxReplyBytes?: number;
  /** The deepest JSON nesting read; a deeper reply fails the call. Default 64. */
  readonly maxReplyDepth?: number;
  /** Bytes of replies kept in process memory in front of the cache store. Default 64 MiB. */
  readonly memoryCacheBytes?: number;
  /** Every request takes a slot here too (`createSharedLimits`: Redis or memory); default: its own. */
  readonly sharedLimits?: SharedLimits;
  /** Told each request's route and status, and the windows of the process key that replies describe. */
  readonly metrics?: UpstreamRecorder;
}

const UNLIMITED: BucketDefaults = { limit: Number.POSITIVE_INFINITY, windowMs: 60_000 };

/**
 * The shared tier client: one pipeline for every route of `routes/`.
 *
 *   parameters checked → credentials chosen → cache (single flight) → rate-limit slot → HTTP with a
 *   time budget → reply read per host → schema → retry decision
 *
 * Each stage lives in its own module; this file only strings them together and derives one typed
 * method per route (`client.api.player({ name })`).
 */
export class TierClient {
  readonly api: GameApi;
  readonly #options: TierClientOptions;
  readonly #transport: Transport;
  readonly #clock: Clock;
  readonly #cache: ReplyCache;
  readonly #limiter: RateLimiter;
  /** The request limits this client counts in (`sharedLimits`); the events budget takes from them too. */
  readonly limits: SharedLimits;
  readonly #retryPolicy: RetryPolicy;
  readonly #generalLimit: BucketDefaults;
  /** Windows of routes that replies revealed to be their own (smaller than the general one). */
  readonly #ownWindows = new Map<string, BucketDefaults>();
  /** General limits learnt from replies, per bucket. */
  readonly #generalLimits = new Map<string, number>();
  readonly #observers: ReplyObservers;
  readonly #peekKeys = new CallKeys((route, params) => this.#url(route, params));
  #upstreamCalls = 0;

  constructor(options: TierClientOptions) {
    this.#options = options;
    this.#transport = options.transport ?? createPoolTransport();
    this.#clock = options.clock ?? systemClock;
    this.#retryPolicy = options.retryPolicy ?? defaultRetryPolicy;
    this.#generalLimit = options.generalLimit ?? { limit: 60, windowMs: 60_000, reserve: 10 };
    this.#limiter = new RateLimiter(this.#clock, options.sharedLimits);
    this.#observers = new ReplyObservers((route, error) =>
      options.logger?.warn({ route, err: describeError(error) }, 'a reply observer failed'),
    );
    this.limits = this.#limiter.shared;
    const logger = options.logger;
    const memoryBytes = options.memoryCacheBytes;
    this.#cache = new ReplyCache({
      backend: options.cache ?? memoryBackend(memoryBytes === undefined ? {} : { maxBytes: memoryBytes }),
      clock: this.#clock,
      ...(memoryBytes === undefined ? {} : { memoryBytes }),
      onRefreshError: (key, error) =>
        logger?.warn({ key, err: describeError(error) }, 'background refresh failed'),
      onStoreError: (operation, key, error) =>
        logger?.warn({ operation, key, err: describeError(error) }, 'cache store failed'),
    });
    if (logger)
      degradations.listen((resource, field) => logger.warn({ resource, field }, 'reply field degraded'));
    for (const [name, route] of Object.entries(routes) as Array<[string, RouteDef]>) {
      if (route.ownWindow) this.#ownWindows.set(name, route.ownWindow);
    }
    this.api = Object.fromEntries(
      Object.keys(routes).map((name) => [
        name,
        (params?: unknown, callOptions?: CallOptions) => this.call(name as RouteName, params, callOptions),
      ]),
    ) as unknown as GameApi;
  }

  /** Requests sent upstream since start (attempts, retries included). */
  get upstreamCalls(): number {
    return this.#upstreamCalls;
  }

  /** The route's fresh cached reply, if any, without a request (lets the bot answer without deferring). */
  async peek<N extends RouteName>(
    name: N,
    params: ParamsOf<Routes[N]>,
  ): Promise<ReplyOf<Routes[N]> | undefined> {
    const key = this.#peekKeys.keyOf(name, params);
    return key === undefined ? undefined : this.#cache.peek(key);
  }

  /** What {@link peek} answers, when this process's memory tells it at once (see `MemoryPeek`). */
  peekMemory<N extends RouteName>(name: N, params: ParamsOf<Routes[N]>): MemoryPeek<ReplyOf<Routes[N]>> {
    const key = this.#peekKeys.keyOf(name, params);
    return (key === undefined ? { value: undefined } : this.#cache.peekMemory(key)) as MemoryPeek<never>;
  }

  async call<N extends RouteName>(
    name: N,
    params: unknown,
    options: CallOptions = {},
  ): Promise<ResultOf<Routes[N]>> {
    const route: RouteDef = routes[name];
    const parsed = route.params.safeParse(params ?? {});
    if (!parsed.success) {
      throw new LocalRefusalError(
        `Invalid parameters: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`,
        'bad_parameter',
        [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(params)'))],
        name,
      );
    }
    const auth = authorize(route.tier, options, this.#authSettings(), this.#clock.now(), name);
    const url = this.#url(route, parsed.data);
    const fetchOnce = async () => {
      const value = await this.#fetch(name, route, url, auth, options);
      this.#observers.notify(name, value);
      return value;
    };
    if (!route.cache) return (await fetchOnce()) as ResultOf<Routes[N]>;
    const key = cacheKey(name, url);
    const hit = options.fresh
      ? await this.#cache.refresh(key, route.cache, fetchOnce)
      : await this.#cache.cached(key, route.cache, fetchOnce);
    return hit.value as ResultOf<Routes[N]>;
  }

  /**
   * Calls `listener` with each validated reply of the route that comes from upstream (not the cache):
   * how snapshots see every profile the bot reads. It runs before the caller gets the reply: it must not
   * wait, and what it throws is logged and dropped. Returns what removes it.
   */
  observe<N extends RouteName>(name: N, listener: (reply: ResultOf<Routes[N]>) => void): () => void {
    return this.#observers.add(name, listener as (reply: unknown) => void);
  }

  async close(): Promise<void> {
    this.#limiter.close();
    await this.#transport.close();
  }

  #authSettings() {
    return {
      defaultApiKey: this.#options.apiKey,
      apiKeyHeader: this.#options.apiKeyHeader ?? 'X-Developer-API-Key',
    };
  }

  #url(route: RouteDef, params: unknown): URL {
    return routeUrl(this.#options.urls[route.host], route, params);
  }

  async #fetch(
    name: string,
    route: RouteDef,
    url: URL,
    auth: Authorization,
    options: CallOptions,
  ): Promise<unknown> {
    const timeoutMs = route.timeoutMs ?? this.#options.defaultTimeoutMs ?? 8_000;
    const deadline = this.#clock.now() + (options.deadlineMs ?? timeoutMs * 2);
    const state: RetryState = { serverErrorRetried: false, rateLimitRetried: false };
    for (;;) {
      try {
        return await this.#attempt(name, route, url, auth, options, timeoutMs, deadline);
      } catch (error) {
        if (error instanceof SlotRefusedError) throw error;
        const decision = decideRetry(error, state, deadline - this.#clock.now(), this.#retryPolicy);
        if (!decision.retry) throw error;
        // After a 429 a queued command waits for the reset in the queue, where its reply says when it comes.
        const queued = error instanceof RateLimitedError && options.queue !== undefined;
        const waitMs = queued ? decision.waitMs - error.retryAfterMs : decision.waitMs;
        this.#options.logger?.debug({ route: name, waitMs, err: describeError(error) }, 'retrying');
        await this.#clock.sleep(waitMs, options.signal);
      }
    }
  }

  /** One request: a slot of the limiter, the request, its reply read and checked. */
  async #attempt(
    name: string,
    route: RouteDef,
    url: URL,
    auth: Authorization,
    options: CallOptions,
    timeoutMs: number,
    deadline: number,
  ): Promise<unknown> {
    const general = `${auth.identity}@${route.host}`;
    const own = this.#ownWindows.has(name) ? `${general}#${name}` : undefined;
    const latest = latestStart(deadline, timeoutMs, options);
    const release = await this.#acquire(name, route, general, own, options, latest);
    const started = this.#clock.now();
    let response: HttpResponse;
    try {
      response = await this.#send(name, url, auth, options, Math.min(timeoutMs, deadline - started));
    } finally {
      release();
    }
    this.#options.metrics?.upstream(name, response.status);
    this.#options.logger?.debug(
      { route: name, status: response.status, ms: this.#clock.now() - started },
      'upstream reply',
    );
    const described = this.#learnWindow(name, response, general, own);
    const seen = windowFromHeaders(response.headers);
    if (seen && route.tier === 'developer' && options.apiKey === undefined)
      this.#options.metrics?.budgetSeen(described === general ? 'general' : name, seen);
    let data: unknown;
    try {
      data = await readReplyInTurns(response, {
        host: route.host,
        tier: route.tier,
        route: name,
        nowMs: this.#clock.now(),
        maxDepth: this.#options.maxReplyDepth ?? DEFAULT_MAX_JSON_DEPTH,
      });
    } catch (error) {
      if (error instanceof RateLimitedError)
        this.#limiter.exhaust(described, this.#clock.now() + error.retryAfterMs);
      throw error;
    }
    return checkReply(route, name, data);
  }

  /** A slot in the key's general window, and the route's own if any, by `latestStart`; else refused. */
  async #acquire(
    name: string,
    route: RouteDef,
    general: string,
    own: string | undefined,
    options: CallOptions,
    latest: number,
  ): Promise<() => void> {
    const buckets = [
      { name: general, defaults: route.tier === 'developer' ? this.#generalLimit : UNLIMITED },
    ];
    const ownWindow = this.#ownWindows.get(name);
    if (own && ownWindow) buckets.push({ name: own, defaults: ownWindow });
    try {
      return await this.#limiter.acquire(buckets, options.priority ?? 'interactive', latest, options.queue);
    } catch (error) {
      if (error instanceof WaitRefusedError) throw slotRefused(error, name, options.queue !== undefined);
      throw error;
    }
  }

  /** The request itself, within `budget` ms; a failure to get a reply as the API's typed errors. */
  async #send(
    name: string,
    url: URL,
    auth: Authorization,
    options: CallOptions,
    budget: number,
  ): Promise<HttpResponse> {
    const timeout = AbortSignal.timeout(Math.max(1, budget));
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      this.#upstreamCalls += 1;
      options.onAttempt?.();
      return await this.#transport.send({
        url,
        headers: auth.headers,
        signal,
        maxBytes: this.#options.maxReplyBytes ?? DEFAULT_MAX_BODY_BYTES,
      });
    } catch (error) {
      this.#options.metrics?.upstream(name, error instanceof TransportFailure ? error.reason : 'network');
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof BodyTooLargeFailure) {
        throw new ReplyTooLargeError('bytes', error.limitBytes, name, { cause: error });
      }
      if (error instanceof TransportFailure && error.reason === 'aborted') {
        throw new TimeoutError(`No reply within ${budget} ms`, budget, name);
      }
      throw new UpstreamError('Could not reach the game API', undefined, name, { cause: error });
    }
  }

  /**
   * Applies a reply's `X-RateLimit-*` to the window it describes and returns that bucket: the route's
   * own window when it has one; else the key's general window, unless the reply shows a smaller limit
   * than the general one already learnt, which reveals a window of the route's own.
   */
  #learnWindow(name: string, response: HttpResponse, general: string, own: string | undefined): string {
    const seen = windowFromHeaders(response.headers);
    if (!seen) return own ?? general;
    if (own) {
      this.#limiter.update(own, seen);
      return own;
    }
    const generalLimit = this.#generalLimits.get(general);
    if (generalLimit !== undefined && seen.limit < generalLimit) {
      const window = { limit: seen.limit, windowMs: Math.max(1000, seen.resetAt - this.#clock.now()) };
      this.#ownWindows.set(name, window);
      const bucket = `${general}#${name}`;
      this.#limiter.define(bucket, window);
      this.#limiter.update(bucket, seen);
      return bucket;
    }
    this.#generalLimits.set(general, seen.limit);
    this.#limiter.update(general, seen);
    return general;
  }
}

export function createTierClient(options: TierClientOptions): TierClient {
  return new TierClient(options);
}
