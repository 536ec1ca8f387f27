import { z } from 'zod';

/**
 * What the announcement subsystem keeps in the store. Every stored value is plain JSON and is read back
 * through these schemas, so that a value written by an older version, or damaged, is skipped rather than
 * trusted.
 */

/**
 * Why a subscription stopped: the Discord error that disabled it, named; or, for `kpd` subscriptions,
 * `kpdKey`: the guild's linked KPD key stopped working (src/kpd/feed.ts).
 */
export const DISABLE_REASONS = ['unknownChannel', 'missingAccess', 'missingPermissions', 'kpdKey'] as const;
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
  /** The name of its kind in the registry (`kinds.ts`), which is also its `/subscribe` subcommand. */
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
  at: z.number(),
  data: z.record(z.string(), z.unknown()),
});
export type AnnouncementEvent = z.output<typeof AnnouncementEventSchema>;

export const PendingSchema = z.object({
  event: AnnouncementEventSchema,
  /** Passes that ended with a delivery still failing (5xx, network) for one of its targets. */
  attempts: z.number().int().nonnegative(),
});
export type Pending = z.output<typeof PendingSchema>;

export const DeliverySchema = z.object({
  outcome: z.enum(['sent', 'edited', 'skipped', 'disabled', 'failed']),
  messageId: z.string().optional(),
  at: z.number(),
});
export type Delivery = z.output<typeof DeliverySchema>;

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

const TurfOwnerSchema = z.object({ clanId: z.number().int(), clanName: z.string() }).nullable();
export type TurfOwner = z.output<typeof TurfOwnerSchema>;

export const TurfStateSchema = z.object({
  /** Goes up by one with every stored change; derived event keys include it, so that they are stable. */
  version: z.number().int().nonnegative(),
  day: z.number().int().optional(),
  owners: z.record(z.string(), TurfOwnerSchema),
});
export type TurfState = z.output<typeof TurfStateSchema>;

export const TurfOwnerChangeSchema = z.object({
  mapId: z.number().int(),
  day: z.number().int().optional(),
  previous: TurfOwnerSchema,
  current: TurfOwnerSchema,
});
export type TurfOwnerChange = z.output<typeof TurfOwnerChangeSchema>;

export const TurfDailySchema = z.object({
  day: z.number().int(),
  clanId: z.number().int(),
  clanName: z.string(),
  kr: z.number(),
});
export type TurfDaily = z.output<typeof TurfDailySchema>;
