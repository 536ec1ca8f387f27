import { createHash } from 'node:crypto';
import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { NotFoundError } from '../api/errors.ts';
import { EventSchema } from '../api/schemas/index.ts';
import type { EventType } from '../api/params.ts';
import type { CommandContext, OptionSpec } from '../discord/command.ts';
import { UserError } from '../core/user-error.ts';
import type { Translator } from '../i18n/index.ts';
import {
  renderMapFeatured,
  renderMapUnfeatured,
  renderTurfDaily,
  renderTurfOwnerChange,
  type MapAnnouncement,
} from '../render/announcements.ts';
import { kpdKind } from '../kpd/kind.ts';
import { text } from '../render/common.ts';
import type { ReplyPayload } from '../render/payload.ts';
import {
  TurfDailySchema,
  TurfOwnerChangeSchema,
  type AnnouncementEvent,
  type AnnouncementRef,
  type Subscription,
  type SubscriptionOptions,
} from './model.ts';

/**
 * The registry of subscription kinds. A kind is one `/subscribe <kind>` subcommand: its options, the
 * feed (source) its events come from, which events concern a subscription, and what to post or edit
 * in Discord for each.
 *
 * To add a kind (as issue 5's `kpd` does, in `src/kpd/kind.ts`):
 *  1. write a `SubscriptionKind` and add it to `SUBSCRIPTION_KINDS` (its name is the subcommand);
 *  2. if its events come from a new feed, write a `Source` (`sources.ts` defines the interface; see
 *     `src/kpd/feed.ts`) under the kind's `source` name and add it to the sources of
 *     `startAnnouncements` (`index.ts`). A source polls under its own lease and stores
 *     `AnnouncementEvent`s in the inbox; delivery, de-duplication, the nonce, dead channels and
 *     `/subscriptions` come for free;
 *  3. add `definition.options.<kind>` to every `locales/<locale>/subscribe.json`, and
 *     `kinds.<kind>` and `subscribed.<kind>` to every `subscriptions.json` (and `reasons.<reason>` for a
 *     disable reason of its own, added to `DISABLE_REASONS` in `model.ts`).
 */

/** What one event does in one subscribed channel. */
export type DeliveryPlan =
  | {
      readonly action: 'post';
      readonly payload: ReplyPayload;
      /** Roles the message may ping: allowed mentions name exactly these, nothing else. */
      readonly pingRoles?: readonly string[];
      /** Remember the message under this name, so that a later event can edit it. */
      readonly remember?: string;
    }
  | {
      readonly action: 'edit';
      /** The name an earlier `post` remembered; nothing happens when there is none. */
      readonly ref: string;
      render(earlier: AnnouncementRef): ReplyPayload;
      /** Forget the message once edited (no later event edits it again). */
      readonly forget?: boolean;
    };

export interface ReadOptionsResult {
  readonly options: SubscriptionOptions;
  /** Localized warnings for the confirmation (e.g. a role the bot cannot ping). */
  readonly notes?: readonly string[];
}

export interface SubscriptionKind {
  /** Stored in subscriptions and used as the `/subscribe` subcommand name. */
  readonly name: string;
  /** The source (`sources.ts`) whose polling produces this kind's events. */
  readonly source: string;
  /** For the `events` source: the event types this kind needs from `GET /api/events`. */
  readonly eventTypes?: readonly EventType[];
  /** Whether it needs the bot's developer API key (refused at `/subscribe` without one). */
  readonly needsApiKey: boolean;
  /** The subcommand's options after `channel` (canonical names; words in `subscribe.json`). */
  readonly options: readonly OptionSpec[];
  /**
   * The stored options that choose which events a subscription gets (a clan), as opposed to how they look
   * (a role to ping): a channel has at most one subscription per kind and values of these.
   */
  readonly filters?: readonly string[];
  /** Reads and checks the subcommand's options; throws `UserError` to refuse. May call the game API. */
  readOptions(
    ctx: CommandContext,
    botPermissions: Readonly<{ has(flag: bigint): boolean }>,
  ): Promise<ReadOptionsResult>;
  /** Its options as one line of safe text for `/subscriptions` (empty when there are none). */
  describe(t: Translator, subscription: Subscription): string;
  /** Whether the event concerns this subscription at all. */
  accepts(event: AnnouncementEvent, subscription: Subscription): boolean;
  /** What to do in Discord for the event, in the guild's language; undefined: nothing. */
  plan(event: AnnouncementEvent, subscription: Subscription, t: Translator): DeliveryPlan | undefined;
}

/** The event feed's source name; turf changes come from `turf`. */
export const EVENTS_SOURCE = 'events';
export const TURF_SOURCE = 'turf';

export const TURF_OWNER_EVENT = 'turf.owner';
export const TURF_DAILY_EVENT = 'turf.daily';

function stringOption(subscription: Subscription, name: string): string | undefined {
  const value = subscription.options[name];
  return typeof value === 'string' ? value : undefined;
}

function numberOption(subscription: Subscription, name: string): number | undefined {
  const value = subscription.options[name];
  return typeof value === 'number' ? value : undefined;
}

/** The map an events-feed event is about, read tolerantly. */
function mapOf(event: AnnouncementEvent): MapAnnouncement | undefined {
  const parsed = EventSchema.safeParse(event.data);
  if (!parsed.success) return undefined;
  const { data, target } = parsed.data;
  const mapId = data?.map_id ?? (target?.type === 'map' ? target.id : undefined);
  return { mapId, mapName: data?.map_name, creator: data?.creator, featuredAt: event.at };
}

const mapsKind: SubscriptionKind = {
  name: 'maps',
  source: EVENTS_SOURCE,
  eventTypes: ['map.featured', 'map.unfeatured'],
  needsApiKey: true,
  options: [{ type: ApplicationCommandOptionType.Role, name: 'role' }],

  async readOptions(ctx, botPermissions) {
    const role = ctx.interaction.options.getRole('role');
    if (!role) return Promise.resolve({ options: {} });
    if (role.id === ctx.interaction.guildId) throw new UserError('subscribe:errors.everyoneRole');
    const notes =
      role.mentionable || botPermissions.has(PermissionFlagsBits.MentionEveryone)
        ? []
        : [ctx.t.t('subscribe:notes.roleNotMentionable', { role: `<@&${role.id}>` })];
    return Promise.resolve({ options: { roleId: role.id }, notes });
  },

  describe(t, subscription) {
    const roleId = stringOption(subscription, 'roleId');
    return roleId === undefined
      ? t.t('subscriptions:details.noRole')
      : t.t('subscriptions:details.role', { role: `<@&${roleId}>` });
  },

  accepts(event) {
    return (
      event.source === EVENTS_SOURCE && (event.type === 'map.featured' || event.type === 'map.unfeatured')
    );
  },

  plan(event, subscription, t) {
    const map = mapOf(event);
    if (map?.mapId === undefined) return undefined;
    const ref = `map:${map.mapId}`;
    if (event.type === 'map.featured') {
      const roleId = stringOption(subscription, 'roleId');
      return {
        action: 'post',
        payload: renderMapFeatured(t, map, roleId),
        ...(roleId === undefined ? {} : { pingRoles: [roleId] }),
        remember: ref,
      };
    }
    return {
      action: 'edit',
      ref,
      render: (earlier) => renderMapUnfeatured(t, { ...map, featuredAt: earlier.at }, event.at),
      forget: true,
    };
  },
};

const turfKind: SubscriptionKind = {
  name: 'turf',
  source: TURF_SOURCE,
  needsApiKey: false,
  filters: ['clanId'],
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'clan',
      min_length: 1,
      max_length: 64,
      autocomplete: true,
    },
  ],

  async readOptions(ctx) {
    const asked = ctx.interaction.options.getString('clan')?.trim();
    if (!asked) return { options: {} };
    try {
      const clan = await ctx.load('clanByName', { clanName: asked });
      ctx.services.names.remember('clan', clan.name);
      return { options: { clanId: clan.clan_id, clanName: clan.name } };
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new UserError('subscribe:errors.clanNotFound', { name: text(asked, 64) });
      throw error;
    }
  },

  describe(t, subscription) {
    const clanName = stringOption(subscription, 'clanName');
    return clanName === undefined
      ? t.t('subscriptions:details.allTurf')
      : t.t('subscriptions:details.clan', { clan: text(clanName, 64) });
  },

  accepts(event, subscription) {
    if (event.source !== TURF_SOURCE) return false;
    const clanId = numberOption(subscription, 'clanId');
    if (event.type === TURF_OWNER_EVENT) {
      if (clanId === undefined) return true;
      const change = TurfOwnerChangeSchema.safeParse(event.data);
      return (
        change.success && (change.data.previous?.clanId === clanId || change.data.current?.clanId === clanId)
      );
    }
    if (event.type === TURF_DAILY_EVENT) {
      const daily = TurfDailySchema.safeParse(event.data);
      return clanId !== undefined && daily.success && daily.data.clanId === clanId;
    }
    return false;
  },

  plan(event, subscription, t) {
    const clanId = numberOption(subscription, 'clanId');
    const clanName = stringOption(subscription, 'clanName');
    const clan = clanId === undefined ? undefined : { clanId, clanName: clanName ?? String(clanId) };
    if (event.type === TURF_OWNER_EVENT) {
      const change = TurfOwnerChangeSchema.safeParse(event.data);
      if (!change.success) return undefined;
      return { action: 'post', payload: renderTurfOwnerChange(t, { ...change.data, at: event.at, clan }) };
    }
    if (event.type === TURF_DAILY_EVENT) {
      const daily = TurfDailySchema.safeParse(event.data);
      if (!daily.success) return undefined;
      const { clanId: id, clanName: name, day, kr } = daily.data;
      return {
        action: 'post',
        payload: renderTurfDaily(t, { clan: { clanId: id, clanName: name }, day, kr }),
      };
    }
    return undefined;
  },
};

export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = [mapsKind, turfKind, kpdKind];

export function kindNamed(name: string): SubscriptionKind | undefined {
  return SUBSCRIPTION_KINDS.find((kind) => kind.name === name);
}

/**
 * What makes a subscription one of a kind in its server: its channel, its kind and the values of the
 * kind's filters (hashed, so that it stays short whatever they hold).
 */
export function subscriptionIdentity(
  channelId: string,
  kind: SubscriptionKind,
  options: SubscriptionOptions,
): string {
  const filters = [...(kind.filters ?? [])].sort().map((name) => [name, options[name] ?? null]);
  const hash = createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);
  return `${channelId}:${kind.name}:${hash}`;
}

/** The event types the events feed must ask for, for these subscriptions: one sorted list, one cursor. */
export function eventTypesFor(subscriptions: readonly Subscription[]): EventType[] {
  const types = new Set<EventType>();
  for (const subscription of subscriptions) {
    const kind = kindNamed(subscription.kind);
    if (kind?.source === EVENTS_SOURCE) for (const type of kind.eventTypes ?? []) types.add(type);
  }
  return [...types].sort();
}

/** Whether some subscription would announce the event (only such events are stored). */
export function isWanted(event: AnnouncementEvent, subscriptions: readonly Subscription[]): boolean {
  return subscriptions.some((subscription) => targets(event, subscription));
}

/** Whether the event is for this subscription: its kind accepts it and it happened after the subscription. */
export function targets(event: AnnouncementEvent, subscription: Subscription): boolean {
  // Event times have whole seconds: an event of the subscription's own second counts as "from now on".
  const since = Math.floor(subscription.since / 1000) * 1000;
  if (subscription.state.status !== 'active' || event.at < since) return false;
  return kindNamed(subscription.kind)?.accepts(event, subscription) === true;
}
