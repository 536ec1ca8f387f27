import type { RouteDef } from './route.ts';

/** A route's URL on its host: path parameters encoded into the path, the rest into the query. */
export function routeUrl(base: string, route: RouteDef, params: unknown): URL {
  const values = (params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/\{(\w+)\}/g, (_, key: string) =>
    encodeURIComponent(wireValue(values[key])),
  );
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  for (const [key, wireName] of Object.entries(route.query ?? {})) {
    const value = values[key];
    if (value !== undefined && value !== null) url.searchParams.set(wireName, wireValue(value));
  }
  return url;
}

/** Parameter schemas hand over strings, numbers and booleans only (lists are joined already). */
function wireValue(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  throw new TypeError('a parameter schema produced a value that is not a string, number or boolean');
}

/** Where a route's reply is cached: its name, path and query. */
export function cacheKey(route: string, url: URL): string {
  return `${route}:${url.pathname}${url.search}`;
}
