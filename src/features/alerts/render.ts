import type { APIEmbed } from 'discord.js';
import type { Translator } from '../../i18n/index.ts';
import { field, fit, num, pageRow, text, timestamp, type Pager } from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { crossed } from './crossing.ts';

/**
 * `/alert` replies and the alert's own message. Skin names come from the game: escaped here. Nothing in
 * these is a mention (a DM, or a channel chosen by a manager: the alert is news, not a ping).
 */
const NAME_MAX = 60;
const MAX_LIST_LINES = 25;
/** Alerts on one page of a server's list (`/alert list server`). */
export const SERVER_ALERTS_PER_PAGE = 10;

export interface AlertView {
  readonly id: string;
  readonly skinName: string;
  readonly skinIndex: number;
  readonly direction: 'below' | 'above';
  readonly threshold: number;
  /** Undefined: the user's DMs. */
  readonly channelId: string | undefined;
  readonly status: 'armed' | 'pending' | 'fired' | 'disabled';
  /** Its owner (named in a manager's list and when a manager removes it). */
  readonly userId?: string | undefined;
  readonly disabledReason?: string | undefined;
  readonly firedAt?: number | undefined;
  readonly firedPrice?: number | undefined;
}

function kr(t: Translator, value: number): string {
  return t.t('alert:kr', { value: num(t, value) });
}

function where(t: Translator, channelId: string | undefined): string {
  return channelId === undefined ? t.t('alert:dm') : `<#${channelId}>`;
}

function condition(t: Translator, view: Pick<AlertView, 'direction' | 'threshold'>): string {
  return t.t(`alert:conditions.${view.direction}`, { price: kr(t, view.threshold) });
}

function skin(view: Pick<AlertView, 'skinName'>): string {
  return text(view.skinName, NAME_MAX);
}

export function renderAlertAdded(
  t: Translator,
  view: AlertView,
  current: number | undefined,
  /** The count it took a place in: the user's DM alerts, or the server's channel alerts. */
  limits: { readonly used: number; readonly max: number; readonly of: 'user' | 'server' },
): ReplyPayload {
  // The price may already be on the alert's side: say so, and that it fires at the next checks.
  const already =
    current !== undefined && Number.isFinite(current) && crossed(view.direction, view.threshold, current);
  const embed: APIEmbed = {
    color: Colors.success,
    title: t.t('alert:added.title'),
    description: t.t('alert:added.description', {
      skin: skin(view),
      condition: condition(t, view),
      where: where(t, view.channelId),
      id: view.id,
    }),
    fields: [
      field(t.t('alert:added.current'), current === undefined ? t.t('alert:noPrice') : kr(t, current)),
      field(
        t.t(limits.of === 'user' ? 'alert:added.yours' : 'alert:added.server'),
        t.t('alert:count', { used: t.n(limits.used), max: t.n(limits.max) }),
      ),
      ...(already
        ? [
            field(
              t.t('alert:added.alreadyTitle'),
              t.t(`alert:added.already.${view.direction}`, {
                price: kr(t, current),
                threshold: kr(t, view.threshold),
              }),
              false,
            ),
          ]
        : []),
    ],
  };
  return { embeds: [fit(embed)], ephemeral: true };
}

function statusOf(t: Translator, view: AlertView): string {
  if (view.status === 'disabled') return `⚠️ ${t.t(`alert:reasons.${view.disabledReason ?? 'failed'}`)}`;
  if (view.status === 'pending') return t.t('alert:list.pending');
  if (view.status === 'fired' && view.firedAt !== undefined)
    return t.t('alert:list.fired', {
      when: timestamp(view.firedAt, 'R'),
      price: view.firedPrice === undefined ? '—' : kr(t, view.firedPrice),
    });
  return t.t('alert:list.armed');
}

function line(t: Translator, view: AlertView): string {
  return `\`${view.id}\` **${skin(view)}** ${condition(t, view)} → ${where(t, view.channelId)} · ${statusOf(t, view)}`;
}

/**
 * A user's own alerts. `used` of `user`: their DM alerts, which count toward their own limit only;
 * `guildUsed` of `guild`: the server's channel alerts.
 */
export function renderAlertList(
  t: Translator,
  views: readonly AlertView[],
  limits: {
    readonly user: number;
    readonly used: number;
    readonly guild: number;
    readonly guildUsed: number;
  },
): ReplyPayload {
  const lines = views.slice(0, MAX_LIST_LINES).map((view) => line(t, view));
  const embed: APIEmbed = {
    color: Colors.info,
    title: t.t('alert:list.title', { used: t.n(limits.used), max: t.n(limits.user) }),
    description: lines.length === 0 ? t.t('alert:list.none') : lines.join('\n'),
    footer: {
      text: t.t('alert:list.footer', { used: t.n(limits.guildUsed), max: t.n(limits.guild) }),
    },
  };
  return { embeds: [fit(embed)], ephemeral: true };
}

export interface ServerAlertsView {
  /** This page's alerts, at most {@link SERVER_ALERTS_PER_PAGE}. */
  readonly alerts: readonly AlertView[];
  /** Every alert made in the server. */
  readonly total: number;
  readonly page: number;
  readonly pager: Pager;
  /** The server's channel alerts, of its limit. */
  readonly guildUsed: number;
  readonly guild: number;
  /** The limit of each user's DM alerts. */
  readonly user: number;
}

/** Every alert made in the server, with its owner: what a manager lists (and may remove). */
export function renderServerAlerts(t: Translator, view: ServerAlertsView): ReplyPayload {
  const totalPages = Math.max(1, Math.ceil(view.total / SERVER_ALERTS_PER_PAGE));
  const lines = view.alerts
    .slice(0, SERVER_ALERTS_PER_PAGE)
    .map((alert) =>
      alert.userId === undefined
        ? line(t, alert)
        : `${line(t, alert)} · ${t.t('alert:list.owner', { user: `<@${alert.userId}>` })}`,
    );
  const embed: APIEmbed = {
    color: Colors.info,
    title: t.t('alert:list.serverTitle', { used: t.n(view.total) }),
    description: lines.length === 0 ? t.t('alert:list.serverNone') : lines.join('\n'),
    footer: {
      text: t.t('alert:list.serverFooter', {
        used: t.n(view.guildUsed),
        max: t.n(view.guild),
        user: t.n(view.user),
      }),
    },
  };
  const row =
    totalPages > 1
      ? pageRow(t, { pager: view.pager, page: view.page, totalPages, hasNext: view.page < totalPages })
      : undefined;
  return { embeds: [fit(embed)], ephemeral: true, components: row ? [row] : [] };
}

/** The alert is gone; `byOwner` false: a manager removed someone else's, who is named. */
export function renderAlertRemoved(t: Translator, view: AlertView, byOwner = true): ReplyPayload {
  const fields = { skin: skin(view), condition: condition(t, view), id: view.id };
  return {
    embeds: [
      fit({
        color: Colors.neutral,
        description:
          byOwner || view.userId === undefined
            ? t.t('alert:removed', fields)
            : t.t('alert:removedFor', { ...fields, owner: `<@${view.userId}>` }),
      }),
    ],
    ephemeral: true,
  };
}

/** The alert itself: the skin's price crossed the threshold. */
export function renderAlertFired(t: Translator, view: AlertView, price: number, at: number): ReplyPayload {
  const embed: APIEmbed = {
    color: view.direction === 'below' ? Colors.success : Colors.warning,
    title: t.t('alert:fired.title', { skin: skin(view) }),
    description: t.t(`alert:fired.${view.direction}`, {
      skin: skin(view),
      price: kr(t, price),
      threshold: kr(t, view.threshold),
    }),
    fields: [field(t.t('alert:fired.when'), timestamp(at, 'R'))],
    footer: { text: t.t('alert:fired.footer', { id: view.id, index: view.skinIndex }) },
  };
  return { embeds: [fit(embed)] };
}
