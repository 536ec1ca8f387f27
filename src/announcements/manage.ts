import {
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type Guild,
  type GuildBasedChannel,
} from 'discord.js';
import { UserError } from '../core/user-error.ts';
import type { Translator } from '../i18n/index.ts';
import { kindLabel } from './render-subscriptions.ts';
import type { Subscription } from './model.ts';
import type { SubscriptionRepository } from './records/subscriptions.ts';

/**
 * What the commands that manage announcements share (`/subscribe`, `/subscriptions`, `/unsubscribe`,
 * `/track`, and the channel checks of `/alert`): the scope of the commands, the check that the member
 * manages the server, the checks of the channel announcements go to, a new subscription, and the
 * autocomplete of a subscription id.
 */

/**
 * The scope of /subscribe, /subscriptions, /unsubscribe and /track: they exist in servers only, are offered
 * to members with Manage Server by default, and check that permission again when run (a server can change
 * who sees a command, not who may change its announcements).
 */
export const MANAGE_COMMAND_SCOPE = {
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
  default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
};

/** A server has at most this many subscriptions (they fit one /subscriptions embed). */
export const MAX_SUBSCRIPTIONS_PER_GUILD = 25;

/** What the bot needs in a channel to announce there, in the order they are checked and named. */
export const REQUIRED_CHANNEL_PERMISSIONS = [
  ['ViewChannel', PermissionFlagsBits.ViewChannel],
  ['SendMessages', PermissionFlagsBits.SendMessages],
  ['EmbedLinks', PermissionFlagsBits.EmbedLinks],
  ['AttachFiles', PermissionFlagsBits.AttachFiles],
] as const;

export const ANNOUNCEMENT_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

/** The server the command runs in, once the member is known to hold Manage Server there. */
export function requireManager(interaction: ChatInputCommandInteraction): Guild {
  if (!interaction.inCachedGuild()) throw new UserError('subscribe:errors.guildOnly');
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild)) {
    throw new UserError('subscribe:errors.manageGuild');
  }
  return interaction.guild;
}

/** The chosen channel as a channel of this server where announcements can go. */
export async function announcementChannel(id: string, guild: Guild): Promise<GuildBasedChannel> {
  const channel = guild.channels.cache.get(id) ?? (await guild.channels.fetch(id).catch(() => null));
  if (!channel || !(ANNOUNCEMENT_CHANNEL_TYPES as readonly ChannelType[]).includes(channel.type)) {
    throw new UserError('subscribe:errors.channelType');
  }
  return channel;
}

/** The bot's permissions in the channel; refuses, naming each missing one, when it cannot announce there. */
export async function checkBotPermissions(t: Translator, guild: Guild, channel: GuildBasedChannel) {
  const me = await guild.members.fetchMe();
  const permissions = channel.permissionsFor(me);
  const missing = REQUIRED_CHANNEL_PERMISSIONS.filter(([, flag]) => !permissions.has(flag, true));
  if (missing.length > 0) {
    throw new UserError('subscribe:errors.missingPermissions', {
      channel: `<#${channel.id}>`,
      permissions: missing.map(([name]) => t.t(`subscribe:permissions.${name}`)).join(', '),
    });
  }
  return permissions;
}

/** A new active subscription, as `/subscribe` and `/track add` store it: due from `now` on. */
export function newSubscription(
  guild: Guild,
  channelId: string,
  kind: string,
  options: Subscription['options'],
  createdBy: string,
  now: number,
): Omit<Subscription, 'id' | 'slot' | 'identity'> {
  return {
    guildId: guild.id,
    channelId,
    kind,
    options,
    locale: guild.preferredLocale,
    createdBy,
    createdAt: now,
    since: now,
    state: { status: 'active' },
  };
}

/** Where and what to subscribe, for {@link saveSubscription}. */
export interface SubscriptionRequest {
  readonly guild: Guild;
  readonly channelId: string;
  readonly kind: string;
  readonly options: Subscription['options'];
  readonly identity: string;
  readonly createdBy: string;
  readonly now: number;
  /** The server's limit of this kind, and the first slot its subscriptions take. */
  readonly limit: number;
  readonly firstSlot?: number;
}

/**
 * A channel's subscription of this identity with the new options: the existing one updated (re-enabled from
 * now if it was disabled; still active, the events already due to it stay due), or a new one added within
 * the server's limit. `limit` and `exists` are the refusals, for the caller to word.
 */
export async function saveSubscription(
  repository: SubscriptionRepository,
  same: Subscription | undefined,
  request: SubscriptionRequest,
): Promise<
  | { readonly status: 'updated' | 'created'; readonly subscription: Subscription }
  | { readonly status: 'limit' }
  | { readonly status: 'exists' }
> {
  const { guild, now } = request;
  if (same) {
    const subscription: Subscription = {
      ...same,
      options: request.options,
      locale: guild.preferredLocale,
      ...(same.state.status === 'active' ? {} : { since: now }),
      state: { status: 'active' },
    };
    await repository.save(subscription);
    return { status: 'updated', subscription };
  }
  const fields = newSubscription(
    guild,
    request.channelId,
    request.kind,
    request.options,
    request.createdBy,
    now,
  );
  const added = await repository.add(fields, request.identity, request.limit, request.firstSlot);
  return added;
}

/** Autocomplete of a subscription id: the server's subscriptions whose id, kind or channel matches. */
export function subscriptionChoices(
  t: Translator,
  interaction: Pick<AutocompleteInteraction, 'guild'>,
  subscriptions: readonly Subscription[],
  typed: string,
): Array<{ name: string; value: string }> {
  const query = typed.trim().toLowerCase();
  return subscriptions
    .map((subscription) => {
      const channel = interaction.guild?.channels.cache.get(subscription.channelId);
      const where = channel ? `#${channel.name}` : subscription.channelId;
      return {
        name: `${subscription.id} · ${kindLabel(t, subscription.kind)} · ${where}`,
        value: subscription.id,
      };
    })
    .filter((choice) => query === '' || choice.name.toLowerCase().includes(query))
    .slice(0, 25);
}
