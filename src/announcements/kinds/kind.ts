import { createHash } from 'node:crypto';
import type { EventType } from '../../api/params.ts';
import type { PastTimes } from '../../render/common.ts';
import type { Translator } from '../../i18n/index.ts';
import type { ReplyPayload } from '../../render/payload.ts';
import type { AnnouncementEvent, AnnouncementRef, Subscription, SubscriptionOptions } from '../model.ts';

/**
 * A subscription kind, as delivery sees it: the feed (source) its events come from, which events concern
 * a subscription, and what to post or edit in Discord for each. Its command half (the `/subscribe <kind>`
 * options and their description in `/subscriptions`) lives beside the command, in `commands/subscribe/`.
 *
 * To add a kind (as `kpd.ts` does):
 *  1. write an `AnnouncementKind` in this folder and add it to `ANNOUNCEMENT_KINDS` (`index.ts`); its name
 *     is the subcommand;
 *  2. write its command half in `commands/subscribe/` and add it to `SUBSCRIBE_KINDS` there;
 *  3. if its events come from a new feed, write a `Source` (`../sources.ts` defines the interface; see
 *     `src/features/kpd/feed.ts`) under the kind's `source` name and hand it to `startPipeline` in
 *     `src/worker.ts` (and in `src/bot.ts`, the shard's in-process pipeline). A source polls under the
 *     worker lease and offers `AnnouncementEvent`s to the inbox; delivery, de-duplication, the nonce, dead
 *     channels and `/subscriptions` come for free;
 *  4. add `definition.options.<kind>` to every `locales/<locale>/subscribe.json`, and
 *     `kinds.<kind>` and `subscribed.<kind>` to every `subscriptions.json` (and `reasons.<reason>` for a
 *     disable reason of its own, added to `DISABLE_REASONS` in `model.ts`).
 */
export interface AnnouncementKind {
  /** Stored in subscriptions and used as the `/subscribe` subcommand name. */
  readonly name: string;
  /** The source (`sources.ts`) whose polling produces this kind's events. */
  readonly source: string;
  /** For the `events` source: the event types this kind needs from `GET /api/events`. */
  readonly eventTypes?: readonly EventType[];
  /** Whether it needs the bot's developer API key (refused at `/subscribe` without one). */
  readonly needsApiKey: boolean;
  /**
   * The stored options that choose which events a subscription gets (a clan), as opposed to how they look
   * (a role to ping): a channel has at most one subscription per kind and values of these.
   */
  readonly filters?: readonly string[];
  /** Whether the event concerns this subscription at all. */
  accepts(event: AnnouncementEvent, subscription: Subscription): boolean;
  /**
   * What to do in Discord for the event, in the guild's language; undefined: nothing. `past` clamps the
   * times of past events the game sent dated in the future (shown as now, logged once).
   */
  plan(
    event: AnnouncementEvent,
    subscription: Subscription,
    t: Translator,
    past?: PastTimes,
  ): DeliveryPlan | undefined;
}

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

/**
 * What makes a subscription one of a kind in its server: its channel, its kind and the values of the
 * kind's filters (hashed, so that it stays short whatever they hold).
 */
export function subscriptionIdentity(
  channelId: string,
  kind: Pick<AnnouncementKind, 'name' | 'filters'>,
  options: SubscriptionOptions,
): string {
  const filters = [...(kind.filters ?? [])].sort().map((name) => [name, options[name] ?? null]);
  const hash = createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);
  return `${channelId}:${kind.name}:${hash}`;
}

/** A string option of a subscription, if it holds one. */
export function stringOption(subscription: Subscription, name: string): string | undefined {
  const value = subscription.options[name];
  return typeof value === 'string' ? value : undefined;
}

/** A number option of a subscription, if it holds one. */
export function numberOption(subscription: Subscription, name: string): number | undefined {
  const value = subscription.options[name];
  return typeof value === 'number' ? value : undefined;
}
