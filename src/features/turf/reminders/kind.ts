import { stringOption, type AnnouncementKind } from '../../../announcements/kinds/kind.ts';
import { REMIND_KIND, REMINDERS_SOURCE, ReminderSchema, TURF_REMINDER_EVENT } from './model.ts';
import { renderReminder } from './render.ts';

/**
 * `/remind turf`: a reminder is a subscription of its own kind; each of its events (one a turf day, made by
 * the reminders' source) is for it alone. The post pings its role and nothing else: the allowed mentions
 * name exactly that role (none without one), whatever the text holds.
 */
export const remindKind: AnnouncementKind = {
  name: REMIND_KIND,
  source: REMINDERS_SOURCE,
  needsApiKey: false,
  filters: ['clanId', 'before'],

  accepts(event, subscription) {
    return event.type === TURF_REMINDER_EVENT && event.data['subscriptionId'] === subscription.id;
  },

  plan(event, subscription, t) {
    const reminder = ReminderSchema.safeParse(event.data);
    if (!reminder.success) return undefined;
    const roleId = stringOption(subscription, 'roleId');
    return {
      action: 'post',
      payload: renderReminder(t, reminder.data, roleId),
      pingRoles: roleId === undefined ? [] : [roleId],
    };
  },
};
