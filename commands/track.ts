import { ApplicationCommandOptionType, PermissionFlagsBits, type Guild } from 'discord.js';
import type {
  AutocompleteChoice,
  Command,
  CommandContext,
  CommandSpec,
  CompletionContext,
} from '../src/discord/command.ts';
import type { SubArgs } from '../src/discord/args.ts';
import { checkCallerRights } from '../src/discord/caller-rights.ts';
import { UserError } from '../src/core/user-error.ts';
import { subscriptionIdentity } from '../src/announcements/kinds/kind.ts';
import { trackKind } from '../src/features/tracking/kind.ts';
import type { Subscription } from '../src/announcements/model.ts';
import { followCapacity } from '../src/traffic/capacity.ts';
import { backgroundPlan } from '../src/players/follow-plan.ts';
import { CLAN_LOG_KIND } from '../src/features/clans/log/model.ts';
import { trackedIntervalOf } from '../src/traffic/planner.ts';
import { idOption, playerOption } from '../src/discord/options.ts';
import { renderTrackList, renderTracked, renderUntracked } from '../src/features/tracking/render.ts';
import { text } from '../src/render/common.ts';
import { findingNames } from '../src/search/not-found.ts';
import {
  ANNOUNCEMENT_CHANNEL_TYPES,
  MANAGE_COMMAND_SCOPE,
  announcementChannel,
  checkBotPermissions,
  newSubscription,
  requireManager,
} from '../src/announcements/manage.ts';

/**
 * Tracked subscriptions take places of their own, after the 25 of `/subscribe`: a server's tracked players
 * never crowd out its other announcements.
 */
export const TRACK_FIRST_SLOT = 1_000;

const data = {
  name: 'track',
  ...MANAGE_COMMAND_SCOPE,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'add',
      options: [
        playerOption,
        {
          type: ApplicationCommandOptionType.Channel,
          name: 'channel',
          required: true,
          channel_types: [...ANNOUNCEMENT_CHANNEL_TYPES],
        },
        { type: ApplicationCommandOptionType.Role, name: 'role' },
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'list' },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'remove',
      options: [idOption(completeTracked)],
    },
  ],
} as const satisfies CommandSpec;

/** The server's tracked players whose id or name matches what was typed (`/track remove id`). */
async function completeTracked(ctx: CompletionContext): Promise<AutocompleteChoice[]> {
  const guildId = ctx.interaction.guildId;
  if (guildId === null) return [];
  const query = ctx.typed.trim().toLowerCase();
  const mine = tracked(await ctx.services.records.announcements.subscriptions.forGuild(guildId));
  return mine
    .map((subscription) => ({
      name: `${subscription.id} · ${playerNameOf(subscription)}`.slice(0, 100),
      value: subscription.id,
    }))
    .filter((choice) => query === '' || choice.name.toLowerCase().includes(query))
    .slice(0, 25);
}

function tracked(subscriptions: readonly Subscription[]): Subscription[] {
  return subscriptions.filter((subscription) => subscription.kind === trackKind.name);
}

function playerNameOf(subscription: Subscription): string {
  const name = subscription.options.playerName;
  return typeof name === 'string' ? name : '?';
}

/**
 * `/track add player channel [role]`, `/track list`, `/track remove id`: players followed into a channel
 * (their ranked matches, level ups and clan changes; `src/features/tracking/feed.ts` finds them). Manage Server, as
 * every announcement. A server tracks at most `TRACK_LIMIT` players (50 by default).
 */
export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { interaction, args } = ctx;
    const guild = requireManager(interaction);
    switch (args.subcommand) {
      case 'add':
        return addTracked(ctx, args, guild);
      case 'list':
        return listTracked(ctx, guild);
      case 'remove':
        return removeTracked(ctx, args.id, guild);
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },
};

/** `/track add`: the player must exist (its id is what events are matched by: names can be changed). */
async function addTracked(ctx: CommandContext, args: SubArgs<typeof data, 'add'>, guild: Guild) {
  const { interaction, services } = ctx;
  const repository = services.records.announcements.subscriptions;
  const limit = services.config.follow.trackLimit;
  if (services.config.game.apiKey === undefined) throw new UserError('common:errors.noApiKey');
  await ctx.defer({ ephemeral: true });
  const target = await announcementChannel(args.channel.id, guild);
  const role = args.role;
  if (role?.id === guild.id) throw new UserError('subscribe:errors.everyoneRole');
  checkCallerRights(ctx.t, interaction, target, role);
  const permissions = await checkBotPermissions(ctx.t, guild, target);
  // Another case of the name is found; close names are offered when there is none.
  const profile = await findingNames(ctx, () => undefined).load('player', { playerName: args.player.trim() });
  services.names.remember('player', profile.player_name);
  const options = {
    playerId: profile.player_id,
    playerName: profile.player_name,
    ...(role ? { roleId: role.id } : {}),
  };
  const identity = subscriptionIdentity(target.id, trackKind, options);
  const now = services.clock.now();
  const added = await repository.add(
    newSubscription(guild, target.id, trackKind.name, options, interaction.user.id, now),
    identity,
    limit,
    TRACK_FIRST_SLOT,
  );
  if (added.status === 'limit') throw new UserError('track:errors.limit', { count: limit, max: limit });
  if (added.status === 'exists')
    throw new UserError('track:errors.exists', {
      name: text(profile.player_name, 100),
      channel: `<#${target.id}>`,
    });
  await services.records.players.followed.follow([profile.player_name]);
  services.log.info(
    { guild: guild.id, channel: target.id, subscription: added.subscription.id },
    'player tracked',
  );
  const notes =
    role && !role.mentionable && !permissions.has(PermissionFlagsBits.MentionEveryone)
      ? [ctx.t.t('subscribe:notes.roleNotMentionable', { role: `<@&${role.id}>` })]
      : [];
  return ctx.send(renderTracked(ctx.t, profile.player_name, target.id, added.subscription.id, notes));
}

/** `/track list`: the server's tracked players, with the interval the background's plan really gives them. */
async function listTracked(ctx: CommandContext, guild: Guild) {
  const { services } = ctx;
  const repository = services.records.announcements.subscriptions;
  const limit = services.config.follow.trackLimit;
  const mine = tracked(await repository.forGuild(guild.id));
  const followed = services.records.players.followed;
  const rows = new Map(
    (await followed.many(mine.map((s) => playerNameOf(s).toLowerCase()))).map((row) => [row.key, row]),
  );
  // The interval this server's players really have in the background's one plan (the worker's).
  // Clan logs share the servers' part of the background with tracking: they weigh on the plan too.
  const active = [...(await repository.active(trackKind.name)), ...(await repository.active(CLAN_LOG_KIND))];
  const plan = backgroundPlan(await services.demand(active), {
    settings: services.config.follow,
    capacityPerMinute: followCapacity(services.config),
  });
  const targetMs = services.config.follow.trackMinutes * 60_000;
  const intervalMs = trackedIntervalOf(plan, guild.id, targetMs);
  const entries = mine.map((subscription) => {
    const roleId = subscription.options.roleId;
    return {
      id: subscription.id,
      playerName: playerNameOf(subscription),
      channelId: subscription.channelId,
      roleId: typeof roleId === 'string' ? roleId : undefined,
      disabledReason: subscription.state.status === 'disabled' ? subscription.state.reason : undefined,
      refreshedAt: rows.get(playerNameOf(subscription).toLowerCase())?.refreshedAt,
    };
  });
  return ctx.send(renderTrackList(ctx.t, { entries, limit, intervalMs, targetMs }));
}

async function removeTracked(ctx: CommandContext, rawId: string, guild: Guild) {
  const { services } = ctx;
  const repository = services.records.announcements.subscriptions;
  const id = rawId.trim().toLowerCase();
  const subscription = await repository.get(id);
  if (subscription?.guildId !== guild.id || subscription.kind !== trackKind.name)
    throw new UserError('track:errors.notFound', { id: text(id, 32) });
  await repository.delete(subscription.id);
  await services.records.announcements.refs.deleteAll(subscription.id);
  services.log.info({ guild: guild.id, subscription: subscription.id }, 'player no longer tracked');
  return ctx.send(renderUntracked(ctx.t, playerNameOf(subscription), subscription.id));
}
