import type { APIEmbed } from 'discord.js';
import type { Translator } from '../i18n/index.ts';
import { field, fit, timestamp } from '../render/common.ts';
import { Colors, type ReplyPayload } from '../render/payload.ts';
import { DiscordLimits, truncate } from '../render/text.ts';

/** Replies of /subscribe, /subscriptions and /unsubscribe: what a server's channels announce, and their state. */
export interface SubscriptionView {
  readonly id: string;
  readonly kind: string;
  readonly channelId: string;
  /** The kind's own options as safe text (a role mention, a clan name...), or empty. */
  readonly details: string;
  readonly createdAt: number;
  readonly state:
    | { readonly status: 'active' }
    | { readonly status: 'disabled'; readonly reason: string; readonly code: number; readonly at: number };
}

export function kindLabel(t: Translator, kind: string): string {
  return t.t(`subscriptions:kinds.${kind}`, { defaultValue: kind });
}

function stateLine(t: Translator, view: SubscriptionView): string {
  if (view.state.status === 'active') return `🟢 ${t.t('subscriptions:state.active')}`;
  return `🔴 ${t.t('subscriptions:state.disabled', {
    reason: t.t(`subscriptions:reasons.${view.state.reason}`, { defaultValue: String(view.state.code) }),
    since: timestamp(view.state.at, 'R'),
  })}`;
}

function subscriptionField(t: Translator, view: SubscriptionView) {
  const lines = [
    t.t('subscriptions:list.channel', { channel: `<#${view.channelId}>` }),
    ...(view.details === '' ? [] : [view.details]),
    stateLine(t, view),
  ];
  return field(`\`${view.id}\` · ${kindLabel(t, view.kind)}`, lines.join('\n'), false);
}

/** Every subscription of the server with its state; the reasons of disabled ones say what to fix. */
export function renderSubscriptionList(t: Translator, views: readonly SubscriptionView[]): ReplyPayload {
  if (views.length === 0) {
    return {
      ephemeral: true,
      embeds: [
        fit({
          color: Colors.neutral,
          title: t.t('subscriptions:list.title'),
          description: t.t('subscriptions:list.empty'),
        }),
      ],
    };
  }
  const disabled = views.filter((view) => view.state.status === 'disabled').length;
  const embed: APIEmbed = {
    color: disabled > 0 ? Colors.warning : Colors.success,
    title: t.t('subscriptions:list.title'),
    description: [
      t.t('subscriptions:list.count', {
        count: DiscordLimits.embedFields,
        n: t.n(views.length),
        max: t.n(DiscordLimits.embedFields),
      }),
      ...(disabled > 0 ? [t.t('subscriptions:list.disabledHint')] : []),
    ].join('\n'),
    fields: views.slice(0, DiscordLimits.embedFields).map((view) => subscriptionField(t, view)),
    footer: { text: t.t('subscriptions:list.footer') },
  };
  return { ephemeral: true, embeds: [fit(embed)] };
}

/** The answer to /subscribe: what the channel will announce, and notes (e.g. a role that cannot be pinged). */
export function renderSubscribed(
  t: Translator,
  view: SubscriptionView,
  outcome: 'created' | 'updated',
  notes: readonly string[] = [],
): ReplyPayload {
  const embed: APIEmbed = {
    color: Colors.success,
    title: t.t(`subscriptions:subscribed.${outcome}Title`),
    description: truncate(
      [
        t.t(`subscriptions:subscribed.${view.kind}`, {
          channel: `<#${view.channelId}>`,
          defaultValue: t.t('subscriptions:subscribed.generic', {
            channel: `<#${view.channelId}>`,
            kind: kindLabel(t, view.kind),
          }),
        }),
        ...(view.details === '' ? [] : [view.details]),
        ...notes.map((note) => `⚠️ ${note}`),
      ].join('\n'),
      DiscordLimits.embedDescription,
    ),
    fields: [field(t.t('subscriptions:subscribed.id'), `\`${view.id}\``)],
    footer: { text: t.t('subscriptions:subscribed.footer', { id: view.id }) },
  };
  return { ephemeral: true, embeds: [fit(embed)] };
}

/** The answer to /unsubscribe. */
export function renderUnsubscribed(t: Translator, view: SubscriptionView): ReplyPayload {
  return {
    ephemeral: true,
    embeds: [
      fit({
        color: Colors.neutral,
        title: t.t('subscriptions:unsubscribed.title'),
        description: t.t('subscriptions:unsubscribed.description', {
          id: view.id,
          kind: kindLabel(t, view.kind),
          channel: `<#${view.channelId}>`,
        }),
      }),
    ],
  };
}
