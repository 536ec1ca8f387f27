import { nameOption, pageOption } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import type {
  AutocompleteChoice,
  Command,
  CommandContext,
  ComponentContext,
} from '../src/discord/command.ts';
import { resolvePlayerName } from '../src/link/accounts.ts';
import { UserError } from '../src/core/user-error.ts';
import {
  isProfileSection,
  renderInventory,
  renderListings,
  renderMatches,
  renderPosts,
  renderProfile,
  type ProfileSection,
} from '../src/render/player.ts';

// Optional: it defaults to the user's linked account.
const name = nameOption(false, 64);
const page = pageOption;

async function showProfile(
  ctx: CommandContext | ComponentContext,
  playerName: string,
  section: ProfileSection,
) {
  const profile = await ctx.load('player', { playerName });
  ctx.services.names.remember('player', profile.player_name);
  ctx.services.names.remember('clan', profile.clan);
  await ctx.send(renderProfile(ctx.t, { profile, section, now: ctx.now }));
}

async function showMatches(
  ctx: CommandContext | ComponentContext,
  playerName: string,
  season: number | undefined,
  pageNo: number,
) {
  const data = await ctx.load('playerMatches', { playerName, page: pageNo, ...(season ? { season } : {}) });
  await ctx.send(renderMatches(ctx.t, { name: playerName, data, page: pageNo, season, now: ctx.now }));
}

async function showListings(ctx: CommandContext | ComponentContext, playerName: string, pageNo: number) {
  const data = await ctx.load('playerListings', { playerName, page: pageNo });
  const skinName = (index: number) => ctx.services.names.skinName(index);
  await ctx.send(renderListings(ctx.t, { name: playerName, data, page: pageNo, now: ctx.now }, skinName));
}

async function showPosts(ctx: CommandContext | ComponentContext, playerName: string, pageNo: number) {
  const data = await ctx.load('playerPosts', { playerName, page: pageNo });
  await ctx.send(renderPosts(ctx.t, { name: playerName, data, page: pageNo, now: ctx.now }));
}

export const command: Command = {
  data: {
    name: 'player',
    options: [
      { type: ApplicationCommandOptionType.Subcommand, name: 'profile', options: [name] },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'matches',
        options: [
          name,
          { type: ApplicationCommandOptionType.Integer, name: 'season', min_value: 0, max_value: 1000 },
          page,
        ],
      },
      { type: ApplicationCommandOptionType.Subcommand, name: 'inventory', options: [name] },
      { type: ApplicationCommandOptionType.Subcommand, name: 'listings', options: [name, page] },
      { type: ApplicationCommandOptionType.Subcommand, name: 'posts', options: [name, page] },
    ],
  },

  async execute(ctx) {
    const { interaction } = ctx;
    const playerName = await resolvePlayerName(interaction, ctx.services);
    const pageNo = interaction.options.getInteger('page') ?? 1;
    switch (interaction.options.getSubcommand()) {
      case 'profile':
        return showProfile(ctx, playerName, 'overview');
      case 'matches':
        return showMatches(ctx, playerName, interaction.options.getInteger('season') ?? undefined, pageNo);
      case 'inventory': {
        const items = await ctx.load('playerInventory', { playerName });
        ctx.services.names.remember('player', playerName);
        return ctx.send(
          renderInventory(ctx.t, playerName, items, (index) => ctx.services.names.skinName(index)),
        );
      }
      case 'listings':
        return showListings(ctx, playerName, pageNo);
      case 'posts':
        return showPosts(ctx, playerName, pageNo);
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const { action, args } = ctx.id;
    const [playerName = '', ...rest] = args;
    const pageNo = Math.max(1, Number(rest.at(-1) ?? 1));
    switch (action) {
      case 'section': {
        const section = ctx.interaction.isStringSelectMenu() ? ctx.interaction.values[0] : undefined;
        return showProfile(ctx, playerName, isProfileSection(section) ? section : 'overview');
      }
      case 'matches': {
        const season = Number(rest[0] ?? 0);
        return showMatches(ctx, playerName, season > 0 ? season : undefined, pageNo);
      }
      case 'listings':
        return showListings(ctx, playerName, pageNo);
      case 'posts':
        return showPosts(ctx, playerName, pageNo);
      default:
        throw new UserError('common:errors.unknownComponent');
    }
  },

  autocomplete(ctx): Promise<AutocompleteChoice[]> {
    return Promise.resolve(ctx.services.names.suggest('player', ctx.interaction.options.getFocused()));
  },
};
