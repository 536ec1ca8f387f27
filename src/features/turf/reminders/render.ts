import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Translator } from '../../../i18n/index.ts';
import { field, fit, num, text, timestamp } from '../../../render/common.ts';
import { Colors, type ReplyPayload } from '../../../render/payload.ts';
import { DiscordLimits } from '../../../render/text.ts';
import { dayDate, mapLabel } from '../render.ts';
import { turfDayDate } from '../../../api/turf-days.ts';
import { LATE_AFTER_MS, TURF_BOARD_ROWS, type MapStanding, type Reminder } from './model.ts';
import type { ReminderRun } from './runs.ts';

/**
 * The reminder's post (the clan's standing on each turf map before the day ends) and the replies of
 * `/remind`. Clan names are the game's text, escaped; the only mention is the reminder's own role, in the
 * content, which the post's allowed mentions name alone.
 */
const NAME_MAX = 64;

/** A Discord short time (`<t:…:t>`, e.g. 23:00 in the reader's zone and format). */
function shortTime(ms: number): string {
  return `<t:${Math.floor(ms / 1000)}:t>`;
}

function mapStandingLine(t: Translator, map: MapStanding): string {
  const leader = map.leader;
  if (!leader) return t.t('remind:post.nobodyYet');
  const leaderName = text(leader.name, NAME_MAX);
  const leaderPoints = num(t, leader.points);
  if (leader.own) return t.t('remind:post.leading', { count: leader.points ?? 0, points: leaderPoints });
  if (map.position === null) {
    // Missing from a full board: somewhere below it; from a shorter one (every clan with points): none.
    return (map.rows ?? 0) >= TURF_BOARD_ROWS
      ? t.t('remind:post.outside', { rows: num(t, map.rows), leader: leaderName, points: leaderPoints })
      : t.t('remind:post.noPoints', { leader: leaderName, points: leaderPoints });
  }
  if (map.position === undefined || map.points === undefined) return t.t('remind:post.unknown');
  const behind = leader.points === undefined ? undefined : Math.max(0, leader.points - map.points);
  return t.t('remind:post.behind', {
    count: map.points,
    position: num(t, map.position),
    points: num(t, map.points),
    behind: num(t, behind),
    leader: leaderName,
  });
}

function ownerLine(t: Translator, map: MapStanding): string | undefined {
  if (map.owned) return t.t('remind:post.heldByYou');
  if (map.owner === null) return t.t('remind:post.heldByNobody');
  if (map.owner === undefined) return undefined;
  return t.t('remind:post.heldBy', { clan: text(map.owner, NAME_MAX) });
}

function mapField(t: Translator, map: MapStanding): APIEmbedField {
  const lines = [ownerLine(t, map), mapStandingLine(t, map)].filter((line) => line !== undefined);
  const name = `${map.owned ? '👑 ' : ''}${mapLabel(t, map.mapId)}`;
  return field(name, lines.join('\n'), true);
}

function overallLine(t: Translator, reminder: Reminder): string | undefined {
  if (reminder.position === null)
    return t.t(
      (reminder.rows ?? 0) >= TURF_BOARD_ROWS ? 'remind:post.overallOutside' : 'remind:post.overallNone',
    );
  if (reminder.position === undefined) return undefined;
  return t.t('remind:post.overall', {
    count: reminder.points ?? 0,
    position: num(t, reminder.position),
    points: num(t, reminder.points),
  });
}

/** The reminder, in the server's language; `roleId` is pinged above the embed. */
export function renderReminder(t: Translator, reminder: Reminder, roleId: string | undefined): ReplyPayload {
  const end = turfDayDate(reminder.day + 1);
  const lines = [
    t.t('remind:post.ends', { end: timestamp(end, 'R'), time: shortTime(end) }),
    overallLine(t, reminder),
    reminder.readAt - reminder.dueAt > LATE_AFTER_MS
      ? t.t('remind:post.late', { due: shortTime(reminder.dueAt) })
      : undefined,
  ].filter((line) => line !== undefined);
  const embed: APIEmbed = {
    color: Colors.warning,
    title: t.t('remind:post.title', {
      clan: text(reminder.clanName, NAME_MAX),
      day: num(t, reminder.day),
      date: dayDate(t, reminder.day),
    }),
    description: lines.join('\n'),
    fields:
      reminder.maps.length === 0
        ? [field(t.t('remind:post.maps'), t.t('remind:post.noMaps'), false)]
        : reminder.maps.map((map) => mapField(t, map)),
    timestamp: new Date(reminder.readAt).toISOString(),
    footer: { text: t.t('remind:post.footer') },
  };
  return { content: roleId === undefined ? '' : `<@&${roleId}>`, embeds: [fit(embed)] };
}

export interface ReminderView {
  readonly id: string;
  readonly clanName: string;
  readonly before: number | undefined;
  readonly channelId: string;
  readonly roleId: string | undefined;
  readonly disabledReason?: string | undefined;
  readonly last?: ReminderRun | undefined;
}

function summary(t: Translator, view: ReminderView): string {
  return t.t('remind:list.line', {
    clan: text(view.clanName, NAME_MAX),
    before: num(t, view.before),
    channel: `<#${view.channelId}>`,
  });
}

/** `/remind turf`'s answer: what will be posted where, when, pinging whom. */
export function renderReminderSet(
  t: Translator,
  view: ReminderView,
  outcome: 'created' | 'updated',
  notes: readonly string[] = [],
): ReplyPayload {
  const lines = [
    t.t(`remind:set.${outcome}`, { id: view.id }),
    summary(t, view),
    view.roleId === undefined
      ? t.t('remind:list.noRole')
      : t.t('remind:list.role', { role: `<@&${view.roleId}>` }),
    ...notes,
  ];
  return {
    ephemeral: true,
    embeds: [fit({ color: Colors.success, title: t.t('remind:set.title'), description: lines.join('\n') })],
  };
}

function lastLine(t: Translator, last: ReminderRun | undefined): string {
  if (!last) return t.t('remind:list.never');
  const date = dayDate(t, last.day);
  return last.status === 'queued'
    ? t.t('remind:list.lastPosted', { when: timestamp(last.at, 'R'), date })
    : t.t('remind:list.lastMissed', { date });
}

/** `/remind list`: the server's reminders, with their last post and, for a stopped one, why. */
export function renderReminderList(t: Translator, views: readonly ReminderView[], max: number): ReplyPayload {
  const title = t.t('remind:list.title', { n: num(t, views.length), max: num(t, max) });
  if (views.length === 0) {
    return {
      ephemeral: true,
      embeds: [fit({ color: Colors.neutral, title, description: t.t('remind:list.none') })],
    };
  }
  const fields = views.slice(0, DiscordLimits.embedFields).map((view) => {
    const lines = [
      summary(t, view),
      view.roleId === undefined
        ? t.t('remind:list.noRole')
        : t.t('remind:list.role', { role: `<@&${view.roleId}>` }),
      view.disabledReason === undefined
        ? lastLine(t, view.last)
        : t.t('remind:list.disabled', {
            reason: t.t(`subscriptions:reasons.${view.disabledReason}`, {
              defaultValue: view.disabledReason,
            }),
          }),
    ];
    return field(`\`${view.id}\``, lines.join('\n'), false);
  });
  return {
    ephemeral: true,
    embeds: [fit({ color: Colors.info, title, fields, footer: { text: t.t('remind:list.footer') } })],
  };
}

/** `/remind remove`'s answer. */
export function renderReminderRemoved(
  t: Translator,
  view: Pick<ReminderView, 'id' | 'clanName'>,
): ReplyPayload {
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: Colors.neutral,
        description: t.t('remind:removed', { id: view.id, clan: text(view.clanName, NAME_MAX) }),
      }),
    ],
  };
}
