import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { defineComponents } from '../src/discord/component-id.ts';
import { parsePage } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import { LOBBY_REGIONS, isLobbyRegion, renderLobbies } from '../src/features/lobbies/render.ts';

/** The ids of this command's page buttons (`''` for every region); exported for the renderer tests. */
export const ids = defineComponents('lobbies', { page: ['region', 'page'] });

export const lobbiesIds = {
  pager: (region: string | undefined, now: number) =>
    ids.pager(now, (p, at) => ids.encode.page({ region: region ?? '', page: p }, at)),
};

async function showLobbies(ctx: CommandContext | ComponentContext, region: string | undefined, page: number) {
  const data = await ctx.load('lobbies', { hostname: ctx.services.config.game.hostname });
  await ctx.send(
    renderLobbies(ctx.t, { data, region, page, now: ctx.now, pager: lobbiesIds.pager(region, ctx.now) }),
  );
}

const data = {
  name: 'lobbies',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'region',
      choices: LOBBY_REGIONS.map((value) => ({ value })),
    },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { region } = ctx.args;
    if (region !== undefined && !isLobbyRegion(region)) throw new UserError('lobbies:errors.region');
    return showLobbies(ctx, region, 1);
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (id?.action !== 'page') throw new UserError('common:errors.unknownComponent');
    const { region, page } = id.args;
    return showLobbies(ctx, isLobbyRegion(region) ? region : undefined, parsePage(page) ?? 1);
  },
};
