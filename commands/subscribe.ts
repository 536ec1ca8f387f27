import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, OptionSpec } from '../src/discord/command.ts';
import { UserError } from '../src/core/user-error.ts';
import { checkCallerRights } from '../src/discord/caller-rights.ts';
import { subscriptionIdentity } from '../src/announcements/kinds/kind.ts';
import {
  ANNOUNCEMENT_CHANNEL_TYPES,
  MANAGE_COMMAND_SCOPE,
  MAX_SUBSCRIPTIONS_PER_GUILD,
  announcementChannel,
  checkBotPermissions,
  saveSubscription,
  requireManager,
} from '../src/announcements/manage.ts';
import { renderSubscribed } from '../src/announcements/render-subscriptions.ts';
import { SUBSCRIBE_KINDS, subscribeKindNamed, subscriptionView } from './subscribe/kinds.ts';
import { readOptionArgs } from '../src/discord/args.ts';

const channel = {
  type: ApplicationCommandOptionType.Channel,
  name: 'channel',
  required: true,
  channel_types: [...ANNOUNCEMENT_CHANNEL_TYPES],
} as const satisfies OptionSpec;

/**
 * `/subscribe <kind> channel [...]`: one subcommand per subscription kind (`subscribe/kinds.ts`). Subscribing
 * a channel again to the same kind and filter (`AnnouncementKind.filters`: the same clan) updates its other
 * options (and re-enables it if it was disabled). Creating one is atomic on every store: of concurrent
 * calls for the same channel, kind and filter one creates and the others are told it exists, and a server
 * never passes the limit (`SubscriptionRepository.add`).
 */
export const command: Command = {
  data: {
    name: 'subscribe',
    ...MANAGE_COMMAND_SCOPE,
    options: SUBSCRIBE_KINDS.map(({ kind, options }): OptionSpec => ({
      type: ApplicationCommandOptionType.Subcommand,
      name: kind.name,
      options: [channel, ...options],
    })),
  },

  async execute(ctx) {
    const { interaction, services } = ctx;
    const guild = requireManager(interaction);
    // The subcommands are the kinds handed in, so the kind is found by name; each reads its own options.
    const subcommand = subscribeKindNamed(interaction.options.getSubcommand());
    if (!subcommand) throw new UserError('common:errors.unknownCommand');
    const { kind } = subcommand;
    if (kind.needsApiKey && services.config.game.apiKey === undefined)
      throw new UserError('common:errors.noApiKey');
    await ctx.defer({ ephemeral: true });
    const target = await announcementChannel(
      readOptionArgs(interaction.options, [channel]).channel.id,
      guild,
    );
    checkCallerRights(ctx.t, interaction, target);
    const permissions = await checkBotPermissions(ctx.t, guild, target);
    const { options, notes = [] } = await subcommand.readOptions(ctx, permissions);
    // A kind that pings keeps its role as `roleId`: the caller must be able to ping it there too.
    if (typeof options.roleId === 'string') {
      const role = guild.roles.cache.get(options.roleId) ?? (await guild.roles.fetch(options.roleId));
      if (!role) throw new UserError('subscribe:errors.unknownRole');
      checkCallerRights(ctx.t, interaction, target, role);
    }

    const repository = services.records.announcements.subscriptions;
    const identity = subscriptionIdentity(target.id, kind, options);
    const existing = await repository.forGuild(guild.id);
    const same = existing.find(
      (s) =>
        s.kind === kind.name &&
        s.channelId === target.id &&
        subscriptionIdentity(s.channelId, kind, s.options) === identity,
    );
    const saved = await saveSubscription(repository, same, {
      guild,
      channelId: target.id,
      kind: kind.name,
      options,
      identity,
      createdBy: interaction.user.id,
      now: services.clock.now(),
      limit: MAX_SUBSCRIPTIONS_PER_GUILD,
    });
    if (saved.status === 'limit')
      throw new UserError('subscribe:errors.limit', {
        count: MAX_SUBSCRIPTIONS_PER_GUILD,
        max: MAX_SUBSCRIPTIONS_PER_GUILD,
      });
    if (saved.status === 'exists')
      throw new UserError('subscribe:errors.exists', { channel: `<#${target.id}>` });
    const { subscription } = saved;
    services.log.info(
      { guild: guild.id, channel: target.id, kind: kind.name, subscription: subscription.id },
      same ? 'subscription updated' : 'subscribed',
    );
    await ctx.send(
      renderSubscribed(ctx.t, subscriptionView(ctx.t, subscription), same ? 'updated' : 'created', notes),
    );
  },
};
