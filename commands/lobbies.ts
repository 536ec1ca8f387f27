import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, CommandContext, ComponentContext } from '../src/discord/command.ts';
import { UserError } from '../src/core/user-error.ts';
import { LOBBY_REGIONS, isLobbyRegion, renderLobbies } from '../src/render/lobbies.ts';

async function showLobbies(ctx: CommandContext | ComponentContext, region: string | undefined, page: number) {
  const data = await ctx.load('lobbies', { hostname: ctx.services.config.game.hostname });
  await ctx.send(renderLobbies(ctx.t, { data, region, page, now: ctx.now }));
}

export const command: Command = {
  data: {
    name: 'lobbies',
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'region',
        choices: LOBBY_REGIONS.map((value) => ({ value })),
      },
    ],
  },

  async execute(ctx) {
    const region = ctx.interaction.options.getString('region');
    if (region !== null && !isLobbyRegion(region)) throw new UserError('lobbies:errors.region');
    return showLobbies(ctx, region ?? undefined, 1);
  },

  async component(ctx) {
    if (ctx.id.action !== 'page') throw new UserError('common:errors.unknownComponent');
    const [region = '', pageArg] = ctx.id.args;
    const page = Number(pageArg);
    return showLobbies(
      ctx,
      isLobbyRegion(region) ? region : undefined,
      Number.isInteger(page) && page >= 1 ? page : 1,
    );
  },
};
