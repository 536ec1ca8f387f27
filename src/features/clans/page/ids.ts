import { COMPONENT_LIFETIME_MS, defineComponents } from '../../../discord/component-id.ts';

/**
 * The custom ids of `/clan`'s buttons. The recruitment board's state (region, language, page; '' for
 * "any") travels in its page buttons and in each clan's button, so the profile it opens can lead back.
 */
export const clanPageIds = defineComponents('clan', {
  members: ['name', 'page'],
  /** A "did you mean" button: runs `sub` (profile or members) for the clan `name`. */
  find: ['sub', 'name'],
  recruit: ['region', 'language', 'page'],
  /** A clan of the recruitment board: opens its profile, with a button back to that page. */
  open: ['name', 'region', 'language', 'page'],
});

export type ClanSub = 'profile' | 'members';

/** Where a recruitment page stands: its filters and its page. */
export interface BoardState {
  readonly region: number | undefined;
  readonly language: string | undefined;
  readonly page: number;
}

const given = <T>(value: T | undefined) => value ?? '';

export const clanPageButtons = {
  /** The profile's button to the first page of members. */
  members: (clanName: string, now: number) =>
    clanPageIds.encode.members({ name: clanName, page: 1 }, now + COMPONENT_LIFETIME_MS),
  membersPager: (clanName: string, now: number) =>
    clanPageIds.pager(now, (p, at) => clanPageIds.encode.members({ name: clanName, page: p }, at)),
  find: (sub: ClanSub, clanName: string, now: number) =>
    clanPageIds.encode.find({ sub, name: clanName }, now + COMPONENT_LIFETIME_MS),
  recruitPager: (state: BoardState, now: number) =>
    clanPageIds.pager(now, (page, at) =>
      clanPageIds.encode.recruit({ region: given(state.region), language: given(state.language), page }, at),
    ),
  /** Back to a recruitment page from a profile opened there. */
  back: (state: BoardState, now: number) =>
    clanPageIds.encode.recruit(
      { region: given(state.region), language: given(state.language), page: state.page },
      now + COMPONENT_LIFETIME_MS,
    ),
  open: (clanName: string, state: BoardState, now: number) =>
    clanPageIds.encode.open(
      { name: clanName, region: given(state.region), language: given(state.language), page: state.page },
      now + COMPONENT_LIFETIME_MS,
    ),
};
