import { z } from 'zod';
import { TimeSchema, UpstreamIdSchema, type Subscription } from '../../../announcements/model.ts';

/**
 * The clan log's shapes: a clan's roster as the bot keeps it (what the next read is compared with), the
 * changes one read found (stored in the inbox as one event per clan and read), and the subscription's
 * choices. Everything stored is read back through these schemas, so that a damaged row is skipped rather
 * than trusted.
 */
export const CLAN_LOG_KIND = 'clan-log';
export const CLAN_LOG_SOURCE = 'clan-log';
export const CLAN_LOG_EVENT = 'clan.log';

/** What a subscription announces besides joins, leaves, roles and the owner (its `events` option). */
export const CLAN_LOG_EVENTS = ['roster', 'milestones', 'clan', 'all'] as const;
export type ClanLogEvents = (typeof CLAN_LOG_EVENTS)[number];

/** Member scores worth a post, lowest first; a subscription picks the lowest it announces. */
export const MILESTONES = [
  10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000,
  50_000_000, 100_000_000,
] as const;
/** The choices of the `milestone` option (the lowest milestone a channel hears of). */
export const MILESTONE_CHOICES = [10_000, 50_000, 100_000, 500_000, 1_000_000] as const;
export const DEFAULT_MILESTONE = 100_000;

/** The most names one list of one event keeps (the rest is counted): a read of a huge clan stays bounded. */
export const MAX_LISTED = 200;
/** Longer names than this are cut where they enter (a name is 3-20 characters in the game). */
export const MAX_NAME = 64;

const Name = z.string().min(1).max(MAX_NAME);
/** A role value as the game sends it: the names table names 0-3, any other reads "Unknown role N". */
const Role = z.number().int().min(0).max(1_000_000);
const Score = z.number().int().min(0).max(1e12);

export const RosterMemberSchema = z.object({ n: Name, r: Role.optional(), s: Score.optional() });
export type RosterMember = z.output<typeof RosterMemberSchema>;

export const RosterSchema = z.object({
  clanId: UpstreamIdSchema,
  name: z.string().max(MAX_NAME),
  owner: Name.optional(),
  score: Score.optional(),
  memberCount: z.number().int().min(0).max(1_000_000).optional(),
  /** The clan's place on the clan leaderboard, when it is on it and a subscription asked. */
  rank: z.number().int().min(1).max(1_000_000).optional(),
  members: z.array(RosterMemberSchema).max(2_000),
});
export type Roster = z.output<typeof RosterSchema>;

const RoleChange = z.object({ n: Name, from: Role, to: Role });
const Pair = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value });

/** What one read of a clan's roster found changed since the read before. */
export const RosterChangeSchema = z.object({
  joined: z.array(RosterMemberSchema).max(MAX_LISTED),
  left: z.array(RosterMemberSchema).max(MAX_LISTED),
  /** A leave and a join of one read with the same score (and role): probably one player renamed. */
  renamed: z.array(z.object({ from: Name, to: Name, s: Score })).max(MAX_LISTED),
  promoted: z.array(RoleChange).max(MAX_LISTED),
  demoted: z.array(RoleChange).max(MAX_LISTED),
  owner: Pair(Name.nullable()).optional(),
  /** The highest milestone each member passed (at least the lowest of {@link MILESTONES}). */
  milestones: z.array(z.object({ n: Name, milestone: Score, s: Score })).max(MAX_LISTED),
  memberCount: Pair(z.number().int().min(0)).optional(),
  rank: Pair(z.number().int().min(1)).optional(),
  /** How many of each list were left out past {@link MAX_LISTED}. */
  more: z.record(z.string(), z.number().int().min(0)).optional(),
});
export type RosterChange = z.output<typeof RosterChangeSchema>;

/** The event's data: the clan, when the roster compared with was read, and what changed. */
export const ClanLogEventSchema = z.object({
  clanId: UpstreamIdSchema,
  clanName: z.string().max(MAX_NAME),
  /** When the earlier roster was read: a subscription made after it gets this read as its baseline. */
  fromAt: TimeSchema,
  change: RosterChangeSchema,
});
export type ClanLogEvent = z.output<typeof ClanLogEventSchema>;

/** An `events` choice (roster only when unset or unknown). */
export function eventsChoice(value: unknown): ClanLogEvents {
  return CLAN_LOG_EVENTS.find((choice) => choice === value) ?? 'roster';
}

/** A subscription's `events` choice. */
export function eventsOf(subscription: Pick<Subscription, 'options'>): ClanLogEvents {
  return eventsChoice(subscription.options['events']);
}

/** The lowest milestone announced with this `events` choice and `milestone` option (none: not announced). */
export function milestoneFor(events: ClanLogEvents, value: unknown): number | undefined {
  if (events !== 'milestones' && events !== 'all') return undefined;
  return MILESTONE_CHOICES.find((choice) => choice === value) ?? DEFAULT_MILESTONE;
}

/** Whether the subscription announces member milestones, and from which one. */
export function milestoneOf(subscription: Subscription): number | undefined {
  return milestoneFor(eventsOf(subscription), subscription.options['milestone']);
}

/** Whether the subscription announces the clan's own rank and member count. */
export function wantsClanStats(subscription: Pick<Subscription, 'options'>): boolean {
  const events = eventsOf(subscription);
  return events === 'clan' || events === 'all';
}

/** The clan a clan-log subscription follows. */
export function clanOf(
  subscription: Pick<Subscription, 'options'>,
): { clanId: number; clanName: string } | undefined {
  const { clanId, clanName } = subscription.options;
  if (typeof clanId !== 'number' || !UpstreamIdSchema.safeParse(clanId).success) return undefined;
  return { clanId, clanName: typeof clanName === 'string' ? clanName : String(clanId) };
}
