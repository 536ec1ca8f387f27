import type { RouteDef } from './route.ts';
import { routes, type RouteName } from './routes/index.ts';
import { cacheKey } from './url.ts';

/**
 * What the process memory tells of a cached reply, without the cache store: `{ value }` (no value: no
 * fresh reply), or undefined when only the store can tell. A reply known there needs no wait bounded.
 */
export type MemoryPeek<T> = { readonly value: T | undefined } | undefined;

/** Keys kept at most; past that they are forgotten all at once (and made again as they are asked for). */
const KEPT = 2_000;

/**
 * The cache key of a call from its parameters as given: checked by the route's schema, then built into
 * the URL the reply is cached under; undefined when the route is not cached or refuses them. Commands
 * peek at the same few calls over and over, so the key of parameters made of plain values is kept:
 * checking them and building the URL again would give the same key.
 */
export class CallKeys {
  readonly #kept = new Map<string, string>();
  readonly #url: (route: RouteDef, params: unknown) => URL;

  constructor(url: (route: RouteDef, params: unknown) => URL) {
    this.#url = url;
  }

  keyOf(name: RouteName, params: unknown): string | undefined {
    const route: RouteDef = routes[name];
    if (!route.cache) return undefined;
    const plain = plainParamsKey(name, params);
    const known = plain === undefined ? undefined : this.#kept.get(plain);
    if (known !== undefined) return known;
    const parsed = route.params.safeParse(params);
    if (!parsed.success) return undefined;
    const key = cacheKey(name, this.#url(route, parsed.data));
    if (plain !== undefined) {
      if (this.#kept.size >= KEPT) this.#kept.clear();
      this.#kept.set(plain, key);
    }
    return key;
  }
}

/**
 * The route and its parameters as one string, when every parameter is a string, a boolean or a finite
 * number: two calls with the same string are checked and built alike. Anything else (a list, a value
 * left undefined, which a strict schema may refuse where it accepts the key's absence) has none, and is
 * checked each time.
 */
function plainParamsKey(name: string, params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || Object.getPrototypeOf(params) !== Object.prototype)
    return undefined;
  for (const value of Object.values(params)) {
    const plain =
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value));
    if (!plain) return undefined;
  }
  return `${name} ${JSON.stringify(params)}`;
}
