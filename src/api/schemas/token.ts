import { z } from 'zod';
import { InventoryItemSchema } from './developer.ts';
import { bigId, bool, count, int, list, loose, looseList, looseValue, mmr, record, str } from './tolerant.ts';

// Token API on `{base_url}` (bearer, envelope) and the ranked system on `{legacy_url}` (bearer, `{data}`):
// shapes of docs/api-shapes.md. Bodies the spec leaves unspecified are only checked for being objects.

// Own account
/** The packed account blob the game client decodes itself. */
export const AccountBlobSchema = record('AccountBlob', { blob: str });
export type AccountBlob = z.output<typeof AccountBlobSchema>;

export const WalletCurrencySchema = record(
  'WalletCurrency',
  { id: z.union([str, int]) },
  { name: str, amount: int },
);
export type WalletCurrency = z.output<typeof WalletCurrencySchema>;

export const WalletSchema = record(
  'Wallet',
  { kr: int },
  { currencies: list('Wallet.currencies', WalletCurrencySchema) },
);
export type Wallet = z.output<typeof WalletSchema>;

export const UsernameChangeSchema = record('UsernameChange', { name: str }, { changed_at: str });
export const UsernamesSchema = record('Usernames', {
  usernames: list('Usernames.usernames', UsernameChangeSchema),
});
export type Usernames = z.output<typeof UsernamesSchema>;

export const EmailPreferencesSchema = loose;
export type EmailPreferences = z.output<typeof EmailPreferencesSchema>;

/** Its fields are there only while an account is linked. */
export const DiscordStatusSchema = loose;
export type DiscordStatus = z.output<typeof DiscordStatusSchema>;

/** Zeros without a guest token. */
export const GuestProfileSchema = loose;
export type GuestProfile = z.output<typeof GuestProfileSchema>;

// Market
export const MarketListingSchema = record(
  'MarketListing',
  { market_id: bigId },
  { skin_index: int, price: int, seller_name: str, listed_at: str },
);
export type MarketListing = z.output<typeof MarketListingSchema>;

export const MarketListingsSchema = record(
  'MarketListings',
  { listings: list('MarketListings.listings', MarketListingSchema) },
  { cursor: str.nullable() },
);
export type MarketListings = z.output<typeof MarketListingsSchema>;

export const MarketHistoryEntrySchema = record(
  'MarketHistoryEntry',
  { market_id: bigId },
  { skin_index: int, price: int, side: z.enum(['buy', 'sell']), date: str },
);
export type MarketHistoryEntry = z.output<typeof MarketHistoryEntrySchema>;

export const MarketHistorySchema = record(
  'MarketHistory',
  { entries: list('MarketHistory.entries', MarketHistoryEntrySchema) },
  { cursor: str.nullable() },
);
export type MarketHistory = z.output<typeof MarketHistorySchema>;

export const OwnListingSchema = record(
  'OwnListing',
  { market_id: bigId },
  { skin_index: int, price: int, listed_at: str },
);
export type OwnListing = z.output<typeof OwnListingSchema>;

/** `/market/sales`: the token owner's open listings. */
export const OwnListingsSchema = record('OwnListings', {
  listings: list('OwnListings.listings', OwnListingSchema),
});
export type OwnListings = z.output<typeof OwnListingsSchema>;

export const BlackMarketSchema = record('BlackMarket', {
  skin_indices: list('BlackMarket.skin_indices', int),
});
export type BlackMarket = z.output<typeof BlackMarketSchema>;

/** `null` without a ranked history. */
export const BlackMarketRankSchema = loose.nullable();
export type BlackMarketRank = z.output<typeof BlackMarketRankSchema>;

// Shop and own custom skins
export const CustomSkinsSchema = record('CustomSkins', { skins: looseList }, { page: int });
export type CustomSkins = z.output<typeof CustomSkinsSchema>;

// Trades
/**
 * Short keys as the game sends them: `st` state (0 open, 1 done, 2 cancelled), `pn` partner name,
 * `gv` skin indices given, `rc` received, `kr` KR moved, `ts` date. The id is kept as a digit string
 * (like market ids) because the spec gives no bound for it.
 */
export const TradeSchema = record(
  'Trade',
  { id: bigId },
  { st: int, pn: str, gv: list('Trade.gv', int), rc: list('Trade.rc', int), kr: int, ts: str },
);
export type Trade = z.output<typeof TradeSchema>;

export const TradesHistorySchema = record('TradesHistory', {
  trades: list('TradesHistory.trades', TradeSchema),
});
export type TradesHistory = z.output<typeof TradesHistorySchema>;

export const TradeInventoriesSchema = record('TradeInventories', {
  mine: list('TradeInventories.mine', InventoryItemSchema),
  theirs: list('TradeInventories.theirs', InventoryItemSchema),
});
export type TradeInventories = z.output<typeof TradeInventoriesSchema>;

export const TradePlayerSchema = record('TradePlayer', { player_id: int, player_name: str });
export type TradePlayer = z.output<typeof TradePlayerSchema>;

// Clans, maps, studios
/** `clan_ids` is null on the wire when there is no application; it reads as an empty list. */
export const ClanApplicationsSchema = record(
  'ClanApplications',
  {},
  { clan_ids: list('ClanApplications.clan_ids', int) },
);
export type ClanApplications = z.output<typeof ClanApplicationsSchema>;

export const MapScriptDataSchema = loose;
export type MapScriptData = z.output<typeof MapScriptDataSchema>;

export const MapVersionsSchema = looseList;
export type MapVersions = z.output<typeof MapVersionsSchema>;

export const StudiosSchema = looseList;
export type Studios = z.output<typeof StudiosSchema>;

export const StudioSchema = loose;
export type Studio = z.output<typeof StudioSchema>;

export const StudioAnalyticsSchema = loose;
export type StudioAnalytics = z.output<typeof StudioAnalyticsSchema>;

export const StudioMonetizationSchema = loose;
export type StudioMonetization = z.output<typeof StudioMonetizationSchema>;

export const StudioSkinsSchema = looseValue;
export type StudioSkins = z.output<typeof StudioSkinsSchema>;

// Staff reads (role-gated)
export const ChatBanSchema = loose;
export type ChatBan = z.output<typeof ChatBanSchema>;

export const PlayerReportsSchema = looseValue;
export type PlayerReports = z.output<typeof PlayerReportsSchema>;

export const KpdDemosSchema = looseValue;
export type KpdDemos = z.output<typeof KpdDemosSchema>;

export const KpdDemoSchema = loose;
export type KpdDemo = z.output<typeof KpdDemoSchema>;

export const KpdReviewersSchema = looseValue;
export type KpdReviewers = z.output<typeof KpdReviewersSchema>;

// Ranked system on `{legacy_url}`
export const RankedConnectionSchema = loose;
export type RankedConnection = z.output<typeof RankedConnectionSchema>;

/** `result`: 1 win, 0 loss, -1 draw. */
export const RankedMatchSchema = record(
  'RankedMatch',
  { match_id: bigId },
  {
    date: str,
    map: int,
    region: int,
    ranked: bool,
    result: int,
    kills: int,
    deaths: int,
    score: int,
  },
);
export type RankedMatch = z.output<typeof RankedMatchSchema>;

export const MatchHistorySchema = record(
  'MatchHistory',
  { matches: list('MatchHistory.matches', RankedMatchSchema) },
  { total: int },
);
export type MatchHistory = z.output<typeof MatchHistorySchema>;

const rankedStanding = { mmr, wins: count, losses: count, kills: count, deaths: count };

export const RankedRegionSchema = record('RankedRegion', { region: int }, rankedStanding);
export type RankedRegion = z.output<typeof RankedRegionSchema>;

export const RankedProfileSchema = record(
  'RankedProfile',
  { regions: list('RankedProfile.regions', RankedRegionSchema) },
  { season: int },
);
export type RankedProfile = z.output<typeof RankedProfileSchema>;

export const RankedProfileRegionSchema = record(
  'RankedProfileRegion',
  { region: int },
  { season: int, ...rankedStanding },
);
export type RankedProfileRegion = z.output<typeof RankedProfileRegionSchema>;

export const RankingRowSchema = record(
  'RankingRow',
  { player_name: str },
  { position: int, region: int, mmr },
);
export type RankingRow = z.output<typeof RankingRowSchema>;

export const RankingsSchema = record(
  'Rankings',
  { rows: list('Rankings.rows', RankingRowSchema) },
  { season: int },
);
export type Rankings = z.output<typeof RankingsSchema>;

export const DailySpinProgressSchema = loose;
export type DailySpinProgress = z.output<typeof DailySpinProgressSchema>;

export const TopStreamsSchema = looseList;
export type TopStreams = z.output<typeof TopStreamsSchema>;
