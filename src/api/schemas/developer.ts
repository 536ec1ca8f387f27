import { z } from 'zod';
import { bigId, bool, count, float, int, kr, list, mmr, record, str } from './tolerant.ts';

// Developer API (`/api/...`): spec section 2, observed-facts and docs/api-shapes.md. Identity fields are
// required; every other field degrades to absent when it is missing or of the wrong type. A page's list
// is required too: a page without its items is no answer.

// 2.1
export const ClanProfileSchema = record(
  'ClanProfile',
  { name: str },
  {
    owner_name: str,
    score: int,
    rank: int,
    member_count: int,
    created_at: str,
    discord: str,
  },
);
export type ClanProfile = z.output<typeof ClanProfileSchema>;

// 2.2
export const ClanMemberSchema = record(
  'ClanMember',
  { player_name: str },
  { role: int, verified: bool, score: int },
);
export type ClanMember = z.output<typeof ClanMemberSchema>;

export const ClanMembersSchema = record(
  'ClanMembers',
  { members: list('ClanMembers.members', ClanMemberSchema) },
  { page: int, per_page: int },
);
export type ClanMembers = z.output<typeof ClanMembersSchema>;

// 2.3
export const EventTargetSchema = record('EventTarget', {}, { type: str, id: int });
export type EventTarget = z.output<typeof EventTargetSchema>;

export const EventDataSchema = record('EventData', {}, { map_id: int, map_name: str, creator: str });
export type EventData = z.output<typeof EventDataSchema>;

export const EventSchema = record(
  'Event',
  { id: int, type: str },
  { created_at: str, target: EventTargetSchema, data: EventDataSchema },
);
export type Event = z.output<typeof EventSchema>;

// `next` is required: a poller that cannot advance its cursor must not go on as if it had.
export const EventsPageSchema = record(
  'EventsPage',
  { events: list('EventsPage.events', EventSchema), next: int },
  { has_more: bool },
);
export type EventsPage = z.output<typeof EventsPageSchema>;

// 2.4 — no IP field, by design of the service and of this bot.
export const KpdCallSchema = record(
  'KpdCall',
  { id: int },
  {
    date: str,
    caller_id: int,
    caller_name: str,
    caller_score: int,
    caller_job_rating: int,
    caller_job_rating_positive: int,
    called_id: int,
    called_name: str,
    called_score: int,
    kdf_type: int,
    kdf_type_label: str,
    status: int,
    status_label: str,
    rating: int,
    rating_label: str,
    officer_id: int,
    officer_name: str,
    status_date: str,
    game_code: str,
    host: str,
    port: str,
    token: str,
  },
);
export type KpdCall = z.output<typeof KpdCallSchema>;

export const KpdLatestCallsSchema = list('KpdLatestCalls', KpdCallSchema);
export type KpdLatestCalls = z.output<typeof KpdLatestCallsSchema>;

// 2.5
const rankedTotals = {
  mmr,
  wins: count,
  losses: count,
  kills: int,
  deaths: int,
  assists: int,
  score: int,
  damage_done: int,
};

export const RankedLeaderboardEntrySchema = record(
  'RankedLeaderboardEntry',
  { player_name: str },
  { position: int, ...rankedTotals },
);
export type RankedLeaderboardEntry = z.output<typeof RankedLeaderboardEntrySchema>;

export const RankedLeaderboardSchema = record(
  'RankedLeaderboard',
  { entries: list('RankedLeaderboard.entries', RankedLeaderboardEntrySchema) },
  { page: int, per_page: int, season: int, region: int },
);
export type RankedLeaderboard = z.output<typeof RankedLeaderboardSchema>;

// 2.6 — the dates keep the service's `YYYY-MM-DD HH:MM:SS` text.
/** The map record's fields besides its identity; the game tier's `/maps/by-name/…` may carry them too. */
export const mapInfoFields = {
  description: str,
  creator_name: str,
  votes: int,
  gameplays: int,
  playtime: int,
  category: int,
  created_at: str,
  updated_at: str,
  leaderboard_type: str,
  leaderboard_order: int,
  featured: bool,
};

export const MapInfoSchema = record('MapInfo', { map_id: int, name: str }, mapInfoFields);
export type MapInfo = z.output<typeof MapInfoSchema>;

// 2.7
export const FeaturedMapSchema = record(
  'FeaturedMap',
  { map_id: int, name: str },
  { creator_id: int, creator_name: str },
);
export type FeaturedMap = z.output<typeof FeaturedMapSchema>;

export const FeaturedMapsSchema = record(
  'FeaturedMaps',
  { maps: list('FeaturedMaps.maps', FeaturedMapSchema) },
  { count: int },
);
export type FeaturedMaps = z.output<typeof FeaturedMapsSchema>;

// 2.8
export const MapLeaderboardEntrySchema = record(
  'MapLeaderboardEntry',
  { player_name: str },
  { position: int, value: int, date: str },
);
export type MapLeaderboardEntry = z.output<typeof MapLeaderboardEntrySchema>;

export const MapLeaderboardSchema = record(
  'MapLeaderboard',
  { entries: list('MapLeaderboard.entries', MapLeaderboardEntrySchema) },
  { page: int, per_page: int, map_name: str, leaderboard_type: str, leaderboard_order: int },
);
export type MapLeaderboard = z.output<typeof MapLeaderboardSchema>;

// 2.9
export const MapLeaderboardPlayerSchema = record(
  'MapLeaderboardPlayer',
  { player_name: str },
  { map_name: str, leaderboard_type: str, leaderboard_order: int, position: int, value: int, date: str },
);
export type MapLeaderboardPlayer = z.output<typeof MapLeaderboardPlayerSchema>;

// 2.10
export const MarketSkinListingSchema = record(
  'MarketSkinListing',
  { price: kr, seller_name: str },
  { listed_at: str },
);
export type MarketSkinListing = z.output<typeof MarketSkinListingSchema>;

export const MarketSkinOwnerSchema = record('MarketSkinOwner', { player_name: str }, { count });
export type MarketSkinOwner = z.output<typeof MarketSkinOwnerSchema>;

export const PriceHistoryDaySchema = record(
  'PriceHistoryDay',
  { date: str },
  { average_price: kr, sales: count },
);
export type PriceHistoryDay = z.output<typeof PriceHistoryDaySchema>;

export const MarketSkinSchema = record(
  'MarketSkin',
  { skin_index: int },
  {
    total_listings: count,
    lowest_price: kr,
    average_price: kr,
    total_circulating: count,
    listings: list('MarketSkin.listings', MarketSkinListingSchema),
    owners: list('MarketSkin.owners', MarketSkinOwnerSchema),
    price_history: list('MarketSkin.price_history', PriceHistoryDaySchema),
  },
);
export type MarketSkin = z.output<typeof MarketSkinSchema>;

// 2.11
export const MatchParticipantSchema = record(
  'MatchParticipant',
  { player_name: str },
  {
    kills: int,
    deaths: int,
    assists: int,
    score: int,
    damage_done: int,
    headshots: int,
    accuracy: int,
    objective_score: int,
    victory: int,
    rounds_won: int,
    team: int,
    play_time: int,
  },
);
export type MatchParticipant = z.output<typeof MatchParticipantSchema>;

export const MatchDetailsSchema = record(
  'MatchDetails',
  { match_id: bigId },
  {
    date: str,
    map: int,
    duration: int,
    season: int,
    region: int,
    participants: list('MatchDetails.participants', MatchParticipantSchema),
  },
);
export type MatchDetails = z.output<typeof MatchDetailsSchema>;

// 2.12
/** The mod record's fields besides its identity; the game tier's `/mods/by-name/…` may carry them too. */
export const modFields = {
  description: str,
  creator_name: str,
  votes: int,
  featured: bool,
  version: int,
  created_at: str,
  updated_at: str,
};

export const ModSchema = record('Mod', { mod_id: int, name: str }, modFields);
export type Mod = z.output<typeof ModSchema>;

export const ModsPageSchema = record(
  'ModsPage',
  { mods: list('ModsPage.mods', ModSchema) },
  { page: int, per_page: int },
);
export type ModsPage = z.output<typeof ModsPageSchema>;

// 2.13
export const PlayerRankedSchema = record(
  'PlayerRanked',
  { region: int },
  { ...rankedTotals, time_played: int },
);
export type PlayerRanked = z.output<typeof PlayerRankedSchema>;

export const PlayerProfileSchema = record(
  'PlayerProfile',
  { player_id: int, player_name: str },
  {
    clan: str,
    verified: bool,
    flag: int,
    badges: list('PlayerProfile.badges', int),
    following: int,
    followers: int,
    ranked: list('PlayerProfile.ranked', PlayerRankedSchema),
    kr: int,
    level: int,
    junk: float,
    inventory: int,
    score: int,
    spk: float,
    kills: int,
    deaths: int,
    kdr: float,
    kpg: float,
    games: int,
    wins: int,
    losses: int,
    assists: int,
    melees: int,
    beatdowns: int,
    bullseyes: int,
    headshots: int,
    legshots: int,
    wallbangs: int,
    shots: int,
    hits: int,
    misses: int,
    time_played: int,
    nukes: int,
    airdrops: int,
    airdrops_stolen: int,
    slimes: int,
    juggernauts: int,
    juggernauts_killed: int,
    warmachines: int,
    class_stats: z.record(z.string(), int),
    hacker_tagged: bool,
    kpd: bool,
    premium: bool,
    twitch_name: str,
    created_at: str,
  },
);
export type PlayerProfile = z.output<typeof PlayerProfileSchema>;

// observed-facts: `count` leaves out the items listed on the market.
export const InventoryItemSchema = record('InventoryItem', { skin_index: int }, { count: int });
export type InventoryItem = z.output<typeof InventoryItemSchema>;

export const PlayerInventorySchema = list('PlayerInventory', InventoryItemSchema);
export type PlayerInventory = z.output<typeof PlayerInventorySchema>;

export const PlayerListingSchema = record(
  'PlayerListing',
  { market_id: bigId },
  { skin_index: int, price: int, listed_at: str },
);
export type PlayerListing = z.output<typeof PlayerListingSchema>;

export const PlayerListingsSchema = record(
  'PlayerListings',
  { listings: list('PlayerListings.listings', PlayerListingSchema) },
  { page: int, per_page: int },
);
export type PlayerListings = z.output<typeof PlayerListingsSchema>;

export const PlayerMatchSchema = record(
  'PlayerMatch',
  { match_id: bigId },
  {
    date: str,
    map: int,
    duration: int,
    season: int,
    region: int,
    kills: int,
    deaths: int,
    assists: int,
    score: int,
    damage_done: int,
    headshots: int,
    accuracy: int,
    objective_score: int,
    kr: int,
    victory: int,
    rounds_won: int,
    team: int,
    play_time: int,
  },
);
export type PlayerMatch = z.output<typeof PlayerMatchSchema>;

export const PlayerMatchesSchema = record(
  'PlayerMatches',
  { matches: list('PlayerMatches.matches', PlayerMatchSchema) },
  { page: int, per_page: int },
);
export type PlayerMatches = z.output<typeof PlayerMatchesSchema>;

// A post has no id: its text is what makes it worth showing.
export const PlayerPostSchema = record(
  'PlayerPost',
  { text: str },
  { date: str, votes: int, comment_count: int },
);
export type PlayerPost = z.output<typeof PlayerPostSchema>;

export const PlayerPostsSchema = record(
  'PlayerPosts',
  { posts: list('PlayerPosts.posts', PlayerPostSchema) },
  { page: int, per_page: int },
);
export type PlayerPosts = z.output<typeof PlayerPostsSchema>;

export const SkinDefinitionSchema = record(
  'SkinDefinition',
  { skin_index: int, name: str },
  { rarity: int, season: int },
);
export type SkinDefinition = z.output<typeof SkinDefinitionSchema>;

export const SkinsPageSchema = record(
  'SkinsPage',
  { skins: list('SkinsPage.skins', SkinDefinitionSchema) },
  { page: int, per_page: int },
);
export type SkinsPage = z.output<typeof SkinsPageSchema>;
