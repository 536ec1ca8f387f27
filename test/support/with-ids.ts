import { clanIds } from '../../commands/clan.ts';
import { kpdIds } from '../../commands/kpd.ts';
import { leaderboardIds } from '../../commands/leaderboard.ts';
import { lobbiesIds } from '../../commands/lobbies.ts';
import { matchIds } from '../../commands/match.ts';
import { mapIds } from '../../commands/map.ts';
import { marketIds } from '../../commands/market.ts';
import { modsIds } from '../../commands/mods.ts';
import { playerIds } from '../../commands/player.ts';
import type { ClanProfile, MapInfo } from '../../src/api/schemas/index.ts';
import type { Translator } from '../../src/i18n/index.ts';
import type { PageView } from '../../src/render/common.ts';
import * as clan from '../../src/features/clans/render.ts';
import * as kpd from '../../src/features/kpd/render.ts';
import * as leaderboard from '../../src/features/leaderboards/render.ts';
import * as lobbies from '../../src/features/lobbies/render.ts';
import * as map from '../../src/features/maps/render.ts';
import * as market from '../../src/features/market/render.ts';
import * as mods from '../../src/features/mods/render.ts';
import * as player from '../../src/features/players/render.ts';

/**
 * The renderers that show buttons, given the custom ids their command makes (renderers take ids
 * ready-made): each takes the view it took before, with `now`, and builds the ids as the command does.
 */
type WithNow<V> = Omit<V, 'pager' | 'menuId'> & { readonly now: number };
type Distribute<V> = V extends unknown ? WithNow<V> : never;

export const renderClanProfile = (t: Translator, data: ClanProfile, now: number) =>
  clan.renderClanProfile(t, data, clanIds.members(data.name, now));
export const renderClanMembers = (t: Translator, view: WithNow<clan.ClanMembersView>) =>
  clan.renderClanMembers(t, { ...view, pager: clanIds.membersPager(view.name, view.now) });

export const renderKpdCalls = (t: Translator, view: WithNow<kpd.KpdCallsView>) =>
  kpd.renderKpdCalls(t, { ...view, pager: kpdIds.callsPager(view.now) });

export const renderRankedLeaderboard = (t: Translator, view: WithNow<leaderboard.RankedView>) =>
  leaderboard.renderRankedLeaderboard(t, {
    ...view,
    pager: leaderboardIds.ranked(view.region, view.season, view.now),
  });
export const renderPlayerBoard = (t: Translator, view: WithNow<leaderboard.PlayerBoardView>) =>
  leaderboard.renderPlayerBoard(t, {
    ...view,
    pager: leaderboardIds.players(view.board, view.season, view.now),
  });
export const renderClanBoard = (t: Translator, view: WithNow<leaderboard.ClanBoardView>) =>
  leaderboard.renderClanBoard(t, { ...view, pager: leaderboardIds.clans(view.sort, view.now) });
export const renderRaidBoard = (t: Translator, view: WithNow<leaderboard.RaidBoardView>) =>
  leaderboard.renderRaidBoard(t, { ...view, pager: leaderboardIds.raids(view.mapId, view.now) });
export const renderCupBoard = (t: Translator, view: Distribute<leaderboard.CupView>) =>
  leaderboard.renderCupBoard(t, {
    ...view,
    pager: leaderboardIds.cup(view.board, view.now),
  });

export const renderLobbies = (t: Translator, view: WithNow<lobbies.LobbiesView>) =>
  lobbies.renderLobbies(t, { ...view, pager: lobbiesIds.pager(view.region, view.now) });

export const renderMapInfo = (t: Translator, data: MapInfo, now: number) =>
  map.renderMapInfo(t, data, mapIds.leaderboard(data, now));
export const renderMapLeaderboard = (t: Translator, view: WithNow<map.MapLeaderboardView>) =>
  map.renderMapLeaderboard(t, {
    ...view,
    pager: mapIds.leaderboardPager(
      view.data.map_name ?? view.name,
      view.type ?? view.data.leaderboard_type,
      view.order ?? view.data.leaderboard_order,
      view.now,
    ),
  });

export const renderMarketSkin = (t: Translator, view: WithNow<market.MarketSkinView>) =>
  market.renderMarketSkin(t, {
    ...view,
    pager: marketIds.listings(view.data.skin_index, view.days, view.now),
  });

export const renderModList = (t: Translator, view: WithNow<mods.ModListView>) =>
  mods.renderModList(t, { ...view, pager: modsIds.listPager(view.now) });

export const renderProfile = (t: Translator, view: WithNow<player.ProfileView>) =>
  player.renderProfile(t, { ...view, menuId: playerIds.section(view.profile.player_name, view.now) });
/** With the match buttons of `/player matches` unless the view says otherwise. */
export const renderMatches = (t: Translator, view: WithNow<player.MatchesView>) =>
  player.renderMatches(t, {
    openMatch: (matchId: string) => matchIds.open(matchId, view.now),
    ...view,
    pager: playerIds.matches(view.name, view.season, view.now),
  });
export const renderListings = (
  t: Translator,
  view: WithNow<PageView<Parameters<typeof player.renderListings>[1]['data']>>,
  skinName: Parameters<typeof player.renderListings>[2],
) => player.renderListings(t, { ...view, pager: playerIds.listings(view.name, view.now) }, skinName);
export const renderPosts = (
  t: Translator,
  view: WithNow<PageView<Parameters<typeof player.renderPosts>[1]['data']>>,
) => player.renderPosts(t, { ...view, pager: playerIds.posts(view.name, view.now) });
