import type { APIEmbed } from 'discord.js';
import type { Translator } from '../i18n/index.ts';
import { field, fit, num, text, timestamp } from './common.ts';
import { Colors, type ReplyPayload } from './payload.ts';

/**
 * `/alert` replies and the alert's own message. Skin names come from the game: escaped here. Nothing in
 * these is a mention (a DM, or a channel chosen by a manager: the alert is news, not a ping).
 */
const NAME_MAX = 60;
const MAX_LIST_LINES = 25;

export interface AlertView {
  readonly id: string;
  readonly skinName: string;
  readonly skinIndex: number;
  readonly direction: 'below' | 'above';
  readonly threshold: number;
  /** Undefined: the user's DMs. */
  readonly channelId: string | undefined;
  readonly status: 'armed' | 'fired' | 'disabled';
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
  limits: { readonly used: number; readonly max: number },
): ReplyPayload {
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
      field(t.t('alert:added.yours'), t.t('alert:count', { count: t.n(limits.used), max: t.n(limits.max) })),
    ],
  };
  return { embeds: [fit(embed)], ephemeral: true };
}

function statusOf(t: Translator, view: AlertView): string {
  if (view.status === 'disabled') return `⚠️ ${t.t(`alert:reasons.${view.disabledReason ?? 'failed'}`)}`;
  if (view.status === 'fired' && view.firedAt !== undefined)
    return t.t('alert:list.fired', {
      when: timestamp(view.firedAt, 'R'),
      price: view.firedPrice === undefined ? '—' : kr(t, view.firedPrice),
    });
  return t.t('alert:list.armed');
}

export function renderAlertList(
  t: Translator,
  views: readonly AlertView[],
  limits: { readonly user: number; readonly guild: number; readonly guildUsed: number },
): ReplyPayload {
  const shown = views.slice(0, MAX_LIST_LINES);
  const lines = shown.map(
    (view) =>
      `\`${view.id}\` **${skin(view)}** ${condition(t, view)} → ${where(t, view.channelId)} · ${statusOf(t, view)}`,
  );
  const embed: APIEmbed = {
    color: Colors.info,
    title: t.t('alert:list.title', { count: t.n(views.length), max: t.n(limits.user) }),
    description: lines.length === 0 ? t.t('alert:list.none') : lines.join('\n'),
    footer: {
      text: t.t('alert:list.footer', { count: t.n(limits.guildUsed), max: t.n(limits.guild) }),
    },
  };
  return { embeds: [fit(embed)], ephemeral: true };
}

export function renderAlertRemoved(t: Translator, view: AlertView): ReplyPayload {
  return {
    embeds: [
      fit({
        color: Colors.neutral,
        description: t.t('alert:removed', { skin: skin(view), condition: condition(t, view), id: view.id }),
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
