import { z } from 'zod';
import { MAX_TURF_DAY } from '../api/turf-days.ts';

/**
 * What the announcement subsystem keeps in the store. Every stored value is plain JSON and is read back
 * through these schemas, so that a value written by an older version, or damaged, is skipped rather than
 * trusted.
 */

const YEAR_MS = 365.25 * 86_400_000;
/**
 * How far from now an instant from upstream may be (checked where it enters, `sources.ts`); stored values
 * keep a fixed bound of their own (years 1900 to 2300), so that nothing read back can make `Date` throw.
 */
export const MAX_TIME_DISTANCE_MS = 100 * YEAR_MS;
export const EARLIEST_TIME_MS = Date.UTC(1900, 0, 1);
export const LATEST_TIME_MS = Date.UTC(2300, 0, 1);

/** An instant (epoch ms) inside the range a stored value may hold. */
export const TimeSchema = z.number().min(EARLIEST_TIME_MS).max(LATEST_TIME_MS);
/** An id from upstream: a finite, non-negative, safe integer. */
export const UpstreamIdSchema = z.number().int().nonnegative();
const TurfDaySchema = z.number().int().min(0).max(MAX_TURF_DAY);

/** Whether an instant from upstream is within a century of now. */
export function isSaneTime(at: number, now: number): boolean {
  return Number.isFinite(at) && Math.abs(at - now) <= MAX_TIME_DISTANCE_MS;
}

/** Whether a value from upstream is an id ({@link UpstreamIdSchema}). */
export function isUpstreamId(value: unknown): value is number {
  return UpstreamIdSchema.safeParse(value).success;
}

/**
 * Why a subscription stopped: the Discord error that disabled it, named; or, for `kpd` subscriptions,
 * `kpdKey`: the guild's linked KPD key stopped working (src/features/kpd/feed.ts); or, for `clan-log` ones,
 * `clanNotFound`: the clan's roster answered 404 (deleted; src/features/clans/log/source.ts).
 */
export const DISABLE_REASONS = [
  'unknownChannel',
  'missingAccess',
  'missingPermissions',
  'kpdKey',
  'clanNotFound',
] as const;
export type DisableReason = (typeof DISABLE_REASONS)[number];

/** Discord error codes that mean "this target will fail again": disable it on the first one. */
export const DEAD_TARGET_CODES: Readonly<Record<number, DisableReason>> = {
  10003: 'unknownChannel',
  50001: 'missingAccess',
  50013: 'missingPermissions',
};

const SubscriptionStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('active') }),
  z.object({
    status: z.literal('disabled'),
    reason: z.enum(DISABLE_REASONS),
    code: z.number().int(),
    at: z.number(),
  }),
]);
export type SubscriptionState = z.output<typeof SubscriptionStateSchema>;

/** Values a kind keeps about a subscription (a role id, a clan): flat and JSON-safe. */
export const SubscriptionOptionsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type SubscriptionOptions = z.output<typeof SubscriptionOptionsSchema>;

export const SubscriptionSchema = z.object({
  id: z.string().min(1),
  guildId: z.string().min(1),
  channelId: z.string().min(1),
  /** The name of its kind (`kinds/`), which is also its `/subscribe` subcommand. */
  kind: z.string().min(1),
  options: SubscriptionOptionsSchema,
  /** The guild's language when it subscribed; the guild's current one is preferred when known. */
  locale: z.string(),
  createdBy: z.string(),
  createdAt: z.number(),
  /**
   * Events that happened before this time are never announced to it: "from now on" for a subscription is
   * the moment it was made (or re-enabled by subscribing again).
   */
  since: z.number(),
  state: SubscriptionStateSchema,
  /**
   * Its place among the server's subscriptions (`0..MAX_SUBSCRIPTIONS_PER_GUILD - 1`) and its uniqueness
   * key, both claimed atomically in the store when it was made (`SubscriptionRepository.add`). Absent on
   * subscriptions made before they existed.
   */
  slot: z.number().int().nonnegative().optional(),
  identity: z.string().min(1).optional(),
});
export type Subscription = z.output<typeof SubscriptionSchema>;

/**
 * One thing to announce, whatever its source: an event of the game's feed (`e:<id>`), or one the bot
 * derived itself (a turf map changing owner, a clan's daily earnings). `key` is unique across sources and
 * stable: the same happening always gets the same key, which is what de-duplicates it.
 */
export const AnnouncementEventSchema = z.object({
  key: z.string().min(1).max(120),
  source: z.string().min(1),
  type: z.string().min(1),
  /** When it happened (epoch ms). */
  at: TimeSchema,
  data: z.record(z.string(), z.unknown()),
});
export type AnnouncementEvent = z.output<typeof AnnouncementEventSchema>;

export const PendingSchema = z.object({
  event: AnnouncementEventSchema,
  /**
   * Passes that ended with a delivery still failing for one of its targets (a 5xx, the network, or the
   * announcement failing to render): at `maxPasses` the event is set aside (`InboxRepository.quarantine`).
   */
  attempts: z.number().int().nonnegative(),
});
export type Pending = z.output<typeof PendingSchema>;

/**
 * `unconfirmed`: a send was attempted but not recorded (the store failed), and Discord's nonce window has
 * passed since: it is not sent again, so a duplicate cannot happen (at most once).
 */
export const DeliverySchema = z.object({
  outcome: z.enum(['sent', 'edited', 'skipped', 'disabled', 'failed', 'unconfirmed']),
  messageId: z.string().optional(),
  at: z.number(),
});
export type Delivery = z.output<typeof DeliverySchema>;

/** A send about to go out (written before it, see `delivery.ts`): when the nonce was first used. */
export const IntentSchema = z.object({ at: z.number() });
export type Intent = z.output<typeof IntentSchema>;

/** An event set aside after failing to be delivered `maxPasses` times. */
export const QuarantineSchema = z.object({
  event: z.unknown(),
  reason: z.string(),
  at: z.number(),
});
export type Quarantine = z.output<typeof QuarantineSchema>;

/** A posted announcement a later event may edit (the featured map's message, edited when unfeatured). */
export const AnnouncementRefSchema = z.object({
  messageId: z.string(),
  channelId: z.string(),
  eventKey: z.string(),
  at: z.number(),
});
export type AnnouncementRef = z.output<typeof AnnouncementRefSchema>;

export const CursorSchema = z.object({ after: z.number().int().nonnegative(), at: z.number() });
export type Cursor = z.output<typeof CursorSchema>;

/** The game's event feed (`GET /api/events` and the webhook); turf changes come from `turf`. */
export const EVENTS_SOURCE = 'events';
export const TURF_SOURCE = 'turf';

export const TURF_OWNER_EVENT = 'turf.owner';
export const TURF_DAILY_EVENT = 'turf.daily';

const TurfOwnerSchema = z.object({ clanId: UpstreamIdSchema, clanName: z.string() }).nullable();
export type TurfOwner = z.output<typeof TurfOwnerSchema>;

export const TurfStateSchema = z.object({
  /** Goes up by one with every stored change; derived event keys include it, so that they are stable. */
  version: z.number().int().nonnegative(),
  day: TurfDaySchema.optional(),
  owners: z.record(z.string(), TurfOwnerSchema),
});
export type TurfState = z.output<typeof TurfStateSchema>;

export const TurfOwnerChangeSchema = z.object({
  mapId: UpstreamIdSchema,
  day: TurfDaySchema.optional(),
  previous: TurfOwnerSchema,
  current: TurfOwnerSchema,
});
export type TurfOwnerChange = z.output<typeof TurfOwnerChangeSchema>;

export const TurfDailySchema = z.object({
  day: TurfDaySchema,
  clanId: UpstreamIdSchema,
  clanName: z.string(),
  kr: z.number(),
});
export type TurfDaily = z.output<typeof TurfDailySchema>;
