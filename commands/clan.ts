import { nameOption, pageOption, parsePage } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { COMPONENT_LIFETIME_MS, defineComponents } from '../src/discord/component-id.ts';
import { UserError } from '../src/core/user-error.ts';
import { NameNotFoundError } from '../src/render/suggest.ts';
import { nameSearchOf } from '../src/search/index.ts';
import { renderClanMembers, renderClanProfile } from '../src/features/clans/render.ts';
import { pastTimes } from '../src/render/common.ts';

const name = nameOption('clan', true);
const page = pageOption;

/** The ids of this command's buttons; exported for the renderer tests. */
export const ids = defineComponents('clan', {
  members: ['name', 'page'],
  /** A "did you mean" button: runs `sub` (profile or members) for the clan `name`. */
  find: ['sub', 'name'],
});

type Sub = 'profile' | 'members';

export const clanIds = {
  /** The profile's button to the first page of members. */
  members: (clanName: string, now: number) =>
    ids.encode.members({ name: clanName, page: 1 }, now + COMPONENT_LIFETIME_MS),
  membersPager: (clanName: string, now: number) =>
    ids.pager(now, (p, at) => ids.encode.members({ name: clanName, page: p }, at)),
  find: (sub: Sub, clanName: string, now: number) =>
    ids.encode.find({ sub, name: clanName }, now + COMPONENT_LIFETIME_MS),
};

type Context = CommandContext | ComponentContext;

/** A clan name as given, trimmed; Discord enforces the length, this catches a name of spaces only. */
export function clanNameOf(value: string | null | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') throw new UserError('clan:errors.nameRequired');
  return trimmed;
}

/** The clan; when there is none of that name, the error names it and offers up to three close names. */
async function loadClan(ctx: Context, clanName: string, sub: Sub) {
  try {
    return await ctx.load('clan', { clanName });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const close = await nameSearchOf(ctx.services).didYouMean('clan', clanName);
    const choices = close.map((name) => ({ name, customId: clanIds.find(sub, name, ctx.now) }));
    throw new NameNotFoundError('common:notFound.clan', clanName, choices);
  }
}

async function showProfile(ctx: Context, clanName: string): Promise<void> {
  const clan = await loadClan(ctx, clanName, 'profile');
  ctx.services.names.remember('clan', clan.name);
  ctx.services.names.remember('player', clan.owner_name);
  await ctx.send(
    renderClanProfile(ctx.t, clan, clanIds.members(clan.name, ctx.now), pastTimes(ctx.now, ctx.services.log)),
  );
}

async function showMembers(ctx: Context, clanName: string, pageNo: number): Promise<void> {
  // The profile gives the clan's own spelling and its member count (so the pager knows the last page).
  const clan = await loadClan(ctx, clanName, 'members');
  const data = await ctx.load('clanMembers', { clanName: clan.name, page: pageNo });
  ctx.services.names.remember('clan', clan.name);
  ctx.services.names.remember('player', ...data.members.map((member) => member.player_name));
  await ctx.send(
    renderClanMembers(ctx.t, {
      name: clan.name,
      data,
      page: pageNo,
      memberCount: clan.member_count,
      pager: clanIds.membersPager(clan.name, ctx.now),
    }),
  );
}

const data = {
  name: 'clan',
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'profile', options: [name] },
    { type: ApplicationCommandOptionType.Subcommand, name: 'members', options: [name, page] },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    const clanName = clanNameOf(args.name);
    switch (args.subcommand) {
      case 'profile':
        return showProfile(ctx, clanName);
      case 'members':
        return showMembers(ctx, clanName, parsePage(args.page) ?? 1);
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (id?.action === 'members')
      return showMembers(ctx, clanNameOf(id.args.name), parsePage(id.args.page) ?? 1);
    if (id?.action === 'find' && id.args.sub === 'profile') return showProfile(ctx, clanNameOf(id.args.name));
    if (id?.action === 'find' && id.args.sub === 'members')
      return showMembers(ctx, clanNameOf(id.args.name), 1);
    throw new UserError('common:errors.unknownComponent');
  },
};
