import {
  renderClanBoard,
  renderClanMembers,
  renderClanProfile,
  renderCupBoard,
  renderKpdCalls,
  renderListings,
  renderLobbies,
  renderMapInfo,
  renderMapLeaderboard,
  renderMarketSkin,
  renderMatches,
  renderModList,
  renderPlayerBoard,
  renderPosts,
  renderProfile,
  renderRaidBoard,
  renderRankedLeaderboard,
} from './with-ids.ts';
import type { KpdCall, Lobby, PlayerProfile } from '../../src/api/schemas/index.ts';
import { UserError } from '../../src/core/user-error.ts';
import type { Translator } from '../../src/i18n/index.ts';
import {
  renderMapFeatured,
  renderMapUnfeatured,
  renderTurfDaily,
  renderTurfOwnerChange,
} from '../../src/announcements/render-posts.ts';

import { renderError } from '../../src/render/errors.ts';

import {
  renderKpdCallChanged,
  renderKpdLinked,
  renderKpdNewCall,
  renderKpdUnlinked,
} from '../../src/features/kpd/render.ts';
import {
  renderLinkNotFound,
  renderLinkStarted,
  renderLinkVerified,
  renderUnlinked,
} from '../../src/features/links/render.ts';

import { renderFeaturedMaps, renderMapRank } from '../../src/features/maps/render.ts';
import { renderMatch } from '../../src/features/players/matches.ts';

import {
  renderMarketHistory,
  renderMatchHistory,
  renderOwnListings,
  renderRankedProfile,
  renderRankedProfileRegion,
  renderTrades,
  renderWallet,
} from '../../src/features/tokens/render.ts';

import { renderModInfo } from '../../src/features/mods/render.ts';
import type { ReplyPayload } from '../../src/render/payload.ts';
import { renderInventory } from '../../src/features/players/render.ts';
import {
  renderSubscribed,
  renderSubscriptionList,
  renderUnsubscribed,
  type SubscriptionView,
} from '../../src/announcements/render-subscriptions.ts';

import { text } from '../../src/render/common.ts';

import { renderTurfClan, renderTurfPlayer, renderTurfStatus } from '../../src/features/turf/render.ts';
import {
  renderTrackClan,
  renderTrackLevel,
  renderTrackList,
  renderTrackMatch,
  renderTracked,
  renderUntracked,
} from '../../src/features/tracking/render.ts';
import { renderCompare, renderHistory } from '../../src/features/history/render.ts';
import { renderServerLeaderboard } from '../../src/features/history/server-board.ts';
import type { Snapshot, SnapshotStats } from '../../src/players/stats.ts';
import {
  renderRoleRules,
  renderRuleAdded,
  renderRuleRemoved,
  renderSync,
} from '../../src/features/roles/render.ts';
import type { RoleRule } from '../../src/features/roles/rules.ts';

/**
 * Every renderer of src/render, fed `name` wherever the game or a user supplies text (player, clan, map,
 * mod, skin, team names, descriptions, posts), with `count` items in every list the API sends.
 */
export interface Rendered {
  readonly name: string;
  readonly payload: ReplyPayload;
  /** Whether `name` must be visible in the reply (some replies carry no game or user text). */
  readonly shows: boolean;
}

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const DATE = '2026-05-19T10:00:00Z';

export interface Renderer {
  readonly name: string;
  readonly render: () => ReplyPayload | Promise<ReplyPayload>;
  readonly shows: boolean;
}

export async function everyRenderer(t: Translator, name: string, count = 3): Promise<Rendered[]> {
  const rendered: Rendered[] = [];
  // One after another: a renderer that draws a chart awaits it, and the next one starts after.
  for (const { name: rendererName, render, shows } of renderers(t, name, count))
    rendered.push({ name: rendererName, payload: await render(), shows });
  return rendered;
}

/** The renderers, not run yet. */
export function renderers(t: Translator, name: string, count = 3): Renderer[] {
  const many = <T>(make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));
  const skinName = () => name;
  const call: KpdCall = {
    id: 7,
    date: DATE,
    caller_name: name,
    called_id: 9,
    called_name: name,
    kdf_type: 99,
    kdf_type_label: name,
    status: 2,
    status_label: name,
    rating: 9,
    rating_label: name,
    officer_id: 3,
    officer_name: name,
    status_date: DATE,
  };
  const profile: PlayerProfile = {
    player_id: 1,
    player_name: name,
    clan: name,
    ranked: many((i) => ({ region: 2 + (i % 3), mmr: 1000 + i, wins: 3, losses: 2, kills: 5, deaths: 4 })),
    class_stats: Object.fromEntries(many((i) => [`${name}${i}`, i])),
  };
  const lobbies: Lobby[] = many((i) => ({
    gameId: `${name}:${i}`,
    regionKey: i % 2 === 0 ? 'de-fra' : `${name}${i}`,
    players: i % 8,
    maxPlayers: 8,
    options: { map: name, mode: 1, custom: true },
    secondsLeft: 60,
  }));
  const subscription = (i: number): SubscriptionView => ({
    id: `s${i}`,
    kind: name,
    channelId: '123',
    details: text(name, 100),
    createdAt: NOW,
    state: i % 2 === 0 ? { status: 'active' } : { status: 'disabled', reason: name, code: 50013, at: NOW },
  });
  const clanRef = { clanId: 5, clanName: name };
  const roleRule = (i: number): RoleRule => ({
    id: `r${i}`,
    guildId: '1',
    kind: 'clan',
    params: { clan: name },
    roleIds: ['9', '10'],
    state: i % 2 === 0 ? { status: 'active' } : { status: 'disabled', reason: 'deletedRole', at: NOW },
    createdBy: '1',
    createdAt: NOW,
  });
  const snapshotStats: SnapshotStats = {
    score: 1000,
    kills: 50,
    deaths: 20,
    games: 10,
    wins: 6,
    level: 4,
    kr: 30,
    clan: name,
    ranked: many((i) => ({
      region: 2 + (i % 3),
      mmr: 1000 + i,
      wins: 3,
      losses: 2,
      kills: 5,
      deaths: 4,
      assists: 1,
      score: 9,
    })),
  };
  const snapshots: Snapshot[] = many((i) => ({
    playerId: 1,
    playerName: name,
    at: NOW - i * 3_600_000,
    stats: snapshotStats,
  }));
  const pending = { playerName: name, code: 'ABC123', issuedAt: NOW, expiresAt: NOW + 600_000 };

  const all: Array<[string, () => ReplyPayload | Promise<ReplyPayload>, boolean?]> = [
    [
      'renderMapFeatured',
      () => renderMapFeatured(t, { mapId: 1, mapName: name, creator: name, featuredAt: NOW }, '9'),
    ],
    [
      'renderMapUnfeatured',
      () => renderMapUnfeatured(t, { mapName: name, creator: name, featuredAt: NOW }, NOW),
    ],
    [
      'renderTurfOwnerChange',
      () =>
        renderTurfOwnerChange(t, {
          mapId: 2,
          day: 5,
          previous: clanRef,
          current: { clanId: 6, clanName: name },
          at: NOW,
          clan: clanRef,
        }),
    ],
    ['renderTurfDaily', () => renderTurfDaily(t, { clan: clanRef, day: 64, kr: 10 })],
    [
      'renderClanProfile',
      () =>
        renderClanProfile(
          t,
          { name, owner_name: name, score: 1, rank: 2, member_count: 3, discord: name },
          NOW,
        ),
    ],
    [
      'renderClanMembers',
      () =>
        renderClanMembers(t, {
          name,
          data: {
            members: many((i) => ({ player_name: name, role: i, verified: i % 2 === 0, score: i })),
            per_page: 10,
          },
          page: 1,
          memberCount: count,
          now: NOW,
        }),
    ],
    [
      'renderError',
      () => renderError(new UserError('clan:errors.notFound', { name: text(name, 100) }), t, 'id'),
    ],
    [
      'renderKpdCalls',
      () => renderKpdCalls(t, { calls: many((i) => ({ ...call, id: i })), page: 1, now: NOW }),
    ],
    ['renderKpdLinked', () => renderKpdLinked(t, { prefix: 'kr_ab', visibleCalls: 3 }), false],
    ['renderKpdUnlinked', () => renderKpdUnlinked(t, true), false],
    ['renderKpdNewCall', () => renderKpdNewCall(t, call)],
    ['renderKpdCallChanged', () => renderKpdCallChanged(t, call, { status: 1, rating: 0 })],
    [
      'renderRankedLeaderboard',
      () =>
        renderRankedLeaderboard(t, {
          data: { entries: many((i) => ({ player_name: name, position: i + 1, mmr: 1 })), per_page: 10 },
          region: 3,
          season: 0,
          page: 1,
          now: NOW,
        }),
    ],
    [
      'renderPlayerBoard',
      () =>
        renderPlayerBoard(t, {
          board: 'kills',
          data: { rows: many((i) => ({ player_name: name, clan: name, position: i + 1, value: i })) },
          season: undefined,
          page: 1,
          now: NOW,
        }),
    ],
    [
      'renderClanBoard',
      () =>
        renderClanBoard(t, {
          data: { rows: many((i) => ({ clan_id: i, clan_name: name, value: i })) },
          sort: undefined,
          page: 1,
          now: NOW,
        }),
    ],
    [
      'renderRaidBoard',
      () =>
        renderRaidBoard(t, {
          data: { rows: many((i) => ({ player_name: name, value: i })) },
          mapId: 31,
          page: 1,
          now: NOW,
        }),
    ],
    [
      'renderCupBoard players',
      () =>
        renderCupBoard(t, {
          board: 'players',
          data: { rows: many(() => ({ player_name: name, value: 1 })) },
          page: 1,
          now: NOW,
        }),
    ],
    [
      'renderCupBoard teams',
      () =>
        renderCupBoard(t, {
          board: 'teams',
          data: { rows: many((i) => ({ team_id: i, team_name: name, value: 1 })) },
          page: 1,
          now: NOW,
        }),
    ],
    ['renderLinkStarted', () => renderLinkStarted(t, pending, 5)],
    ['renderLinkVerified', () => renderLinkVerified(t, name)],
    ['renderLinkNotFound', () => renderLinkNotFound(t, pending, 2)],
    ['renderUnlinked', () => renderUnlinked(t, name, false)],
    [
      'renderLobbies',
      () => renderLobbies(t, { data: { games: lobbies }, region: undefined, page: 1, now: NOW }),
    ],
    [
      'renderLobbies in a region',
      () => renderLobbies(t, { data: { games: lobbies }, region: 'de-fra', page: 1, now: NOW }),
    ],
    [
      'renderMapInfo',
      () =>
        renderMapInfo(
          t,
          {
            map_id: 1,
            name,
            description: name,
            creator_name: name,
            leaderboard_type: 'time',
            leaderboard_order: 0,
          },
          NOW,
        ),
    ],
    [
      'renderMapLeaderboard',
      () =>
        renderMapLeaderboard(t, {
          name,
          data: {
            entries: many((i) => ({ player_name: name, position: i + 1, value: 1000, date: DATE })),
            map_name: name,
          },
          page: 1,
          type: 'time',
          now: NOW,
        }),
    ],
    [
      'renderMapRank',
      () => renderMapRank(t, { player_name: name, map_name: name, leaderboard_type: name }, name),
    ],
    [
      'renderFeaturedMaps',
      () => renderFeaturedMaps(t, { maps: many((i) => ({ map_id: i, name, creator_name: name })) }),
    ],
    [
      'renderMarketSkin',
      () =>
        renderMarketSkin(t, {
          data: {
            skin_index: 4,
            total_listings: count,
            listings: many(() => ({ price: 10, seller_name: name, listed_at: DATE })),
            owners: many(() => ({ player_name: name, count: 1 })),
            price_history: many((i) => ({
              date: new Date(NOW - i * 86_400_000).toISOString().slice(0, 10),
              average_price: 5,
              sales: 1,
            })),
          },
          skinName: name,
          days: 30,
          page: 1,
          now: NOW,
        }),
    ],
    [
      'renderMatch',
      () =>
        renderMatch(t, {
          match: {
            match_id: '1',
            map: 3,
            participants: many((i) => ({ player_name: name, team: i % 2, victory: i % 2 })),
          },
          mapName: name,
        }),
    ],
    ['renderWallet', () => renderWallet(t, { kr: 1, currencies: many((i) => ({ id: i, name, amount: 1 })) })],
    [
      'renderMarketHistory',
      () =>
        renderMarketHistory(
          t,
          { entries: many((i) => ({ market_id: String(i), skin_index: i, side: 'sell' as const })) },
          skinName,
        ),
    ],
    [
      'renderOwnListings',
      () =>
        renderOwnListings(t, { listings: many((i) => ({ market_id: String(i), skin_index: i })) }, skinName),
    ],
    [
      'renderTrades',
      () =>
        renderTrades(
          t,
          { trades: many((i) => ({ id: String(i), st: 1, pn: name, gv: [1, 2], rc: [3] })) },
          1,
          skinName,
        ),
    ],
    [
      'renderRankedProfile',
      () => renderRankedProfile(t, { regions: many((i) => ({ region: 2 + i })) }),
      false,
    ],
    ['renderRankedProfileRegion', () => renderRankedProfileRegion(t, { region: 3 }), false],
    [
      'renderMatchHistory',
      () =>
        renderMatchHistory(
          t,
          { matches: many((i) => ({ match_id: String(i), map: 3, result: 1 })) },
          1,
          () => name,
        ),
    ],
    [
      'renderModList',
      () =>
        renderModList(t, {
          data: { mods: many((i) => ({ mod_id: i, name, creator_name: name })) },
          page: 1,
          now: NOW,
        }),
    ],
    ['renderModInfo', () => renderModInfo(t, { mod_id: 1, name, description: name, creator_name: name })],
    ['renderProfile overview', () => renderProfile(t, { profile, section: 'overview', now: NOW })],
    ['renderProfile ranked', () => renderProfile(t, { profile, section: 'ranked', now: NOW })],
    ['renderProfile classes', () => renderProfile(t, { profile, section: 'classes', now: NOW })],
    [
      'renderMatches',
      () =>
        renderMatches(t, {
          name,
          data: { matches: many((i) => ({ match_id: String(i), victory: 1 })) },
          page: 1,
          now: NOW,
          season: undefined,
        }),
    ],
    [
      'renderListings',
      () =>
        renderListings(
          t,
          {
            name,
            data: { listings: many((i) => ({ market_id: String(i), skin_index: i })) },
            page: 1,
            now: NOW,
          },
          skinName,
        ),
    ],
    [
      'renderPosts',
      () =>
        renderPosts(t, {
          name,
          data: { posts: many(() => ({ text: name, date: DATE })) },
          page: 1,
          now: NOW,
        }),
    ],
    [
      'renderInventory',
      () =>
        renderInventory(
          t,
          name,
          many((i) => ({ skin_index: i, count: i })),
          skinName,
        ),
    ],
    ['renderSubscriptionList', () => renderSubscriptionList(t, many(subscription))],
    ['renderSubscribed', () => renderSubscribed(t, subscription(0), 'created', [text(name, 100)])],
    ['renderUnsubscribed', () => renderUnsubscribed(t, subscription(1))],
    [
      'renderTurfStatus',
      () =>
        renderTurfStatus(t, {
          status: {
            maps: many((i) => ({
              map_id: i,
              owner: { clan_id: 1, clan_name: name },
              top_clans: [{ clan_id: 1, clan_name: name, points: 3 }],
            })),
            day: 64,
          },
          now: NOW,
        }),
    ],
    [
      'renderTurfClan',
      () =>
        renderTurfClan(t, {
          clan: { clan_id: 1, clan_name: name, maps_owned: many((i) => i) },
          earnings: { clan_id: 1, days: many((i) => ({ day: 60 - i, kr: 5 })) },
          players: { clan_id: 1, players: many((i) => ({ player_id: i, player_name: name, points: i })) },
          now: NOW,
        }),
    ],
    [
      'renderTurfPlayer',
      () =>
        renderTurfPlayer(t, {
          player: { player_id: 1, player_name: name, clan_name: name },
          contributions: {
            player_id: 1,
            contributions: many((i) => ({ day: 60 - (i % 9), map_id: i, points: 1 })),
          },
          earnings: { player_id: 1, earnings: many((i) => ({ day: 60 - i, kr: 1 })) },
          now: NOW,
        }),
    ],
    [
      'renderTrackMatch',
      () =>
        renderTrackMatch(
          t,
          {
            playerId: 1,
            playerName: name,
            matchId: '9007199254740993',
            map: 3,
            mapName: name,
            region: 3,
            kills: 10,
            deaths: 5,
            assists: 2,
            score: 900,
            victory: 1,
            mmrChange: -12,
            mmr: 1500,
            playedAt: NOW,
          },
          '9',
        ),
    ],
    ['renderTrackLevel', () => renderTrackLevel(t, { playerId: 1, playerName: name, from: 3, to: 4 })],
    ['renderTrackClan', () => renderTrackClan(t, { playerId: 1, playerName: name, from: name, to: '' })],
    [
      'renderTrackList',
      () =>
        renderTrackList(t, {
          entries: many((i) => ({
            id: `t${i}`,
            playerName: name,
            channelId: '123',
            roleId: i % 2 === 0 ? '9' : undefined,
            disabledReason: i % 3 === 0 ? 'unknownChannel' : undefined,
            refreshedAt: i % 2 === 0 ? NOW : undefined,
          })),
          limit: 50,
          intervalMs: 20 * 60_000,
          targetMs: 5 * 60_000,
        }),
    ],
    ['renderTracked', () => renderTracked(t, name, '123', 'abc234')],
    ['renderUntracked', () => renderUntracked(t, name, 'abc234')],
    [
      'renderHistory (no history yet)',
      () =>
        renderHistory(t, { playerName: name, stat: 'kd', days: 30, points: snapshots.slice(0, 1), now: NOW }),
    ],
    [
      'renderCompare (no chart)',
      () =>
        renderCompare(
          t,
          { playerName: name, stats: snapshotStats, history: [] },
          { playerName: `${name}2`, stats: { ...snapshotStats, kills: 1 }, history: [] },
          NOW,
        ),
    ],
    [
      'renderServerLeaderboard',
      () =>
        renderServerLeaderboard(t, {
          guildName: name,
          stat: 'mmr-3',
          rows: many((i) => ({ rank: i + 1, userId: `${100 + i}`, playerName: name, value: 1000 - i })),
          page: 1,
          pages: 3,
          total: count * 3,
          own: { rank: 99, userId: '999', playerName: name, value: 1 },
          pager: { page: (p) => `server:leaderboard:${p}`, label: undefined },
        }),
    ],
    [
      'renderRoleRules',
      () =>
        renderRoleRules(
          t,
          many((i) => roleRule(i)),
        ),
    ],
    ['renderRuleAdded', () => renderRuleAdded(t, roleRule(0))],
    ['renderRuleRemoved', () => renderRuleRemoved(t, roleRule(0), 3)],
    [
      'renderSync',
      () =>
        renderSync(
          t,
          {
            members: count,
            changes: many((i) => ({
              userId: `${100 + i}`,
              roleId: '9',
              action: i % 2 === 0 ? 'add' : 'remove',
              rule: roleRule(i),
            })),
            left: 1,
            disabledRules: ['abc234'],
            withoutNumbers: 2,
            refused: true,
          },
          false,
        ),
      false,
    ],
  ];
  return all.map(([rendererName, render, shows = true]) => ({ name: rendererName, render, shows }));
}
