import { z } from 'zod';

/**
 * Building blocks for tolerant reply schemas.
 *
 * - `record(name, required, optional)`: an object that accepts unknown fields but drops them (only what
 *   is declared is returned and cached, so whatever else a reply carries costs nothing after the read);
 *   `required` fields must be valid (they identify the record: without them the reply is useless), every
 *   `optional` field that is missing or fails its type degrades to absent and is reported once per
 *   (record, field).
 * - `list(name, item)`: an array whose invalid items are dropped (and reported) rather than failing the
 *   whole reply; `null` reads as an empty list (the service sends `null` for some empty lists).
 * - `bigId`: an id that can exceed 2^53; the JSON reader keeps such integers as strings, and this keeps
 *   every id a digit string end to end.
 */

export type DegradeListener = (resource: string, field: string) => void;

class DegradeLog {
  readonly #seen = new Set<string>();
  #listener: DegradeListener = () => undefined;

  /** Install the function that logs a degraded field (the client wires it to its logger). */
  listen(listener: DegradeListener): void {
    this.#listener = listener;
  }

  report(resource: string, field: string): void {
    const key = `${resource}.${field}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#listener(resource, field);
  }

  /** Which (record.field) pairs degraded since start (or since `reset`). */
  seen(): readonly string[] {
    return [...this.#seen];
  }

  reset(): void {
    this.#seen.clear();
  }
}

export const degradations = new DegradeLog();

export const int = z.number().int();
export const nonNegativeInt = z.number().int().nonnegative();

/**
 * Numbers are range-checked where they enter: a value past these bounds is garbage (no KR price, sale
 * count or stat comes near them) and, in an optional field, degrades to absent like a value of the wrong
 * type, so that nothing downstream computes with 1e300. JSON's numbers are finite already (zod refuses
 * Infinity and NaN), but 1e308 parses.
 */
export const NumberBounds = {
  /** Any fractional value (K/D, score per kill, wear, a leaderboard value). */
  float: 1e15,
  /** KR prices and amounts, and counts (sales, listings, copies, wins, kills). */
  amount: 1e12,
  /** A ranked MMR, either sign. */
  mmr: 1e6,
} as const;

export const float = z.number().min(-NumberBounds.float).max(NumberBounds.float);
/** KR (a price, an average price, earnings): 0..1e12, fractions allowed (an average). */
export const kr = z.number().min(0).max(NumberBounds.amount);
/** A count (sales, listings, copies, wins, losses): a whole number of 0..1e12. */
export const count = z.number().int().min(0).max(NumberBounds.amount);
/** A ranked MMR: a whole number within ±1e6. */
export const mmr = z.number().int().min(-NumberBounds.mmr).max(NumberBounds.mmr);
export const str = z.string();
export const bool = z.boolean();

/** Digits-only string id; accepts a JSON number (safe range) or a digit string, always yields a string. */
export const bigId = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(String);

type Degraded<S extends z.ZodRawShape> = { [K in keyof S]: z.ZodCatch<z.ZodOptional<S[K]>> };

function degradeShape<S extends z.ZodRawShape>(name: string, shape: S): Degraded<S> {
  const out: Record<string, z.ZodType> = {};
  for (const [field, schema] of Object.entries(shape)) {
    // Only a present value can fail `optional(...)`, so reaching the catch means the field drifted.
    out[field] = z.optional(schema as z.ZodType).catch(() => {
      degradations.report(name, field);
      return undefined;
    });
  }
  return out as Degraded<S>;
}

/** A degraded field would otherwise stay in the output as a key holding `undefined`: make it absent. */
function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) {
    if (value[key] === undefined) Reflect.deleteProperty(value, key);
  }
  return value;
}

// The default is meant to be empty: a record given no optional fields has none.
// eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type
export function record<R extends z.ZodRawShape, O extends z.ZodRawShape = Record<never, never>>(
  name: string,
  required: R,
  optional?: O,
) {
  return z.object({ ...required, ...degradeShape(name, optional ?? ({} as O)) }).overwrite(dropUndefined);
}

/**
 * The most items one list of a reply keeps. The spec's lists are pages of 10 to 100 items (a lobby list
 * or an inventory runs to a few hundred); items past this are dropped unread and reported, so a reply
 * of 10,000 items costs no more than one of 2,000.
 */
export const MAX_LIST_ITEMS = 2_000;

/** An array that drops (and reports) the items that fail `item`, instead of failing the reply. */
export function list<T extends z.ZodType>(name: string, item: T): z.ZodType<z.output<T>[]> {
  return z
    .array(z.unknown())
    .nullable()
    .transform((items) => {
      const kept: z.output<T>[] = [];
      const all = items ?? [];
      if (all.length > MAX_LIST_ITEMS) degradations.report(name, `[${MAX_LIST_ITEMS}+]`);
      for (let i = 0; i < Math.min(all.length, MAX_LIST_ITEMS); i += 1) {
        const parsed = item.safeParse(all[i]);
        if (parsed.success) kept.push(parsed.data);
        else degradations.report(name, '[]');
      }
      return kept;
    });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object whose fields the bot does not read and the spec leaves open: only its being an object is
 * checked, and it is kept whole (for the CLI). The reply size and depth limits bound it.
 */
export const loose = z.looseObject({});
export const looseList = z
  .array(z.unknown())
  .nullable()
  .transform((items) => (items ?? []).filter(isPlainObject));
/** A reply whose body is unspecified beyond being an object or a list of objects (staff and studio reads). */
export const looseValue = z.union([loose, looseList]);
