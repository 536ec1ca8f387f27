export const CURRENT_SEASON = 7;
export const PREVIOUS_SEASON = 6;
export const RANKED_REGIONS = [2, 3, 4] as const;
export const TURF_MAP_IDS = [0, 2, 3] as const;
export const RAID_MAP_IDS = [31, 32] as const;
/** The first id past 2^53: every match id is above it, so none fits a double exactly. */
export const FIRST_MATCH_ID = 9_007_199_254_740_993n;
export const FIRST_MARKET_ID = 9_007_199_254_800_001n;
export const PLACEMENT_MATCHES = 6;
export const PRICE_HISTORY_DAYS = 120;
export const GAME_VERSION = '10.4.2';

export interface PlayerStats {
  readonly score: number;
  readonly kills: number;
  readonly deaths: number;
  readonly games: number;
  readonly wins: number;
  readonly assists: number;
  readonly melees: number;
  readonly beatdowns: number;
  readonly bullseyes: number;
  readonly headshots: number;
  readonly legshots: number;
  readonly wallbangs: number;
  readonly shots: number;
  readonly hits: number;
  readonly timePlayed: number;
  readonly nukes: number;
  readonly airdrops: number;
  readonly airdropsStolen: number;
  readonly slimes: number;
  readonly juggernauts: number;
  readonly juggernautsKilled: number;
  readonly warmachines: number;
}

export interface Player {
  readonly id: number;
  readonly name: string;
  readonly clanId: number | null;
  readonly verified: boolean;
  readonly hackerTagged: boolean;
  readonly banned: boolean;
  readonly kpd: boolean;
  readonly premium: boolean;
  readonly flag: number;
  readonly badges: readonly number[];
  readonly twitchName: string;
  readonly createdAtMs: number;
  readonly kr: number;
  readonly junk: number;
  /** Ranked region this player queues in (2, 3 or 4); only players with `rankedPool` play ranked. */
  readonly homeRegion: number;
  readonly rankedPool: boolean;
  readonly stats: PlayerStats;
  readonly classStats: Readonly<Record<string, number>>;
  /** Ids of the players this one follows. */
  readonly follows: readonly number[];
  readonly previousNames: readonly { readonly name: string; readonly changedAtMs: number }[];
  readonly discordTag: string | null;
}

export interface ClanMember {
  readonly playerId: number;
  readonly playerName: string;
  readonly role: number;
}

export interface Clan {
  readonly id: number;
  readonly name: string;
  readonly ownerId: number;
  readonly ownerName: string;
  readonly createdAtMs: number;
  /** Invite code of the clan's chat community, or '' when unset. */
  readonly discord: string;
  readonly region: number;
  readonly language: string;
  readonly recruiting: boolean;
  readonly motd: string;
  readonly members: readonly ClanMember[];
}

export type BoardType = 'score' | 'time';

export interface BoardEntry {
  readonly playerName: string;
  readonly value: number;
  readonly dateMs: number;
}

export interface CommunityMap {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly creatorId: number;
  readonly creatorName: string;
  readonly votes: number;
  readonly gameplays: number;
  readonly playtimeMs: number;
  readonly category: number;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly leaderboardType: BoardType | '';
  readonly leaderboardOrder: 0 | 1;
  /** Featured state when the sandbox started (published events change the live state, not this). */
  readonly featured: boolean;
  readonly featuredAtMs: number | null;
  /** Restricted and deleted maps answer 404 everywhere. */
  readonly hidden: 'restricted' | 'deleted' | null;
  readonly boards: Readonly<Partial<Record<BoardType, readonly BoardEntry[]>>>;
  readonly versions: number;
}

export interface OfficialMap {
  readonly id: number;
  readonly name: string;
}

export interface Mod {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly creatorName: string;
  readonly creatorBanned: boolean;
  readonly votes: number;
  readonly featured: boolean;
  readonly version: number;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly deleted: boolean;
}

export interface SkinDefinition {
  readonly index: number;
  readonly name: string;
  readonly rarity: number;
  readonly season: number;
  readonly hasWear: boolean;
}

export interface Listing {
  /** Above 2^53: kept as a digit string. */
  readonly marketId: string;
  readonly skinIndex: number;
  readonly price: number;
  readonly sellerId: number;
  readonly sellerName: string;
  readonly listedAtMs: number;
}

export interface Holder {
  readonly playerId: number;
  readonly playerName: string;
  readonly count: number;
  readonly banned: boolean;
}

export interface DaySales {
  readonly date: string;
  readonly dayMs: number;
  readonly averagePrice: number;
  readonly sales: number;
}

export interface SkinMarket {
  readonly skinIndex: number;
  /** Price ascending. */
  readonly listings: readonly Listing[];
  /** Every holder, count descending (banned ones included; replies drop them). */
  readonly holders: readonly Holder[];
  /** Oldest first, only days with sales, up to 120 days back. */
  readonly priceHistory: readonly DaySales[];
  readonly totalCirculating: number;
}

export interface Participant {
  readonly playerId: number;
  readonly playerName: string;
  readonly kills: number;
  readonly deaths: number;
  readonly assists: number;
  readonly score: number;
  readonly damageDone: number;
  readonly headshots: number;
  readonly accuracy: number;
  readonly objectiveScore: number;
  readonly victory: number;
  readonly roundsWon: number;
  readonly team: number;
  readonly playTime: number;
  readonly kr: number;
  /** 1 win, 0 loss, -1 draw. */
  readonly result: 1 | 0 | -1;
}

export interface Match {
  /** Above 2^53: kept as a digit string. */
  readonly id: string;
  readonly dateMs: number;
  readonly map: number;
  readonly mode: number;
  readonly duration: number;
  readonly season: number;
  readonly region: number;
  /** Ordered by team, then score descending. */
  readonly participants: readonly Participant[];
}

export interface RankedRecord {
  readonly season: number;
  readonly region: number;
  readonly playerId: number;
  readonly playerName: string;
  readonly mmr: number;
  readonly matches: number;
  readonly wins: number;
  readonly losses: number;
  readonly kills: number;
  readonly deaths: number;
  readonly assists: number;
  readonly score: number;
  readonly damageDone: number;
  readonly timePlayed: number;
}

export interface Lobby {
  readonly gameId: string;
  readonly region: string;
  readonly players: number;
  readonly maxPlayers: number;
  readonly mapName: string;
  readonly mode: number;
  readonly custom: 0 | 1;
  /** Offset that makes `secondsLeft` move with the clock. */
  readonly phase: number;
}

/** Exactly the API's KpdCall. */
export interface KpdCall {
  readonly id: number;
  readonly date: string;
  readonly caller_id: number;
  readonly caller_name: string;
  readonly caller_score: number;
  readonly caller_job_rating: number;
  readonly caller_job_rating_positive: number;
  readonly called_id: number;
  readonly called_name: string;
  readonly called_score: number;
  readonly kdf_type: number;
  readonly kdf_type_label: string;
  readonly status: number;
  readonly status_label: string;
  readonly rating: number;
  readonly rating_label: string;
  readonly officer_id: number;
  readonly officer_name: string;
  readonly status_date: string;
  readonly game_code: string;
  readonly host: string;
  readonly port: string;
  readonly token: string;
}

export type ApiEventType = 'map.featured' | 'map.unfeatured';

/** Exactly the API's Event. */
export interface ApiEvent {
  readonly id: number;
  readonly type: ApiEventType;
  readonly created_at: string;
  readonly target: { readonly type: string; readonly id: number };
  readonly data: { readonly map_id: number; readonly map_name: string; readonly creator: string };
}

export interface Post {
  readonly id: number;
  readonly playerId: number;
  readonly dateMs: number;
  readonly text: string;
  readonly votes: number;
  readonly commentCount: number;
}

/** Names and ids tests can rely on (each one exists in every seed). */
export interface WorldSamples {
  readonly player: string;
  readonly verifiedPlayer: string;
  readonly hackerPlayer: string;
  readonly zeroGamesPlayer: string;
  readonly kpdPlayer: string;
  readonly unicodePlayers: readonly string[];
  readonly clan: string;
  readonly markdownClan: string;
  readonly featuredMap: string;
  readonly timeBoardMap: string;
  readonly scoreBoardMap: string;
  readonly noBoardMap: string;
  readonly hiddenMap: string;
  readonly mod: string;
  readonly deletedMod: string;
  readonly skinIndex: number;
  readonly matchId: string;
  readonly rankedPlayer: string;
}

export interface World {
  readonly seed: number;
  /** Start of the UTC day of the clock when the world was made; every date is relative to it. */
  readonly anchorMs: number;
  readonly currentSeason: number;
  readonly previousSeason: number;
  readonly players: readonly Player[];
  readonly clans: readonly Clan[];
  readonly maps: readonly CommunityMap[];
  readonly officialMaps: readonly OfficialMap[];
  readonly mods: readonly Mod[];
  readonly skins: readonly SkinDefinition[];
  /** Index = skin index. */
  readonly market: readonly SkinMarket[];
  /** Oldest first; ids increase with time. */
  readonly matches: readonly Match[];
  readonly ranked: readonly RankedRecord[];
  readonly lobbies: readonly Lobby[];
  /** Newest first. */
  readonly kpdCalls: readonly KpdCall[];
  /** The events history when the sandbox started, oldest first (some already past retention). */
  readonly events: readonly ApiEvent[];
  readonly posts: readonly Post[];
  readonly samples: WorldSamples;
}
