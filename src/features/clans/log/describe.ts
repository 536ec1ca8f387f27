import type { Subscription } from '../../../announcements/model.ts';
import type { Translator } from '../../../i18n/index.ts';
import { duration, num, text, timestamp } from '../../../render/common.ts';
import { milestoneOf, wantsClanStats } from './model.ts';
import type { ClanLogStatus } from './plan.ts';

/** A clan-log subscription in `/subscribe`'s answer and `/subscriptions`: its clan and what it tells. */
export function describeClanLog(t: Translator, subscription: Subscription): string {
  const clanName = subscription.options['clanName'];
  const parts = [t.t('clanlog:describe.roster')];
  const milestone = milestoneOf(subscription);
  if (milestone !== undefined)
    parts.push(t.t('clanlog:describe.milestones', { milestone: num(t, milestone) }));
  if (wantsClanStats(subscription)) parts.push(t.t('clanlog:describe.clan'));
  return t.t('clanlog:describe.line', {
    clan: text(typeof clanName === 'string' ? clanName : '', 64),
    what: parts.join(', '),
  });
}

/** The interval really kept between the last two reads (or the one planned, before there are two). */
export function statusLine(t: Translator, status: ClanLogStatus): string {
  const planned = duration(t, status.plannedMs / 1000);
  if (status.readAt === undefined) return t.t('clanlog:status.notYet', { planned });
  if (status.keptMs === undefined)
    return t.t('clanlog:status.first', { planned, when: timestamp(status.readAt, 'R') });
  return t.t('clanlog:status.kept', {
    kept: duration(t, status.keptMs / 1000),
    planned,
    when: timestamp(status.readAt, 'R'),
  });
}
