import { z } from 'zod';
import { MAX_TURF_DAY } from '../../../api/turf-days.ts';

/**
 * The daily digest of a clan's turf day: what the digest source stores in the inbox (one event per clan
 * and day) and what each subscribed channel's post is drawn from. Everything here is read back through
 * these schemas, so a stored event that does not parse is skipped, never trusted.
 */
export const TURF_DIGEST_SOURCE = 'turf-digest';
export const TURF_DIGEST_EVENT = 'turf.digest';

/** The `/subscribe turf` options that turn the digest on, and its list of members who played nothing. */
export const DIGEST_OPTION = 'digest';
export const IDLE_OPTION = 'idle';

/** Contributors and payouts listed by name in a digest; the rest are counted. */
export const DIGEST_TOP = 10;
/** Names of members who played nothing kept in an event (the rest are counted). */
export const DIGEST_IDLE_NAMES = 60;
/** Longest name kept (the game's own limit is far below). */
export const NAME_MAX = 64;
/**
 * The digest waits this long after the UTC turf day ended (so that the game has settled its payouts),
 * then is made within one poll.
 */
export const DIGEST_DELAY_MS = 2 * 60_000;

const name = z.string().max(NAME_MAX);
const amount = z.number().min(0).max(1e12);
const count = z.number().int().min(0).max(1e12);
export const TurfDaySchema = z.number().int().min(0).max(MAX_TURF_DAY);

export const ContributorSchema = z.object({
  name,
  points: amount.optional(),
  kills: count.optional(),
  deaths: count.optional(),
});
export type Contributor = z.output<typeof ContributorSchema>;

export const PayoutSchema = z.object({ name, kr: amount.optional() });
export type Payout = z.output<typeof PayoutSchema>;

export const DigestSchema = z.object({
  clanId: z.number().int().nonnegative(),
  clanName: name,
  day: TurfDaySchema,
  /** The clan's place on the day's board of every map; null: not in its 100 rows. */
  position: z.number().int().min(1).max(1e6).nullable().optional(),
  points: amount.optional(),
  kr: amount.optional(),
  /** The best players of the day, points first (at most {@link DIGEST_TOP}). */
  contributors: z.array(ContributorSchema).max(DIGEST_TOP),
  /** Players with points that day, all of them. */
  played: count,
  payouts: z.array(PayoutSchema).max(DIGEST_TOP),
  paid: count,
  paidKr: amount,
  /** Roster members with no points that day: read only when a subscription asked for them. */
  idle: z
    .object({
      names: z.array(name).max(DIGEST_IDLE_NAMES),
      count,
      roster: count,
    })
    .optional(),
});
export type Digest = z.output<typeof DigestSchema>;

/** The event key: one digest per clan and turf day, whatever the number of channels. */
export function digestKey(day: number, clanId: number): string {
  return `turf-digest:${day}:${clanId}`;
}
