import {
  PermissionFlagsBits,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Guild,
  type Role,
} from 'discord.js';
import { announcementChannel, checkBotPermissions, saveSubscription } from '../../../announcements/manage.ts';
import { NotFoundError } from '../../../api/errors.ts';
import { numberOption, stringOption, subscriptionIdentity } from '../../../announcements/kinds/kind.ts';
import type { Subscription } from '../../../announcements/model.ts';
import { UserError } from '../../../core/user-error.ts';
import { checkCallerRights } from '../../../discord/caller-rights.ts';
import type { Loader } from '../../../discord/command.ts';
import type { Completer } from '../../../discord/spec.ts';
import { COMPONENT_LIFETIME_MS, defineComponents } from '../../../discord/component-id.ts';
import type { Translator } from '../../../i18n/index.ts';
import { text } from '../../../render/common.ts';
import { NameNotFoundError } from '../../../render/suggest.ts';
import { nameSearchOf } from '../../../search/index.ts';
import type { Services } from '../../../services.ts';
import { remindKind } from './kind.ts';
import { BEFORE_MAX, BEFORE_MIN, MAX_REMINDERS, REMIND_FIRST_SLOT, REMIND_KIND, beforeOf } from './model.ts';
import { renderReminderList, renderReminderRemoved, renderReminderSet, type ReminderView } from './render.ts';
import { ReminderRuns } from './runs.ts';

/**
 * What `/remind` does (`commands/remind.ts` reads the options and calls these). Manage Server, in servers
 * only, as every announcement: the caller must be able to post in the channel and to ping the role there
 * (a role that is not mentionable needs Mention @everyone), as the bot must.
 */
export const remindIds = defineComponents('remind', {
  /** "Did you mean": sets the reminder again with this clan name. */
  find: ['name', 'before', 'role', 'channel'],
});

/** What a reminder is made from: the command's options, or a "did you mean" button's. */
export interface ReminderInput {
  readonly clanName: string;
  readonly before: number | undefined;
  readonly roleId: string | undefined;
  readonly channelId: string | null;
}

interface Context extends Loader {
  readonly interaction: ChatInputCommandInteraction | ButtonInteraction;
  readonly services: Services;
  readonly t: Translator;
  readonly now: number;
}

/** The server, once the member is known to hold Manage Server there (a server can hide a command only). */
function managerGuild(interaction: Context['interaction']): Guild {
  if (!interaction.inCachedGuild()) throw new UserError('subscribe:errors.guildOnly');
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild))
    throw new UserError('subscribe:errors.manageGuild');
  return interaction.guild;
}

function reminders(subscriptions: readonly Subscription[]): Subscription[] {
  return subscriptions.filter((subscription) => subscription.kind === REMIND_KIND);
}

function viewOf(subscription: Subscription): ReminderView {
  return {
    id: subscription.id,
    clanName: stringOption(subscription, 'clanName') ?? String(numberOption(subscription, 'clanId') ?? '?'),
    before: beforeOf(subscription),
    channelId: subscription.channelId,
    roleId: stringOption(subscription, 'roleId'),
    ...(subscription.state.status === 'disabled' ? { disabledReason: subscription.state.reason } : {}),
  };
}

async function pingRole(guild: Guild, roleId: string | undefined): Promise<Role | undefined> {
  if (roleId === undefined || roleId === '') return undefined;
  if (roleId === guild.id) throw new UserError('subscribe:errors.everyoneRole');
  const role = guild.roles.cache.get(roleId) ?? (await guild.roles.fetch(roleId).catch(() => null));
  if (!role) throw new UserError('subscribe:errors.unknownRole');
  return role;
}

/** The clan by its exact name; a name the game does not know offers up to three close ones as buttons. */
async function findClan(ctx: Context, input: ReminderInput, before: number, channelId: string) {
  try {
    return await ctx.load('clanByName', { clanName: input.clanName });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const close = await nameSearchOf(ctx.services).didYouMean('clan', input.clanName);
    const choices = close.map((name) => ({
      name,
      customId: remindIds.encode.find(
        { name, before, role: input.roleId ?? '', channel: channelId },
        ctx.now + COMPONENT_LIFETIME_MS,
      ),
    }));
    throw new NameNotFoundError('remind:errors.clanNotFound', input.clanName, choices);
  }
}

/** `/remind turf`: a new reminder, or the same one (channel, clan, minutes) with its role changed. */
export async function setReminder(ctx: Context, input: ReminderInput): Promise<void> {
  const { interaction, services } = ctx;
  const guild = managerGuild(interaction);
  const before = input.before;
  if (before === undefined || !Number.isInteger(before) || before < BEFORE_MIN || before > BEFORE_MAX)
    throw new UserError('remind:errors.before', { min: BEFORE_MIN, max: BEFORE_MAX });
  const clanName = input.clanName.trim();
  if (clanName === '') throw new UserError('clan:errors.nameRequired');
  await ctx.defer({ ephemeral: true });
  // Without a channel: where the command was run.
  const channel = await announcementChannel(input.channelId ?? interaction.channelId, guild);
  const role = await pingRole(guild, input.roleId);
  checkCallerRights(ctx.t, interaction, channel, role);
  const permissions = await checkBotPermissions(ctx.t, guild, channel);
  const clan = await findClan(ctx, { ...input, clanName }, before, channel.id);
  services.names.remember('clan', clan.name);
  const options = {
    clanId: clan.clan_id,
    clanName: clan.name,
    before,
    ...(role ? { roleId: role.id } : {}),
  };
  const repository = services.records.announcements.subscriptions;
  const identity = subscriptionIdentity(channel.id, remindKind, options);
  const same = reminders(await repository.forGuild(guild.id)).find(
    (s) =>
      s.channelId === channel.id && subscriptionIdentity(s.channelId, remindKind, s.options) === identity,
  );
  const saved = await saveSubscription(repository, same, {
    guild,
    channelId: channel.id,
    kind: REMIND_KIND,
    options,
    identity,
    createdBy: interaction.user.id,
    now: services.clock.now(),
    limit: MAX_REMINDERS,
    firstSlot: REMIND_FIRST_SLOT,
  });
  if (saved.status === 'limit') throw new UserError('remind:errors.limit', { max: MAX_REMINDERS });
  if (saved.status === 'exists') throw new UserError('remind:errors.exists', { channel: `<#${channel.id}>` });
  const { subscription } = saved;
  services.log.info(
    { guild: guild.id, channel: channel.id, subscription: subscription.id },
    same ? 'turf reminder updated' : 'turf reminder set',
  );
  const notes =
    role && !role.mentionable && !permissions.has(PermissionFlagsBits.MentionEveryone)
      ? [ctx.t.t('subscribe:notes.roleNotMentionable', { role: `<@&${role.id}>` })]
      : [];
  await ctx.send(renderReminderSet(ctx.t, viewOf(subscription), same ? 'updated' : 'created', notes));
}

/** `/remind list`: the server's reminders, each with its last post. */
export async function listReminders(ctx: Context): Promise<void> {
  const guild = managerGuild(ctx.interaction);
  const mine = reminders(await ctx.services.records.announcements.subscriptions.forGuild(guild.id));
  const last = await new ReminderRuns(ctx.services.db).latest(mine.map((s) => s.id));
  const views = mine.map((s) => ({ ...viewOf(s), last: last.get(s.id) }));
  await ctx.send(renderReminderList(ctx.t, views, MAX_REMINDERS));
}

/** `/remind remove id`: one of this server's reminders (never another server's, nor another kind). */
export async function removeReminder(ctx: Context, id: string): Promise<void> {
  const guild = managerGuild(ctx.interaction);
  const { db, log, records } = ctx.services;
  const wanted = id.trim().toLowerCase();
  const repository = records.announcements.subscriptions;
  const subscription = await repository.get(wanted);
  if (subscription?.guildId !== guild.id || subscription.kind !== REMIND_KIND)
    throw new UserError('remind:errors.notFound', { id: text(wanted, 32) });
  await repository.delete(subscription.id);
  await records.announcements.refs.deleteAll(subscription.id);
  await new ReminderRuns(db).forget(subscription.id);
  log.info({ guild: guild.id, subscription: subscription.id }, 'turf reminder removed');
  await ctx.send(renderReminderRemoved(ctx.t, viewOf(subscription)));
}

/** Autocomplete: a clan by name, or one of the server's reminders by id or clan. */
/** The server's reminders for the `id` option of `/remind remove`. */
export const completeReminderId: Completer = async (ctx) => {
  const guildId = ctx.interaction.guildId;
  if (guildId === null) return [];
  const query = ctx.typed.trim().toLowerCase();
  const mine = reminders(await ctx.services.records.announcements.subscriptions.forGuild(guildId));
  return mine
    .map((s) => {
      const view = viewOf(s);
      return { name: `${s.id} · ${view.clanName} · ${view.before ?? '?'} min`.slice(0, 100), value: s.id };
    })
    .filter((choice) => query === '' || choice.name.toLowerCase().includes(query))
    .slice(0, 25);
};
