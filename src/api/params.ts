import { z } from 'zod';

// Parameter rules of the spec (section 4.1 and the game/token tiers). Every route's params schema is an
// object built with `params(...)`: unknown keys are refused (a misspelt key is a bug, not a filter), and
// its transform joins list values with commas and drops absent ones, so the client only ever sees
// string | number | boolean values.

const nonNegative = z.number().int().nonnegative();

/** Player, clan, map and mod names (and other free-text path segments). */
export const name = z.string().trim().min(1).max(100);

/** Digits only, and kept a string: match ids exceed 2^53. A number is refused, not converted. */
export const matchId = z.string().regex(/^\d{1,20}$/, 'a match id is a string of digits');

/** Numeric ids of the game and token tiers (clan, player, map, team, post, studio, lottery). */
export const id = nonNegative;

export const region = nonNegative;
/** Omitted or 0: the current season. */
export const season = nonNegative.optional();
/** A season that is a path segment, hence required. */
export const pathSeason = nonNegative;
/** 1-based. */
export const page = z.number().int().min(1).optional();
export const days = z.number().int().min(1).max(120).optional();
export const skinIndex = nonNegative;

/** Map leaderboard `type`. */
export const leaderboardType = z.enum(['score', 'time']);
/** Map leaderboard `order`: 0 ascending (lower is better), 1 descending. */
export const leaderboardOrder = z.union([z.literal(0), z.literal(1)]);

export const eventTypes = ['map.featured', 'map.unfeatured'] as const;
export const eventType = z.enum(eventTypes);
export type EventType = z.output<typeof eventType>;

/** Events cursor (`next` of the previous page). */
export const after = nonNegative.optional();
/** Sent comma-joined. */
export const types = z.array(eventType).min(1).optional();
export const targetType = z.string().trim().min(1).optional();
/** Sent comma-joined; needs `targetType` (see `eventsParams`). */
export const targetId = z.array(nonNegative).min(1).max(100).optional();
export const limit = z.number().int().min(1).max(100).optional();

/** 0-based offsets: `offset`, the KPD demo queue's `off`, the legacy browsers' `index` and `pos`. */
export const offset = nonNegative.optional();
export const cursor = z.string().min(1).optional();
export const sort = z.string().trim().min(1).optional();
export const text = z.string().trim().min(1).max(100).optional();
export const flag = z.boolean().optional();
/** A turf day: whole UTC days since 2026-03-17. */
export const turfDay = nonNegative.optional();
export const mapIdFilter = nonNegative.optional();
/** The game's host name, added to every matchmaker call. */
export const hostname = z.string().trim().min(1);
/** The mode index of a match or lobby. */
export const gameMode = nonNegative.optional();
/** `/leaderboards/{board}`: a board name that cannot reach the sibling routes sharing that prefix. */
export const board = name
  .regex(/^[a-z0-9_-]+$/i, 'a board name is letters, digits, _ and -')
  .refine(
    (value) => !['player_clan', 'raids', 'krunkcup'].includes(value),
    'this board has a route of its own',
  );
export const perPage = z.number().int().min(1).max(100).optional();

type WireValue = string | number | boolean;
type Joined<V> = V extends readonly unknown[] ? string : V;
export type WireParams<T> = { [K in keyof T]: Joined<T[K]> };

function toWire<T extends Record<string, unknown>>(value: T): WireParams<T> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    out[key] = Array.isArray(item) ? item.join(',') : item;
  }
  return out as WireParams<T>;
}

/** A route's params: a strict object whose list values are sent comma-joined. */
export function params<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject(shape).transform(toWire);
}

export const noParams = params({});

/** `GET /api/events`: `target_id` is only allowed together with `target_type`. */
export const eventsParams = z
  .strictObject({ after, types, targetType, targetId, limit })
  .superRefine((value, ctx) => {
    if (value.targetId !== undefined && value.targetType === undefined) {
      ctx.addIssue({ code: 'custom', path: ['targetId'], message: 'targetId needs targetType' });
    }
  })
  .transform(toWire);

/**
 * The keys a params schema accepts (the object under its transform). The route table's test and the
 * client use it to tell path parameters from query parameters.
 */
export function paramKeys(schema: z.ZodType): string[] {
  let current: z.core.$ZodType = schema;
  while (current instanceof z.ZodPipe) current = current.in;
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

/** What a params schema's output holds: every value ready for a path segment or a query string. */
export type ParamValues = Readonly<Record<string, WireValue | undefined>>;
