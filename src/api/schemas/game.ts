import { z } from 'zod';
import { MapLeaderboardSchema, mapInfoFields, modFields } from './developer.ts';
import {
  bigId,
  bool,
  count,
  degradations,
  float,
  int,
  kr,
  list,
  loose,
  looseList,
  record,
  str,
} from './tolerant.ts';

// Game API (no auth): shapes of docs/api-shapes.md and assumed-shapes.md. Short keys stay as the game
// sends them; only the lobby list's positional entries are turned into named objects.

// `{base_url}/players/...`
export const GamePlayerSchema = record(
  'GamePlayer',
  { player_id: int, player_name: str },
  { clan: str, verified: bool, stats: str },
);
export type GamePlayer = z.output<typeof GamePlayerSchema>;

export const PlayerSearchHitSchema = record(
  'PlayerSearchHit',
  { player_id: int, player_name: str },
  { clan: str, verified: bool },
);
export const PlayerSearchSchema = record('PlayerSearch', {
  players: list('PlayerSearch.players', PlayerSearchHitSchema),
});
export type PlayerSearch = z.output<typeof PlayerSearchSchema>;

export const FollowRowSchema = record(
  'FollowRow',
  { player_id: int, player_name: str },
  { followed_at: str },
);
export const FollowListSchema = record('FollowList', {
  players: list('FollowList.players', FollowRowSchema),
});
export type FollowList = z.output<typeof FollowListSchema>;

export const PlayerSaleSchema = record('PlayerSale', { date: str }, { funds: kr, count });
export const PlayerSalesSchema = record('PlayerSales', {
  sales: list('PlayerSales.sales', PlayerSaleSchema),
});
export type PlayerSales = z.output<typeof PlayerSalesSchema>;

/** `t` text, `v` votes, `c` comments, `d` date. */
export const FeedPostSchema = record('FeedPost', { id: int }, { t: str, v: int, c: int, d: str });
export type FeedPost = z.output<typeof FeedPostSchema>;
export const PlayerFeedSchema = record('PlayerFeed', { posts: list('PlayerFeed.posts', FeedPostSchema) });
export type PlayerFeed = z.output<typeof PlayerFeedSchema>;

// `{base_url}/clans/...`
/** `n` name, `r` role, `s` score. */
export const ClanMemberShortSchema = record('ClanMemberShort', { n: str }, { r: int, s: int });
export const GameClanSchema = record(
  'GameClan',
  { clan_id: int, name: str },
  {
    owner_name: str,
    score: int,
    member_count: int,
    created_at: str,
    members: list('GameClan.members', ClanMemberShortSchema),
  },
);
export type GameClan = z.output<typeof GameClanSchema>;

/** A share of the clan's turf earnings, in percent. */
const share = z.number().min(0).max(100);
/**
 * How a clan splits its turf earnings (docs/api-shapes.md, chosen): `mode` is how members' shares are
 * weighed (`points`, `equal`; another value is shown as unknown), the shares are percentages.
 */
export const ClanLootConfigSchema = record(
  'ClanLootConfig',
  {},
  { clan_id: int, mode: str, leader_share: share, member_share: share },
);
export type ClanLootConfig = z.output<typeof ClanLootConfigSchema>;

export const ClanMotdSchema = record('ClanMotd', {}, { motd: str });
export type ClanMotd = z.output<typeof ClanMotdSchema>;

export const RecruitingClanSchema = record(
  'RecruitingClan',
  { clan_id: int, name: str },
  { region: int, language: str, member_count: int },
);
export const ClanRecruitmentSchema = record(
  'ClanRecruitment',
  { clans: list('ClanRecruitment.clans', RecruitingClanSchema) },
  { page: int, limit: int },
);
export type ClanRecruitment = z.output<typeof ClanRecruitmentSchema>;

// `{base_url}/leaderboards/...`
export const PlayerBoardRowSchema = record(
  'PlayerBoardRow',
  { player_name: str },
  { position: int, clan: str, value: float },
);
export type PlayerBoardRow = z.output<typeof PlayerBoardRowSchema>;

export const LeaderboardSchema = record(
  'Leaderboard',
  { rows: list('Leaderboard.rows', PlayerBoardRowSchema) },
  { type: str, season: int },
);
export type Leaderboard = z.output<typeof LeaderboardSchema>;

export const ClanBoardRowSchema = record(
  'ClanBoardRow',
  { clan_id: int, clan_name: str },
  { position: int, value: float },
);
export const ClanLeaderboardSchema = record('ClanLeaderboard', {
  rows: list('ClanLeaderboard.rows', ClanBoardRowSchema),
});
export type ClanLeaderboard = z.output<typeof ClanLeaderboardSchema>;

export const RaidLeaderboardSchema = record(
  'RaidLeaderboard',
  { rows: list('RaidLeaderboard.rows', PlayerBoardRowSchema) },
  { map_id: int },
);
export type RaidLeaderboard = z.output<typeof RaidLeaderboardSchema>;

export const CupPlayerLeaderboardSchema = record('CupPlayerLeaderboard', {
  rows: list('CupPlayerLeaderboard.rows', PlayerBoardRowSchema),
});
export type CupPlayerLeaderboard = z.output<typeof CupPlayerLeaderboardSchema>;

export const CupTeamRowSchema = record(
  'CupTeamRow',
  { team_id: int, team_name: str },
  { position: int, value: float },
);
export const CupTeamLeaderboardSchema = record('CupTeamLeaderboard', {
  rows: list('CupTeamLeaderboard.rows', CupTeamRowSchema),
});
export type CupTeamLeaderboard = z.output<typeof CupTeamLeaderboardSchema>;

export const CupContributorSchema = record('CupContributor', { player_name: str }, { value: float });
export const CupTeamContributorsSchema = record(
  'CupTeamContributors',
  { rows: list('CupTeamContributors.rows', CupContributorSchema) },
  { team_id: int },
);
export type CupTeamContributors = z.output<typeof CupTeamContributorsSchema>;

// `{base_url}/maps`, `/mods`
export const OfficialMapSchema = record('OfficialMap', { id: int, name: str });
export const OfficialMapsSchema = list('OfficialMaps', OfficialMapSchema);
export type OfficialMaps = z.output<typeof OfficialMapsSchema>;

// The record is loose (docs/api-shapes.md): the developer map's fields are read when the game sends them.
export const GameMapSchema = record('GameMap', { map_id: int, name: str }, mapInfoFields);
export type GameMap = z.output<typeof GameMapSchema>;

/** The community map leaderboard of the game tier has the developer tier's shape. */
export const GameMapLeaderboardSchema = MapLeaderboardSchema;
export type GameMapLeaderboard = z.output<typeof GameMapLeaderboardSchema>;

export const MapFileSchema = loose;
export type MapFile = z.output<typeof MapFileSchema>;

export const GameModSchema = record('GameMod', { mod_id: int, name: str }, modFields);
export type GameMod = z.output<typeof GameModSchema>;

// `{base_url}/items/...`, `/market/...`
export const ItemListingSchema = record('ItemListing', { market_id: bigId }, { price: kr, seller_name: str });
export const ItemViewSchema = record(
  'ItemView',
  { skin_index: int },
  { name: str, listings: list('ItemView.listings', ItemListingSchema) },
);
export type ItemView = z.output<typeof ItemViewSchema>;

export const ItemInstanceSchema = record('ItemInstance', { serial: int }, { holder: str, wear: float });
export const ItemInstancesSchema = record('ItemInstances', {
  instances: list('ItemInstances.instances', ItemInstanceSchema),
});
export type ItemInstances = z.output<typeof ItemInstancesSchema>;

export const ItemSaleSchema = record('ItemSale', { date: str }, { kr, count });
export const ItemSalesSchema = record('ItemSales', { sales: list('ItemSales.sales', ItemSaleSchema) });
export type ItemSales = z.output<typeof ItemSalesSchema>;

/** The ask range is there only while something is listed. */
export const MarketStatRowSchema = record(
  'MarketStatRow',
  { skin_index: int },
  { circulating: count, on_sale: count, ask_low: kr, ask_high: kr },
);
export const MarketStatsSchema = record(
  'MarketStats',
  { rows: list('MarketStats.rows', MarketStatRowSchema) },
  { cursor: str.nullable() },
);
export type MarketStats = z.output<typeof MarketStatsSchema>;

export const SalesDaySchema = record('SalesDay', { date: str }, { average_price: kr, sales: count });
export const SalesStatisticsSchema = record('SalesStatistics', {
  days: list('SalesStatistics.days', SalesDaySchema),
});
export type SalesStatistics = z.output<typeof SalesStatisticsSchema>;

export const MarketItemSalesSchema = record(
  'MarketItemSales',
  {},
  {
    ask_low: kr,
    ask_high: kr,
    circulating: count,
    top_owner_ids: list('MarketItemSales.top_owner_ids', int),
  },
);
export type MarketItemSales = z.output<typeof MarketItemSalesSchema>;

// `{base_url}/social/...`
export const SocialPostsSchema = record('SocialPosts', { posts: looseList });
export type SocialPosts = z.output<typeof SocialPostsSchema>;

export const SocialPostSchema = loose;
export type SocialPost = z.output<typeof SocialPostSchema>;

// `{base_url}/shop/...` and other static or menu data
export const ShopDisplaysSchema = loose;
export type ShopDisplays = z.output<typeof ShopDisplaysSchema>;

/** The refusal `/shop/wild-offer` answers with status 200 when there is no offer. */
export const SoftRefusalSchema = z.looseObject({ available: z.literal(false), error: z.string() });
export type SoftRefusal = z.output<typeof SoftRefusalSchema>;

/** Either an offer or a `SoftRefusal`: the route is marked `soft`. */
export const WildOfferSchema = loose;
export type WildOffer = z.output<typeof WildOfferSchema>;

export const RankedShopSchema = looseList;
export type RankedShop = z.output<typeof RankedShopSchema>;

export const SpinWheelsSchema = looseList;
export type SpinWheels = z.output<typeof SpinWheelsSchema>;

export const TitlesSchema = looseList;
export type Titles = z.output<typeof TitlesSchema>;

export const CreatorEventsSchema = looseList;
export type CreatorEvents = z.output<typeof CreatorEventsSchema>;

export const LotterySchema = loose;
export type Lottery = z.output<typeof LotterySchema>;

export const CupWristbandSchema = loose;
export type CupWristband = z.output<typeof CupWristbandSchema>;

// The lobby list (`{matchmaker_url}/game-list`, also `{base_url}/game-list`)
export interface LobbyOptions {
  /** `i` */
  map?: string;
  /** `g`: the mode index */
  mode?: number;
  /** `c`: 0 or 1 on the wire */
  custom?: boolean;
  /** `v` */
  version?: string;
}

const LobbyOptionsWire = record(
  'LobbyOptions',
  {},
  {
    i: str,
    g: int,
    c: z.union([int, bool]),
    v: z.union([str, float]),
    // The named form too, so that a parsed lobby list parses again to itself.
    map: str,
    mode: int,
    custom: bool,
    version: str,
  },
);

export const LobbyOptionsSchema = LobbyOptionsWire.transform((wire): LobbyOptions => {
  const options: LobbyOptions = {};
  const map = wire.i ?? wire.map;
  const mode = wire.g ?? wire.mode;
  const custom = wire.c === undefined ? wire.custom : wire.c === true || wire.c === 1;
  const version = wire.v === undefined ? wire.version : String(wire.v);
  if (map !== undefined) options.map = map;
  if (mode !== undefined) options.mode = mode;
  if (custom !== undefined) options.custom = custom;
  if (version !== undefined) options.version = version;
  return options;
});

const LobbyFields = record(
  'Lobby',
  { gameId: str, regionKey: str },
  { players: int, maxPlayers: int, options: LobbyOptionsSchema, secondsLeft: int },
);

/**
 * One positional entry `[gameId, regionKey, players, maxPlayers, options, secondsLeft]`, named. An entry
 * that is already named passes as it is, so a parsed lobby list parses again to itself.
 */
export const LobbySchema = z.preprocess(
  (entry) =>
    Array.isArray(entry)
      ? {
          gameId: entry[0] as unknown,
          regionKey: entry[1] as unknown,
          players: entry[2] as unknown,
          maxPlayers: entry[3] as unknown,
          options: entry[4] as unknown,
          secondsLeft: entry[5] as unknown,
        }
      : entry,
  LobbyFields,
);
export type Lobby = z.output<typeof LobbySchema>;

export const LobbyListSchema = record('LobbyList', { games: list('LobbyList.games', LobbySchema) });
export type LobbyList = z.output<typeof LobbyListSchema>;

// `{base_url}/territorial-wars/...`
/** A place on a turf board or in today's standing: 1 to a million (boards hold 100 rows). */
const place = z.number().int().min(1).max(1_000_000);
/** A turf K/D (a float): 0 to a million. */
const turfKd = z.number().min(0).max(1_000_000);
export const TurfClanRefSchema = record('TurfClanRef', { clan_id: int, clan_name: str });
export type TurfClanRef = z.output<typeof TurfClanRefSchema>;

export const TurfTopClanSchema = record(
  'TurfTopClan',
  { clan_id: int, clan_name: str },
  { position: place, points: count },
);
export type TurfTopClan = z.output<typeof TurfTopClanSchema>;

/** `owner` is null while nobody holds the map. Map names are not sent: the bot names the ids. */
export const TurfMapSchema = record(
  'TurfMap',
  { map_id: int },
  { owner: TurfClanRefSchema.nullable(), top_clans: list('TurfMap.top_clans', TurfTopClanSchema) },
);
export type TurfMap = z.output<typeof TurfMapSchema>;

export const TurfStatusSchema = record(
  'TurfStatus',
  { maps: list('TurfStatus.maps', TurfMapSchema) },
  { day: int },
);
export type TurfStatus = z.output<typeof TurfStatusSchema>;

export const TurfClanSchema = record(
  'TurfClan',
  { clan_id: int, clan_name: str },
  { position: place.nullable(), points: count, maps_owned: list('TurfClan.maps_owned', int) },
);
export type TurfClan = z.output<typeof TurfClanSchema>;

export const TurfDayKrSchema = record('TurfDayKr', { day: int }, { kr });
export type TurfDayKr = z.output<typeof TurfDayKrSchema>;

export const TurfClanEarningsSchema = record('TurfClanEarnings', {
  clan_id: int,
  days: list('TurfClanEarnings.days', TurfDayKrSchema),
});
export type TurfClanEarnings = z.output<typeof TurfClanEarningsSchema>;

export const TurfPayoutSchema = record('TurfPayout', { player_id: int }, { player_name: str, kr });
/** `day` is null for the season totals (no day asked). */
export const TurfClanPayoutsSchema = record(
  'TurfClanPayouts',
  { clan_id: int, payouts: list('TurfClanPayouts.payouts', TurfPayoutSchema) },
  { day: int.nullable() },
);
export type TurfClanPayouts = z.output<typeof TurfClanPayoutsSchema>;

export const TurfClanPlayerSchema = record(
  'TurfClanPlayer',
  { player_id: int },
  { player_name: str, points: count, kills: count, deaths: count },
);
export const TurfClanPlayersSchema = record(
  'TurfClanPlayers',
  { clan_id: int, players: list('TurfClanPlayers.players', TurfClanPlayerSchema) },
  { day: int },
);
export type TurfClanPlayers = z.output<typeof TurfClanPlayersSchema>;

export const TurfPlayerSchema = record(
  'TurfPlayer',
  { player_id: int, player_name: str },
  { clan_id: int.nullable(), clan_name: str.nullable() },
);
export type TurfPlayer = z.output<typeof TurfPlayerSchema>;

export const TurfContributionSchema = record(
  'TurfContribution',
  { day: int, map_id: int },
  { points: count, kills: count },
);
export const TurfPlayerContributionsSchema = record('TurfPlayerContributions', {
  player_id: int,
  contributions: list('TurfPlayerContributions.contributions', TurfContributionSchema),
});
export type TurfPlayerContributions = z.output<typeof TurfPlayerContributionsSchema>;

export const TurfPlayerEarningsSchema = record('TurfPlayerEarnings', {
  player_id: int,
  earnings: list('TurfPlayerEarnings.earnings', TurfDayKrSchema),
});
export type TurfPlayerEarnings = z.output<typeof TurfPlayerEarningsSchema>;

export const TurfPerformingClanSchema = record(
  'TurfPerformingClan',
  { clan_id: int, clan_name: str },
  { position: place, points: count, kills: count, deaths: count, kd: turfKd },
);
export const TurfTopPerformingClansSchema = record('TurfTopPerformingClans', {
  rows: list('TurfTopPerformingClans.rows', TurfPerformingClanSchema),
});
export type TurfTopPerformingClans = z.output<typeof TurfTopPerformingClansSchema>;

export const TurfGrossingClanSchema = record(
  'TurfGrossingClan',
  { clan_id: int, clan_name: str },
  { position: place, kr },
);
export const TurfTopGrossingClansSchema = record('TurfTopGrossingClans', {
  rows: list('TurfTopGrossingClans.rows', TurfGrossingClanSchema),
});
export type TurfTopGrossingClans = z.output<typeof TurfTopGrossingClansSchema>;

export const TurfPerformingPlayerSchema = record(
  'TurfPerformingPlayer',
  { player_id: int, player_name: str },
  { position: place, clan_name: str, points: count, kills: count, deaths: count, kd: turfKd },
);
export const TurfTopPerformingPlayersSchema = record('TurfTopPerformingPlayers', {
  rows: list('TurfTopPerformingPlayers.rows', TurfPerformingPlayerSchema),
});
export type TurfTopPerformingPlayers = z.output<typeof TurfTopPerformingPlayersSchema>;

// `{legacy_url}/webhooks/general/...` (no token)
const itemPrice = kr.int().nullable();

/** Skin index → price in KR, `null` when the skin has no price. Entries that are not that are dropped. */
export const ItemPricesSchema = z.record(z.string(), z.unknown()).transform((entries) => {
  const prices: Record<number, number | null> = {};
  for (const [key, value] of Object.entries(entries)) {
    const price = itemPrice.safeParse(value);
    if (/^\d+$/.test(key) && price.success) prices[Number(key)] = price.data;
    else degradations.report('ItemPrices', '[]');
  }
  return prices;
});
export type ItemPrices = z.output<typeof ItemPricesSchema>;

export const BrowserMapSchema = record(
  'BrowserMap',
  { map_id: int, name: str },
  { creator_name: str, votes: int },
);
export const MapBrowserSchema = record('MapBrowser', { maps: list('MapBrowser.maps', BrowserMapSchema) });
export type MapBrowser = z.output<typeof MapBrowserSchema>;

export const BrowserModSchema = record(
  'BrowserMod',
  { mod_id: int, name: str },
  { creator_name: str, votes: int },
);
export const ModBrowserSchema = record('ModBrowser', { mods: list('ModBrowser.mods', BrowserModSchema) });
export type ModBrowser = z.output<typeof ModBrowserSchema>;
