import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { COMPONENT_LIFETIME_MS, defineComponents, type ComponentId } from '../src/discord/component-id.ts';
import { findingNames } from '../src/search/not-found.ts';
import { MAX_PAGE, parsePage } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import { pastTimes } from '../src/render/common.ts';
import { renderModInfo, renderModList } from '../src/features/mods/render.ts';

/** The ids of this command's page buttons; exported for the renderer tests. */
export const ids = defineComponents('mods', {
  list: ['page'],
  /** A "did you mean" button: `/mods info` for the mod `name`. */
  find: ['name'],
});

export const modsIds = {
  listPager: (now: number) => ids.pager(now, (p, at) => ids.encode.list({ page: p }, at)),
};

async function showList(ctx: CommandContext | ComponentContext, page: number): Promise<void> {
  const data = await ctx.load('mods', { page });
  ctx.services.names.remember('mod', ...data.mods.map((mod) => mod.name));
  ctx.services.names.remember('player', ...data.mods.map((mod) => mod.creator_name));
  await ctx.send(renderModList(ctx.t, { data, page, pager: modsIds.listPager(ctx.now) }));
}

async function showInfo(given: CommandContext | ComponentContext, modName: string): Promise<void> {
  // A mod the API does not know as typed: another case of it, else close names ("did you mean").
  const ctx = findingNames(given, (kind, found) =>
    kind === 'mod' ? ids.encode.find({ name: found }, given.now + COMPONENT_LIFETIME_MS) : undefined,
  );
  const mod = await ctx.load('mod', { modName });
  ctx.services.names.remember('mod', mod.name);
  ctx.services.names.remember('player', mod.creator_name);
  await ctx.send(renderModInfo(ctx.t, mod, pastTimes(ctx.now, ctx.services.log)));
}

/** The page of a `mods:list:<page>` button; anything else is not a button this command made. */
export function pageArg(id: ComponentId): number {
  const decoded = ids.decode(id);
  const page = decoded?.action === 'list' ? parsePage(decoded.args.page) : undefined;
  if (page === undefined) throw new UserError('common:errors.unknownComponent');
  return page;
}

const data = {
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
          autocomplete: 'mod',
        },
      ],
    },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    switch (args.subcommand) {
      case 'list': {
        const page = args.page === undefined ? 1 : parsePage(args.page);
        if (page === undefined) throw new UserError('mods:invalidPage', { max: MAX_PAGE });
        return showList(ctx, page);
      }
      case 'info': {
        const modName = args.name.trim();
        if (modName === '') throw new UserError('mods:nameRequired');
        return showInfo(ctx, modName);
      }
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const found = ids.decode(ctx.id);
    if (found?.action === 'find') return showInfo(ctx, found.args.name);
    return showList(ctx, pageArg(ctx.id));
  },
};
