import type { Loader } from './command.ts';

/**
 * Runs tier calls one after another until the interaction is deferred, then the rest together: two
 * loads racing while the interaction is still fresh would both try to defer it.
 */
export async function gather<T extends readonly unknown[]>(
  loader: { readonly responder: Pick<Loader['responder'], 'deferred' | 'answered'> },
  calls: { readonly [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  const results: unknown[] = [];
  const pending = [...calls] as Array<() => Promise<unknown>>;
  while (pending.length > 0 && !loader.responder.deferred && !loader.responder.answered) {
    const next = pending.shift();
    if (next) results.push(await next());
  }
  results.push(...(await Promise.all(pending.map((call) => call()))));
  return results as unknown as T;
}
