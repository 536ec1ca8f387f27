import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
} from 'discord.js';
import type { AutocompleteChoice, Command, CommandSpec, CompletionContext } from '../src/discord/command.ts';
import { idOption, skinOption } from '../src/discord/options.ts';
import { NotFoundError } from '../src/api/errors.ts';
import { UserError } from '../src/core/user-error.ts';
import { DIRECTIONS, type Direction } from '../src/features/alerts/crossing.ts';
import type { PriceAlert } from '../src/features/alerts/store.ts';
import {
  SERVER_ALERTS_PER_PAGE,
  renderAlertAdded,
  renderAlertList,
  renderAlertRemoved,
  renderServerAlerts,
} from '../src/features/alerts/render.ts';
import { defineComponents } from '../src/discord/component-id.ts';
import type { CommandContext, ComponentContext } from '../src/discord/command.ts';
import type { SubArgs } from '../src/discord/args.ts';
import { checkCallerRights } from '../src/discord/caller-rights.ts';
import { unknownName } from '../src/render/names.ts';
import { text } from '../src/render/common.ts';
import {
  ANNOUNCEMENT_CHANNEL_TYPES,
  announcementChannel,
  checkBotPermissions,
} from '../src/announcements/manage.ts';

const MAX_PRICE = 1_000_000_000;

const data = {
  name: 'alert',
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'add',
      options: [
        skinOption,
        {
          type: ApplicationCommandOptionType.String,
          name: 'direction',
          required: true,
          choices: DIRECTIONS.map((value) => ({ value })),
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'price',
          required: true,
          min_value: 1,
          max_value: MAX_PRICE,
        },
        {
          type: ApplicationCommandOptionType.Channel,
          name: 'channel',
          channel_types: [...ANNOUNCEMENT_CHANNEL_TYPES],
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'list',
      options: [{ type: ApplicationCommandOptionType.Boolean, name: 'server' }],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'remove',
      options: [idOption(completeAlerts)],
    },
  ],
} as const satisfies CommandSpec;

/** The server list's page buttons (`/alert list server:true`). */
export const ids = defineComponents('alert', { server: ['page'] });

/**
 * `/alert add skin below|above price [channel]`, `/alert list [server]`, `/alert remove id`: a price alert
 * on a market skin, sent to the user's DMs, or to a channel when someone with Manage Server sets one. The
 * worker looks at each watched skin once for all its alerts (`src/features/alerts/watch.ts`); an alert fires once
 * per crossing (`src/features/alerts/crossing.ts`). A DM alert counts toward its user's ALERT_USER_LIMIT (across
 * servers) only, a channel alert toward its server's ALERT_GUILD_LIMIT only. A manager lists (paged) and
 * removes any alert made in the server, its owner named.
 */
export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { interaction, args } = ctx;
    const guildId = interaction.guildId;
    if (guildId === null) throw new UserError('alert:errors.guildOnly');
    switch (args.subcommand) {
      case 'add':
        return addAlert(ctx, args, guildId);
      case 'list':
        return args.server === true ? showServer(ctx, guildId, 1) : showMine(ctx, guildId);
      case 'remove':
        return removeAlert(ctx, args.id, guildId);
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    const guildId = ctx.interaction.guildId;
    if (id?.action !== 'server' || guildId === null) throw new UserError('common:errors.unknownComponent');
    const page = Number(id.args.page);
    return showServer(ctx, guildId, Number.isSafeInteger(page) && page >= 1 ? page : 1);
  },
};

/** A checked alert's values: a skin index, a price within bounds, a direction. */
function checkedAlert(args: SubArgs<typeof data, 'add'>): {
  readonly skinIndex: number;
  readonly threshold: number;
  readonly direction: Direction;
} {
  const { skin: skinIndex, price: threshold, direction } = args;
  if (!Number.isSafeInteger(skinIndex) || skinIndex < 0) throw new UserError('market:invalidSkin');
  if (!Number.isSafeInteger(threshold) || threshold < 1 || threshold > MAX_PRICE)
    throw new UserError('alert:errors.price', { max: MAX_PRICE });
  if (direction !== 'below' && direction !== 'above') throw new UserError('common:errors.unknownCommand');
  return { skinIndex, threshold, direction };
}

/**
 * Where the alert goes: the caller's DMs in their language, or a channel a manager may post in (and the
 * bot too), in the server's language.
 */
async function alertTarget(
  ctx: CommandContext,
  channel: SubArgs<typeof data, 'add'>['channel'],
): Promise<{ readonly channelId: string | undefined; readonly locale: string }> {
  const { interaction } = ctx;
  if (channel === undefined) return { channelId: undefined, locale: interaction.locale };
  if (!interaction.inCachedGuild()) throw new UserError('alert:errors.guildOnly');
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild))
    throw new UserError('alert:errors.manageGuild');
  const target = await announcementChannel(channel.id, interaction.guild);
  checkCallerRights(ctx.t, interaction, target);
  await checkBotPermissions(ctx.t, interaction.guild, target);
  return { channelId: target.id, locale: interaction.guild.preferredLocale };
}

/** The skin's lowest ask now, shown beside the alert; the skin must exist. */
async function currentAsk(ctx: CommandContext, skinIndex: number): Promise<number | undefined> {
  try {
    return (await ctx.load('marketItemSales', { skinIndex })).ask_low;
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError('market:notFound', { index: skinIndex });
    throw error;
  }
}

async function addAlert(ctx: CommandContext, args: SubArgs<typeof data, 'add'>, guildId: string) {
  const { services, interaction } = ctx;
  const repository = services.records.alerts;
  const limits = services.config.alerts;
  const userId = interaction.user.id;
  await ctx.defer({ ephemeral: true });
  const { skinIndex, threshold, direction } = checkedAlert(args);
  const { channelId, locale } = await alertTarget(ctx, args.channel);
  const current = await currentAsk(ctx, skinIndex);
  const skinName = services.names.skinName(skinIndex) ?? unknownName(ctx.t, 'skin', skinIndex);
  const added = await repository.add(
    { guildId, userId, channelId, skinIndex, skinName, direction, threshold, locale },
    { user: limits.userLimit, guild: limits.guildLimit },
    services.clock.now(),
  );
  if (added.status === 'userLimit') throw new UserError('alert:errors.userLimit', { max: limits.userLimit });
  if (added.status === 'guildLimit')
    throw new UserError('alert:errors.guildLimit', { max: limits.guildLimit });
  if (added.status === 'exists') throw new UserError('alert:errors.exists', { id: added.alert.id });
  services.log.info(
    { guild: guildId, alert: added.alert.id, skin: skinIndex, channel: channelId ?? 'dm' },
    'price alert added',
  );
  const used = channelId === undefined ? await repository.countForUser(userId) : undefined;
  return ctx.send(
    renderAlertAdded(
      ctx.t,
      added.alert,
      current,
      used === undefined
        ? { used: await repository.countForGuild(guildId), max: limits.guildLimit, of: 'server' }
        : { used, max: limits.userLimit, of: 'user' },
    ),
  );
}

/** The caller's own alerts, with what is left of their limit and of the server's. */
async function showMine(ctx: CommandContext, guildId: string) {
  const repository = ctx.services.records.alerts;
  const limits = ctx.services.config.alerts;
  const userId = ctx.interaction.user.id;
  const mine = await repository.forUser(userId);
  return ctx.send(
    renderAlertList(ctx.t, mine, {
      user: limits.userLimit,
      used: await repository.countForUser(userId),
      guild: limits.guildLimit,
      guildUsed: await repository.countForGuild(guildId),
    }),
  );
}

async function removeAlert(ctx: CommandContext, rawId: string, guildId: string) {
  const { services, interaction } = ctx;
  const repository = services.records.alerts;
  const userId = interaction.user.id;
  const id = rawId.trim().toLowerCase();
  const alert = await repository.get(id);
  if (!alert || !mayRemove(alert, userId, guildId, interaction.memberPermissions))
    throw new UserError('alert:errors.notFound', { id: text(id, 32) });
  await repository.remove(alert.id);
  await repository.pruneSkins();
  services.log.info(
    { guild: guildId, alert: alert.id, byOwner: alert.userId === userId },
    'price alert removed',
  );
  return ctx.send(renderAlertRemoved(ctx.t, alert, alert.userId === userId));
}

const AUTOCOMPLETE_SCAN = 500;

/** The alerts the user may remove (`/alert remove id`) whose id, skin or threshold matches what was typed. */
async function completeAlerts(ctx: CompletionContext): Promise<AutocompleteChoice[]> {
  const query = ctx.typed.trim().toLowerCase();
  const repository = ctx.services.records.alerts;
  const guildId = ctx.interaction.guildId;
  const manager =
    guildId !== null && ctx.interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true;
  // A manager may remove any alert made in the server (a bounded read: the server's 50 and its members').
  const mine = await repository.forUser(ctx.interaction.user.id);
  const server = manager ? await repository.madeIn(guildId, { offset: 0, limit: AUTOCOMPLETE_SCAN }) : [];
  const candidates = [...mine, ...server.filter((alert) => alert.userId !== ctx.interaction.user.id)];
  return candidates
    .map((alert) => ({
      name: `${alert.id} · ${alert.skinName} · ${alert.direction} ${alert.threshold}`.slice(0, 100),
      value: alert.id,
    }))
    .filter((choice) => query === '' || choice.name.toLowerCase().includes(query))
    .slice(0, 25);
}

/** Every alert made in the server, a page at a time, with its owner: managers only. */
async function showServer(ctx: CommandContext | ComponentContext, guildId: string, page: number) {
  if (ctx.interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) !== true)
    throw new UserError('alert:errors.listManageGuild');
  const repository = ctx.services.records.alerts;
  const limits = ctx.services.config.alerts;
  const total = await repository.countMadeIn(guildId);
  const last = Math.max(1, Math.ceil(total / SERVER_ALERTS_PER_PAGE));
  const shown = Math.min(page, last);
  const alerts = await repository.madeIn(guildId, {
    offset: (shown - 1) * SERVER_ALERTS_PER_PAGE,
    limit: SERVER_ALERTS_PER_PAGE,
  });
  return ctx.send(
    renderServerAlerts(ctx.t, {
      alerts,
      total,
      page: shown,
      pager: ids.pager(ctx.now, (p, at) => ids.encode.server({ page: p }, at)),
      guildUsed: await repository.countForGuild(guildId),
      guild: limits.guildLimit,
      user: limits.userLimit,
    }),
  );
}

/** Its owner may remove an alert; so may a manager of the server it was made in (DM alerts too). */
function mayRemove(
  alert: PriceAlert,
  userId: string,
  guildId: string,
  permissions: { has(flag: bigint): boolean } | null,
): boolean {
  if (alert.userId === userId) return true;
  return alert.guildId === guildId && permissions?.has(PermissionFlagsBits.ManageGuild) === true;
}
