import { ApiError, NotFoundError } from '../../../api/errors.ts';
import type { ClanLootConfig, ClanMotd, ClanProfile } from '../../../api/schemas/index.ts';
import { UserError } from '../../../core/user-error.ts';
import type { CommandContext, ComponentContext } from '../../../discord/command.ts';
import { gather } from '../../../discord/gather.ts';
import { renderClanMembers } from '../render.ts';
import { pastTimes } from '../../../render/common.ts';
import { clanNotFound } from '../../../search/not-found.ts';
import { clanPageButtons, type BoardState, type ClanSub } from './ids.ts';
import { renderClanPage } from './profile.ts';
import { RECRUIT_PAGE_SIZE, renderRecruitment } from './recruitment.ts';

/** The command half of `/clan`: loads what a page needs and renders it. */
type Context = CommandContext | ComponentContext;

/** A clan name as given, trimmed; Discord enforces the length, this catches a name of spaces only. */
export function clanNameOf(value: string | null | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') throw new UserError('clan:errors.nameRequired');
  return trimmed;
}

/**
 * The clan's developer-API profile; when there is none of that name, the error names it, says clan
 * names are exact, and offers up to three close names.
 */
async function loadClan(ctx: Context, clanName: string, sub: ClanSub): Promise<ClanProfile> {
  try {
    return await ctx.load('clan', { clanName });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const idFor = (name: string) => clanPageButtons.find(sub, name, ctx.now);
    const asker = { user: ctx.interaction.user.id, guild: ctx.interaction.guildId };
    throw await clanNotFound(ctx.services, clanName, idFor, 'clan:errors.notFoundExact', asker);
  }
}

/** A part of the page the game may not give: its failure costs that part, not the profile. */
async function optional<T>(load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** The message of the day and the loot split, read by the clan's id (the game tier's by-name lookup). */
async function clanWords(
  ctx: Context,
  clanName: string,
): Promise<{ motd: ClanMotd | undefined; loot: ClanLootConfig | undefined }> {
  const game = await optional(() => ctx.load('clanByName', { clanName }));
  if (!game) return { motd: undefined, loot: undefined };
  const clanId = game.clan_id;
  const [motd, loot] = await gather(ctx, [
    () => optional(() => ctx.load('clanMotd', { clanId })),
    () => optional(() => ctx.load('clanLootConfig', { clanId })),
  ] as const);
  return { motd, loot };
}

/** `/clan profile`, or a clan opened from the recruitment board (`from`: the page to go back to). */
export async function showClanProfile(ctx: Context, clanName: string, from?: BoardState): Promise<void> {
  const clan = await loadClan(ctx, clanName, 'profile');
  const { motd, loot } = await clanWords(ctx, clan.name);
  ctx.services.names.remember('clan', clan.name);
  ctx.services.names.remember('player', clan.owner_name);
  await ctx.send(
    renderClanPage(ctx.t, {
      clan,
      motd,
      loot,
      membersId: clanPageButtons.members(clan.name, ctx.now),
      backId: from ? clanPageButtons.back(from, ctx.now) : undefined,
      past: pastTimes(ctx.now, ctx.services.log),
    }),
  );
}

export async function showClanMembers(ctx: Context, clanName: string, pageNo: number): Promise<void> {
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
      pager: clanPageButtons.membersPager(clan.name, ctx.now),
    }),
  );
}

/** `/clan recruitment`: one page of the recruitment board, filtered by region and language. */
export async function showRecruitment(ctx: Context, state: BoardState): Promise<void> {
  const data = await ctx.load('clanRecruitment', {
    page: state.page,
    limit: RECRUIT_PAGE_SIZE,
    ...(state.region === undefined ? {} : { region: state.region }),
    ...(state.language === undefined ? {} : { language: state.language }),
  });
  ctx.services.names.remember('clan', ...data.clans.map((clan) => clan.name));
  await ctx.send(
    renderRecruitment(ctx.t, {
      data,
      ...state,
      pager: clanPageButtons.recruitPager(state, ctx.now),
      openId: (name) => clanPageButtons.open(name, state, ctx.now),
    }),
  );
}
