import type { AnnouncementKind } from '../../../announcements/kinds/kind.ts';
import type { Subscription } from '../../../announcements/model.ts';
import { isEmptyChange } from './diff.ts';
import {
  CLAN_LOG_EVENT,
  CLAN_LOG_KIND,
  CLAN_LOG_SOURCE,
  ClanLogEventSchema,
  MILESTONES,
  clanOf,
  milestoneOf,
  wantsClanStats,
  type ClanLogEvent,
  type RosterChange,
} from './model.ts';
import { renderClanLog } from './render.ts';

/** What of a read's changes this subscription announces (its `events` and `milestone` choices). */
export function changeFor(change: RosterChange, subscription: Subscription): RosterChange {
  const milestone = milestoneOf(subscription);
  const stats = wantsClanStats(subscription);
  const { memberCount, rank, more, ...roster } = change;
  // Milestones left out of the event are counted only where every milestone is announced (their sizes are
  // not kept).
  const kept = Object.entries(more ?? {}).filter(
    ([key]) => key !== 'milestones' || milestone === MILESTONES[0],
  );
  return {
    ...roster,
    milestones: milestone === undefined ? [] : change.milestones.filter((m) => m.milestone >= milestone),
    ...(stats && memberCount ? { memberCount } : {}),
    ...(stats && rank ? { rank } : {}),
    ...(kept.length > 0 ? { more: Object.fromEntries(kept) } : {}),
  };
}

/** The event's data, when it is a clan log event of the subscription's clan made after its baseline. */
function eventFor(data: unknown, subscription: Subscription): ClanLogEvent | undefined {
  const parsed = ClanLogEventSchema.safeParse(data);
  if (!parsed.success || clanOf(subscription)?.clanId !== parsed.data.clanId) return undefined;
  // A read compared with a roster read before the subscription existed is its baseline: nothing to tell.
  return parsed.data.fromAt >= subscription.since ? parsed.data : undefined;
}

/**
 * `/subscribe clan-log clan [events] [milestone]`: a clan's members joining, leaving, renamed, promoted or
 * demoted and its owner changing, optionally its members' score milestones and its own rank and member
 * count, one message per read of its roster (`source.ts`).
 */
export const clanLogKind: AnnouncementKind = {
  name: CLAN_LOG_KIND,
  source: CLAN_LOG_SOURCE,
  needsApiKey: false,
  filters: ['clanId'],

  accepts(event, subscription) {
    if (event.source !== CLAN_LOG_SOURCE || event.type !== CLAN_LOG_EVENT) return false;
    const data = eventFor(event.data, subscription);
    return data !== undefined && !isEmptyChange(changeFor(data.change, subscription));
  },

  plan(event, subscription, t) {
    const data = eventFor(event.data, subscription);
    if (!data) return undefined;
    const change = changeFor(data.change, subscription);
    if (isEmptyChange(change)) return undefined;
    return { action: 'post', payload: renderClanLog(t, { clanName: data.clanName, change, at: event.at }) };
  },
};
