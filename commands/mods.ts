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
import { renderModInfo, renderModList } from '../src/render/mods.ts';

const MAX_PAGE = 1000;

async function showList(ctx: CommandContext | ComponentContext, page: number): Promise<void> {
  const data = await ctx.load('mods', { page });
  ctx.services.names.remember('mod', ...data.mods.map((mod) => mod.name));
  ctx.services.names.remember('player', ...data.mods.map((mod) => mod.creator_name));
  await ctx.send(renderModList(ctx.t, { data, page, now: ctx.now }));
}

async function showInfo(ctx: CommandContext, modName: string): Promise<void> {
  let mod;
  try {
    mod = await ctx.load('mod', { modName });
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError('mods:notFound', { name: text(modName, 100) });
    throw error;
  }
  ctx.services.names.remember('mod', mod.name);
  ctx.services.names.remember('player', mod.creator_name);
  await ctx.send(renderModInfo(ctx.t, mod));
}

/** The page of a `mods:list:<page>` button; anything else is not a button this command made. */
export function pageArg(args: readonly string[]): number {
  const page = Number(args.at(-1));
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE)
    throw new UserError('common:errors.unknownComponent');
  return page;
}

export const command: Command = {
  data: {
    name: 'mods',
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'list',
        options: [
          { type: ApplicationCommandOptionType.Integer, name: 'page', min_value: 1, max_value: MAX_PAGE },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'info',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'name',
            required: true,
            min_length: 1,
            max_length: 100,
            autocomplete: true,
          },
        ],
      },
    ],
  },

  async execute(ctx) {
    const { options } = ctx.interaction;
    switch (options.getSubcommand()) {
      case 'list': {
        const page = options.getInteger('page') ?? 1;
        if (page < 1 || page > MAX_PAGE) throw new UserError('mods:invalidPage', { max: MAX_PAGE });
        return showList(ctx, page);
      }
      case 'info': {
        const modName = options.getString('name', true).trim();
        if (modName === '') throw new UserError('mods:nameRequired');
        return showInfo(ctx, modName);
      }
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    if (ctx.id.action !== 'list') throw new UserError('common:errors.unknownComponent');
    return showList(ctx, pageArg(ctx.id.args));
  },

  autocomplete(ctx): Promise<AutocompleteChoice[]> {
    return Promise.resolve(ctx.services.names.suggest('mod', ctx.interaction.options.getFocused()));
  },
};
