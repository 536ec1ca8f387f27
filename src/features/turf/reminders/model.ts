import { z } from 'zod';
import { numberOption } from '../../../announcements/kinds/kind.ts';
import type { Subscription } from '../../../announcements/model.ts';
import { TurfDaySchema } from '../digest/model.ts';
import { turfDayDate } from '../../../api/turf-days.ts';

/**
 * Turf reminders: `/remind turf` makes a subscription of the kind `remind` (clan, minutes before the UTC
 * turf day ends, a role to ping) in places of their own after `/subscribe`'s and `/track`'s; the reminders'
 * source stores one event per reminder and turf day when its minute comes; the outbox posts it.
 */
export const REMIND_KIND = 'remind';
export const REMINDERS_SOURCE = 'reminders';
export const TURF_REMINDER_EVENT = 'turf.reminder';

/** A server's reminders, at most. */
export const MAX_REMINDERS = 25;
/** Reminders take the places from here (`/subscribe` has 0..24, `/track` 1,000 on). */
export const REMIND_FIRST_SLOT = 2_000;
/** Minutes before the day ends, bounded: at least 5, at most 12 hours. */
export const BEFORE_MIN = 5;
export const BEFORE_MAX = 720;
/** A reminder posted later than this after its minute says when it was due. */
export const LATE_AFTER_MS = 2 * 60_000;
/** Rows of a full turf board (the spec's 100): a clan missing from a shorter one has no points there. */
export const TURF_BOARD_ROWS = 100;
/** Turf maps a reminder lists, at most (the game has three). */
export const MAX_MAPS = 10;

const NAME_MAX = 64;
const name = z.string().max(NAME_MAX);
const amount = z.number().min(0).max(1e12);
const place = z.number().int().min(1).max(1e6);
const time = z.number().int().min(0).max(8.64e15);

export const MapStandingSchema = z.object({
  mapId: z.number().int().nonnegative(),
  /** Who holds the map: null nobody; absent: unknown (the reply did not say). */
  owner: name.nullable().optional(),
  owned: z.boolean(),
  /** The clan's place on the map today; null: not among the rows read (`rows` of them). */
  position: place.nullable().optional(),
  points: amount.optional(),
  rows: z.number().int().min(0).max(1e4).optional(),
  leader: z.object({ name, points: amount.optional(), own: z.boolean() }).optional(),
});
export type MapStanding = z.output<typeof MapStandingSchema>;

export const ReminderSchema = z.object({
  subscriptionId: z.string().min(1).max(32),
  day: TurfDaySchema,
  clanId: z.number().int().nonnegative(),
  clanName: name,
  /** The minute it was due, and when the standing was read. */
  dueAt: time,
  readAt: time,
  /** The clan's place today over every map; null: not among the board's rows (`rows` of them). */
  position: place.nullable().optional(),
  points: amount.optional(),
  rows: z.number().int().min(0).max(1e4).optional(),
  maps: z.array(MapStandingSchema).max(MAX_MAPS),
});
export type Reminder = z.output<typeof ReminderSchema>;

/** One reminder per subscription and turf day. */
export function reminderKey(day: number, subscriptionId: string): string {
  return `remind:${day}:${subscriptionId}`;
}

/** The reminder's minutes before the day ends, when they are within bounds. */
export function beforeOf(subscription: Subscription): number | undefined {
  const before = numberOption(subscription, 'before');
  return before !== undefined && Number.isInteger(before) && before >= BEFORE_MIN && before <= BEFORE_MAX
    ? before
    : undefined;
}

/** When the reminder is due on `day`: `before` minutes before the day's UTC midnight. */
export function dueAtOf(subscription: Subscription, day: number): number | undefined {
  const before = beforeOf(subscription);
  return before === undefined ? undefined : turfDayDate(day + 1) - before * 60_000;
}

/** Whether the reminder existed at its minute of `day` (as the outbox counts: from its own second on). */
export function existedAt(subscription: Subscription, dueAt: number): boolean {
  return Math.floor(subscription.since / 1000) * 1000 <= dueAt;
}
