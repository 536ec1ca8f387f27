import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, CommandSpec } from '../src/discord/command.ts';
import { idOption } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import { ANNOUNCEMENT_CHANNEL_TYPES, MANAGE_COMMAND_SCOPE } from '../src/announcements/manage.ts';
import { BEFORE_MAX, BEFORE_MIN } from '../src/features/turf/reminders/model.ts';
import {
  listReminders,
  completeReminderId,
  remindIds,
  removeReminder,
  setReminder,
} from '../src/features/turf/reminders/command.ts';

const data = {
  name: 'remind',
  ...MANAGE_COMMAND_SCOPE,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'turf',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'clan',
          required: true,
          min_length: 1,
          max_length: 64,
          autocomplete: 'clan',
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'before',
          required: true,
          min_value: BEFORE_MIN,
          max_value: BEFORE_MAX,
        },
        { type: ApplicationCommandOptionType.Role, name: 'role' },
        {
          type: ApplicationCommandOptionType.Channel,
          name: 'channel',
          channel_types: [...ANNOUNCEMENT_CHANNEL_TYPES],
        },
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'list' },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'remove',
      options: [idOption(completeReminderId)],
    },
  ],
} as const satisfies CommandSpec;

/**
 * `/remind turf clan before [role] [channel]`, `/remind list`, `/remind remove id`: a post before each UTC
 * turf day ends with the clan's standing on every turf map, pinging the role (`src/features/reminders`).
 * Manage Server, in servers only; 25 reminders a server.
 */
export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    switch (args.subcommand) {
      case 'turf':
        return setReminder(ctx, {
          clanName: args.clan,
          before: args.before,
          roleId: args.role?.id,
          channelId: args.channel?.id ?? null,
        });
      case 'list':
        return listReminders(ctx);
      case 'remove':
        return removeReminder(ctx, args.id);
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const decoded = remindIds.decode(ctx.id);
    if (decoded?.action !== 'find' || !ctx.interaction.isButton())
      throw new UserError('common:errors.unknownCommand');
    const { name, before, role, channel } = decoded.args;
    await setReminder(
      { ...ctx, interaction: ctx.interaction },
      {
        clanName: name,
        before: Number(before),
        roleId: role === '' ? undefined : role,
        channelId: channel === '' ? null : channel,
      },
    );
  },
};
