import { nameOption, pageOption } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type {
  AutocompleteChoice,
  Command,
  CommandContext,
  ComponentContext,
} from '../src/discord/command.ts';
import { UserError } from '../src/core/user-error.ts';
import { text } from '../src/render/common.ts';
import { renderClanMembers, renderClanProfile } from '../src/render/clan.ts';

const name = nameOption(true);
const page = pageOption;

type Context = CommandContext | ComponentContext;

/** A clan name as given, trimmed; Discord enforces the length, this catches a name of spaces only. */
export function clanNameOf(value: string | null | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') throw new UserError('clan:errors.nameRequired');
  return trimmed;
}

/** A page number from an option or a button argument: a whole number from 1 to 1000, else 1. */
export function pageOf(value: string | number | null | undefined): number {
  const page = Number(value ?? 1);
  return Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1;
}

async function loadClan(ctx: Context, clanName: string) {
  try {
    return await ctx.load('clan', { clanName });
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new UserError('clan:errors.notFound', { name: text(clanName, 100) });
    throw error;
  }
}

async function showProfile(ctx: Context, clanName: string): Promise<void> {
  const clan = await loadClan(ctx, clanName);
  ctx.services.names.remember('clan', clan.name);
  ctx.services.names.remember('player', clan.owner_name);
  await ctx.send(renderClanProfile(ctx.t, clan, ctx.now));
}

async function showMembers(ctx: Context, clanName: string, pageNo: number): Promise<void> {
  // The profile gives the clan's own spelling and its member count (so the pager knows the last page).
  const clan = await loadClan(ctx, clanName);
  const data = await ctx.load('clanMembers', { clanName: clan.name, page: pageNo });
  ctx.services.names.remember('clan', clan.name);
  ctx.services.names.remember('player', ...data.members.map((member) => member.player_name));
  await ctx.send(
    renderClanMembers(ctx.t, {
      name: clan.name,
      data,
      page: pageNo,
      memberCount: clan.member_count,
      now: ctx.now,
    }),
  );
}

export const command: Command = {
  data: {
    name: 'clan',
    options: [
      { type: ApplicationCommandOptionType.Subcommand, name: 'profile', options: [name] },
      { type: ApplicationCommandOptionType.Subcommand, name: 'members', options: [name, page] },
    ],
  },

  async execute(ctx) {
    const { interaction } = ctx;
    const clanName = clanNameOf(interaction.options.getString('name'));
    switch (interaction.options.getSubcommand()) {
      case 'profile':
        return showProfile(ctx, clanName);
      case 'members':
        return showMembers(ctx, clanName, pageOf(interaction.options.getInteger('page')));
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const [clanName, pageArg] = ctx.id.args;
    switch (ctx.id.action) {
      case 'members':
        return showMembers(ctx, clanNameOf(clanName), pageOf(pageArg));
      default:
        throw new UserError('common:errors.unknownComponent');
    }
  },

  autocomplete(ctx): Promise<AutocompleteChoice[]> {
    return Promise.resolve(ctx.services.names.suggest('clan', ctx.interaction.options.getFocused()));
  },
};
