import type { Subscription } from '../../src/announcements/model.ts';
import type { SubscriptionView } from '../../src/announcements/render-subscriptions.ts';
import type { Translator } from '../../src/i18n/index.ts';
import type { SubscribeKind } from './kind.ts';
import { subscribeClanLog } from './clan-log.ts';
import { subscribeKpd } from './kpd.ts';
import { subscribeMaps } from './maps.ts';
import { subscribeTurf } from './turf.ts';

/**
 * The command halves of `ANNOUNCEMENT_KINDS`, in the same order: one `/subscribe` subcommand each. The one
 * file of this folder that other commands read (`/subscriptions`, `/unsubscribe` describe a subscription by
 * its kind); lint keeps them out of the rest.
 */
export const SUBSCRIBE_KINDS: readonly SubscribeKind[] = [
  subscribeMaps,
  subscribeTurf,
  subscribeKpd,
  subscribeClanLog,
];

export function subscribeKindNamed(name: string): SubscribeKind | undefined {
  return SUBSCRIBE_KINDS.find((entry) => entry.kind.name === name);
}

/** A subscription as `/subscribe`, `/subscriptions` and `/unsubscribe` show it, its options described by its kind. */
export function subscriptionView(
  t: Translator,
  subscription: Subscription,
  /** More lines of its kind (`SubscribeKind.status`). */
  status?: string,
): SubscriptionView {
  const details = subscribeKindNamed(subscription.kind)?.describe(t, subscription) ?? '';
  return {
    id: subscription.id,
    kind: subscription.kind,
    channelId: subscription.channelId,
    details: [details, status ?? ''].filter((line) => line !== '').join('\n'),
    createdAt: subscription.createdAt,
    state: subscription.state,
  };
}
