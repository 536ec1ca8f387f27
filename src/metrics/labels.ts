import type { UpstreamFailure } from './recorders.ts';

/**
 * Keeps a label's values to a bounded set. Callers pass names from our own tables (commands, routes,
 * sources), so the set is small; this is the guard against a mistake that would pass anything else (a
 * player's name, an id): past `max` distinct values, or for a value that is not a plain short name,
 * the label reads `other`, and the number of series stays bounded whatever happens.
 */
export const OTHER = 'other';

/** Names as our tables spell them: letters, digits, `_ - . : /`, at most 64 characters. */
const PLAIN = /^[A-Za-z0-9_\-.:/]{1,64}$/;

export class BoundedLabel {
  readonly #seen = new Set<string>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** `value` when it is a plain name and the set has room for it (or holds it already); else `other`. */
  pick(value: string): string {
    if (this.#seen.has(value)) return value;
    if (!PLAIN.test(value) || this.#seen.size >= this.#max) return OTHER;
    this.#seen.add(value);
    return value;
  }
}

/** An HTTP status as a label: the code when it is one (100–599), else `other`; a failure by its name. */
export function statusLabel(status: number | UpstreamFailure): string {
  if (typeof status === 'string') return status;
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : OTHER;
}
