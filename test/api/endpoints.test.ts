import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TierClient, type RouteName } from '../../src/api/client.ts';
import { routes } from '../../src/api/routes/index.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';

/**
 * Every route of the table, once, against the sandbox: the reply passes its schema through the whole
 * pipeline (auth per tier, envelope per host, big ids, soft refusals). A route added to the table
 * without a sample here fails the coverage test.
 */
let sandbox: Sandbox;
let client: TierClient;
let token: string;
let staffToken: string;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  client = new TierClient({ urls: sandbox.urls, apiKey: sandbox.keys.kpd });
  token = sandbox.issueToken({ playerName: sandbox.world.samples.rankedPlayer });
  staffToken = sandbox.issueToken({
    playerName: sandbox.world.samples.kpdPlayer,
    roles: ['moderator', 'kpd_reviewer'],
  });
});

afterAll(async () => {
  await client.close();
  await sandbox.close();
});

type Sample = (
  w: Sandbox['world'],
) => Promise<{ params?: unknown; staff?: boolean }> | { params?: unknown; staff?: boolean };

const player = (w: Sandbox['world']) => w.samples.player;
const clanId = (w: Sandbox['world']) => w.clans[0]!.id;
const playerId = (w: Sandbox['world']) => w.players.find((p) => p.name === w.samples.player)!.id;
const season = (w: Sandbox['world']) => w.currentSeason;

const samples: Record<RouteName, Sample> = {
  player: (w) => ({ params: { playerName: player(w) } }),
  playerInventory: (w) => ({ params: { playerName: player(w) } }),
  playerListings: (w) => ({ params: { playerName: player(w), page: 1 } }),
  playerMatches: (w) => ({ params: { playerName: w.samples.rankedPlayer, page: 1 } }),
  playerPosts: (w) => ({ params: { playerName: player(w), page: 1 } }),
  clan: (w) => ({ params: { clanName: w.samples.clan } }),
  clanMembers: (w) => ({ params: { clanName: w.samples.clan, page: 1 } }),
  events: () => ({ params: { after: 0, types: ['map.featured', 'map.unfeatured'], limit: 100 } }),
  kpdLatestCalls: () => ({}),
  rankedLeaderboard: () => ({ params: { region: 3, page: 1 } }),
  map: (w) => ({ params: { mapName: w.samples.featuredMap } }),
  featuredMaps: () => ({}),
  mapLeaderboard: (w) => ({ params: { mapName: w.samples.timeBoardMap, page: 1 } }),
  mapLeaderboardPlayer: async (w) => {
    const board = await client.api.mapLeaderboard({ mapName: w.samples.scoreBoardMap });
    return { params: { mapName: w.samples.scoreBoardMap, playerName: board.entries[0]!.player_name } };
  },
  marketSkin: (w) => ({ params: { skinIndex: w.samples.skinIndex, days: 30 } }),
  match: (w) => ({ params: { matchId: w.samples.matchId } }),
  mods: () => ({ params: { page: 1 } }),
  mod: (w) => ({ params: { modName: w.samples.mod } }),
  skins: () => ({ params: { page: 1, perPage: 50 } }),
  gamePlayer: (w) => ({ params: { playerName: player(w) } }),
  playerSearch: () => ({ params: { query: 'kill' } }),
  playerFollowers: (w) => ({ params: { playerName: player(w) } }),
  playerFollowing: (w) => ({ params: { playerName: player(w) } }),
  playerSales: (w) => ({ params: { playerName: player(w) } }),
  playerFeed: (w) => ({ params: { playerName: player(w) } }),
  clanByName: (w) => ({ params: { clanName: w.samples.clan } }),
  clanProfile: (w) => ({ params: { clanId: clanId(w) } }),
  clanLootConfig: (w) => ({ params: { clanId: clanId(w) } }),
  clanMotd: (w) => ({ params: { clanId: clanId(w) } }),
  clanRecruitment: () => ({ params: { page: 1, limit: 10 } }),
  leaderboard: () => ({ params: { board: 'kills' } }),
  clanLeaderboard: () => ({}),
  raidLeaderboard: () => ({ params: { mapId: 31 } }),
  cupPlayerLeaderboard: () => ({}),
  cupTeamLeaderboard: () => ({}),
  cupTeamContributors: async () => {
    const teams = await client.api.cupTeamLeaderboard();
    return { params: { teamId: teams.rows[0]!.team_id } };
  },
  officialMaps: () => ({}),
  mapByName: (w) => ({ params: { mapName: w.samples.featuredMap } }),
  mapByNameLeaderboard: (w) => ({ params: { mapName: w.samples.timeBoardMap, page: 1 } }),
  mapFile: (w) => ({ params: { mapId: w.officialMaps[0]!.id } }),
  modByName: (w) => ({ params: { modName: w.samples.mod } }),
  itemView: (w) => ({ params: { skinIndex: w.samples.skinIndex } }),
  itemInstances: (w) => ({ params: { skinIndex: w.samples.skinIndex } }),
  itemSales: (w) => ({ params: { skinIndex: w.samples.skinIndex } }),
  marketStats: () => ({ params: { sort: 'rarity' } }),
  marketSalesStatistics: (w) => ({ params: { skinIndex: w.samples.skinIndex } }),
  marketItemSales: (w) => ({ params: { skinIndex: w.samples.skinIndex } }),
  socialFeed: () => ({ params: { tab: 'global' } }),
  socialNews: () => ({}),
  socialPost: (w) => ({ params: { postId: w.posts[0]!.id } }),
  shopDisplays: () => ({}),
  wildOffer: () => ({}),
  rankedShop: () => ({}),
  spinWheels: () => ({}),
  titles: () => ({}),
  lottery: () => ({ params: { lotteryId: 1 } }),
  gameList: () => ({}),
  cupWristband: () => ({}),
  creatorEvents: () => ({}),
  turfStatus: () => ({}),
  turfClan: (w) => ({ params: { clanId: clanId(w) } }),
  turfClanEarnings: (w) => ({ params: { clanId: clanId(w) } }),
  turfClanPayouts: (w) => ({ params: { clanId: clanId(w) } }),
  turfClanPlayers: (w) => ({ params: { clanId: clanId(w) } }),
  turfPlayer: (w) => ({ params: { playerId: playerId(w) } }),
  turfPlayerContributions: (w) => ({ params: { playerId: playerId(w) } }),
  turfPlayerEarnings: (w) => ({ params: { playerId: playerId(w) } }),
  turfTopPerformingClans: () => ({}),
  turfTopGrossingClans: () => ({}),
  turfTopPerformingPlayers: () => ({ params: { mapId: 0 } }),
  itemPrices: () => ({}),
  mapBrowser: () => ({ params: { index: 0, pos: 0 } }),
  modBrowser: () => ({ params: { index: 0, pos: 0 } }),
  lobbies: () => ({ params: { hostname: 'krunker.io' } }),
  accountBlob: () => ({}),
  wallet: () => ({}),
  usernames: () => ({}),
  emailPreferences: () => ({}),
  discordStatus: () => ({}),
  guestProfile: () => ({}),
  marketListings: () => ({}),
  marketHistory: () => ({ params: { limit: 10 } }),
  ownListings: () => ({}),
  blackMarket: () => ({}),
  blackMarketRank: () => ({}),
  customSkins: () => ({ params: { page: 1 } }),
  tradesHistory: () => ({ params: { offset: 0, limit: 10, includeOpen: true } }),
  tradeInventories: (w) => ({ params: { playerId: w.players[1]!.id } }),
  tradePlayerSearch: (w) => ({ params: { playerName: w.players[1]!.name } }),
  clanApplications: () => ({}),
  mapScriptData: (w) => ({ params: { mapId: w.maps[0]!.id, player: player(w) } }),
  mapVersions: (w) => ({ params: { mapId: w.maps[0]!.id } }),
  myStudios: () => ({}),
  studioInvites: () => ({}),
  studio: () => ({ params: { studioId: 700 } }),
  studioAnalytics: () => ({ params: { studioId: 700 } }),
  studioMonetization: () => ({ params: { studioId: 700 } }),
  studioSkins: () => ({ params: { studioId: 700 } }),
  playerChatBan: (w) => ({ params: { playerName: w.samples.hackerPlayer }, staff: true }),
  playerReports: (w) => ({ params: { playerName: w.samples.hackerPlayer }, staff: true }),
  kpdDemos: () => ({ params: { offset: 0 }, staff: true }),
  kpdDemo: (w) => ({ params: { demoId: String(w.kpdCalls[0]!.id) }, staff: true }),
  kpdReviewers: () => ({ staff: true }),
  rankedConnection: () => ({}),
  matchHistory: () => ({ params: { limit: 10, offset: 0 } }),
  rankedProfile: (w) => ({ params: { season: season(w) } }),
  rankedProfileRegion: (w) => ({ params: { season: season(w), region: 3 } }),
  rankings: (w) => ({ params: { season: season(w) } }),
  rankingsRegion: (w) => ({ params: { season: season(w), region: 3 } }),
  dailySpinProgress: () => ({}),
  topStreams: () => ({}),
};

describe('every endpoint against the sandbox', () => {
  it('has a sample for every route of the table', () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(routes).sort());
  });

  it.each(Object.keys(routes) as RouteName[])('%s answers and passes its schema', async (name) => {
    const { params, staff } = await samples[name](sandbox.world);
    const tier = routes[name].tier;
    const options = tier === 'token' ? { token: staff ? staffToken : token } : {};
    const reply = await client.call(name, params, options);
    expect(reply).toBeDefined();
    if (name === 'match')
      expect((reply as { match_id: string }).match_id).toBe(sandbox.world.samples.matchId);
  });
});
