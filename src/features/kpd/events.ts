import { z } from 'zod';
import type { KpdCall } from '../../api/schemas/index.ts';
import { isSaneTime, isUpstreamId, type AnnouncementEvent } from '../../announcements/model.ts';
import { parseTime } from '../../core/time.ts';

/**
 * The events of the KPD feed (`feed.ts`) and what they carry, apart from the feed so that the
 * announcement kind (`src/features/kpd/kind.ts`) does not load the feed.
 */
export const KPD_SOURCE = 'kpd';
export const KPD_KIND = 'kpd';
export const KPD_NEW_CALL = 'kpd.call';
export const KPD_CALL_CHANGE = 'kpd.change';
/** The disable reason of a kpd subscription whose guild key no longer works. */
export const KPD_KEY_REASON = 'kpdKey';

const optionalInt = z.number().int().optional();
const optionalText = z.string().optional();

/** The fields of a call an announcement may show. */
export const AnnouncedCallSchema = z.object({
  id: z.number().int(),
  date: optionalText,
  caller_name: optionalText,
  caller_score: optionalInt,
  caller_job_rating: optionalInt,
  caller_job_rating_positive: optionalInt,
  called_id: optionalInt,
  called_name: optionalText,
  called_score: optionalInt,
  kdf_type: optionalInt,
  kdf_type_label: optionalText,
  status: optionalInt,
  status_label: optionalText,
  rating: optionalInt,
  rating_label: optionalText,
  officer_id: optionalInt,
  officer_name: optionalText,
  status_date: optionalText,
});
export type AnnouncedCall = z.output<typeof AnnouncedCallSchema>;

export const KpdEventDataSchema = z.object({
  guildId: z.string(),
  call: AnnouncedCallSchema,
  previous: z.object({ status: optionalInt, rating: optionalInt }).optional(),
});
export type KpdEventData = z.output<typeof KpdEventDataSchema>;

export function announcedCall(call: KpdCall): AnnouncedCall {
  const picked: Record<string, unknown> = {};
  for (const field of Object.keys(AnnouncedCallSchema.shape)) {
    const value = (call as Record<string, unknown>)[field];
    if (value !== undefined) picked[field] = value;
  }
  return AnnouncedCallSchema.parse(picked);
}

/** The seen status and verdict of each call, by call id. */
export type SeenCalls = Record<string, readonly [number | null, number | null]>;

/** A date from upstream, or `now` when it is missing, unreadable or more than a century away. */
function whenOf(value: string | undefined, now: number): number {
  const at = value ? parseTime(value) : Number.NaN;
  return isSaneTime(at, now) ? at : now;
}

/**
 * The events between what was seen and the calls now. A new call happened at its own date; a change
 * at its status date (so that "from now on" of a subscription applies to when things happened).
 */
export function diffCalls(
  guildId: string,
  seen: SeenCalls,
  calls: readonly KpdCall[],
  now: number,
): AnnouncementEvent[] {
  const events: AnnouncementEvent[] = [];
  for (const call of calls) {
    // A call with an impossible id cannot be told apart from others: never announced.
    if (!isUpstreamId(call.id)) continue;
    const status = call.status ?? null;
    const rating = call.rating ?? null;
    const before = seen[String(call.id)];
    if (before === undefined) {
      events.push({
        key: `kpd:${guildId}:${call.id}:new`,
        source: KPD_SOURCE,
        type: KPD_NEW_CALL,
        at: whenOf(call.date, now),
        data: { guildId, call: announcedCall(call) },
      });
    } else if (before[0] !== status || before[1] !== rating) {
      events.push({
        key: `kpd:${guildId}:${call.id}:${status ?? '-'}:${rating ?? '-'}`,
        source: KPD_SOURCE,
        type: KPD_CALL_CHANGE,
        at: whenOf(call.status_date, now),
        data: {
          guildId,
          call: announcedCall(call),
          previous: {
            ...(before[0] === null ? {} : { status: before[0] }),
            ...(before[1] === null ? {} : { rating: before[1] }),
          },
        },
      });
    }
  }
  return events.sort((a, b) => a.at - b.at);
}
