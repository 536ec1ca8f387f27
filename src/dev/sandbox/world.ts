import {
  CLAN_NAMES,
  COMMUNITY_MAP_NAMES,
  KPD_CONTEXT_LABELS,
  KPD_RATING_LABELS,
  KPD_STATUS_LABELS,
  MAP_WORDS,
  MARKDOWN_CLAN,
  MOD_NAMES,
  NAME_PREFIXES,
  NAME_SUFFIXES,
  OFFICIAL_MAP_NAMES,
  POST_TEXTS,
  RARITY_BASE_PRICE,
  REGION_KEYS,
  SKIN_ADJECTIVES,
  SKIN_NOUNS,
  UNICODE_NAMES,
} from './names.ts';
import { Rng, hashSeed } from './prng.ts';
import { DAY_MS, HOUR_MS, iso, startOfUtcDay, ymd } from './time.ts';

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

const NOTABLE = {
  player: 'KillfeedTester',
  verified: 'VerifiedPro',
  hacker: 'Haxx0r',
  zeroGames: 'FreshSpawn',
  kpd: 'KpdOfficer',
  markdown: 'MarkdownFan',
  mapMaker: 'MapMaker',
  unicode: ['Ünïcødé_Kéké', '忍者スナイパー', 'Влад_Снайпер'],
} as const;

const PLAYER_COUNT = 320;
const SKIN_COUNT = 220;

/** Code-unit order: fast and the same everywhere (`localeCompare` is neither). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}

function makeNames(rng: Rng, count: number): string[] {
  const names: string[] = [
    NOTABLE.player,
    NOTABLE.verified,
    NOTABLE.hacker,
    NOTABLE.zeroGames,
    ...NOTABLE.unicode,
    NOTABLE.kpd,
    NOTABLE.markdown,
    NOTABLE.mapMaker,
    ...UNICODE_NAMES,
  ];
  const seen = new Set(names.map((name) => name.toLowerCase()));
  while (names.length < count) {
    const prefix = rng.pick(NAME_PREFIXES);
    const suffix = rng.pick(NAME_SUFFIXES);
    const style = rng.int(0, 5);
    const name =
      style === 0
        ? `${prefix}${suffix}`
        : style === 1
          ? `${prefix}_${suffix}`
          : style === 2
            ? `${prefix.toLowerCase()}${suffix}${rng.int(1, 999)}`
            : style === 3
              ? `xX${prefix}${suffix}Xx`
              : style === 4
                ? `${prefix}${suffix}${rng.int(10, 99)}`
                : `${suffix.toUpperCase()}_${prefix.toLowerCase()}`;
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

function makeStats(rng: Rng, games: number): PlayerStats {
  const kills = games * rng.int(4, 24) + (games > 0 ? rng.int(0, 9) : 0);
  const deaths = games * rng.int(5, 20) + (games > 0 ? rng.int(0, 9) : 0);
  const shots = kills * rng.int(6, 14);
  const headshots = Math.floor(kills * rng.float(0.08, 0.4));
  return {
    score: kills * rng.int(90, 160) + games * rng.int(10, 90),
    kills,
    deaths,
    games,
    wins: Math.floor(games * rng.float(0.25, 0.65)),
    assists: Math.floor(kills * rng.float(0.15, 0.5)),
    melees: Math.floor(kills * rng.float(0, 0.05)),
    beatdowns: Math.floor(kills * rng.float(0, 0.01, 3)),
    bullseyes: Math.floor(kills * rng.float(0, 0.02, 3)),
    headshots,
    legshots: Math.floor(kills * rng.float(0.02, 0.15)),
    wallbangs: Math.floor(kills * rng.float(0, 0.06)),
    shots,
    hits: Math.floor(shots * rng.float(0.15, 0.45)),
    timePlayed: games * rng.int(200, 420),
    nukes: Math.floor(kills / rng.int(400, 2500)),
    airdrops: Math.floor(games / rng.int(5, 30)),
    airdropsStolen: Math.floor(games / rng.int(20, 90)),
    slimes: Math.floor(games / rng.int(30, 120)),
    juggernauts: Math.floor(games / rng.int(40, 200)),
    juggernautsKilled: Math.floor(games / rng.int(30, 150)),
    warmachines: Math.floor(games / rng.int(200, 900)),
  };
}

interface PlayerDraft {
  id: number;
  name: string;
  clanId: number | null;
  verified: boolean;
  hackerTagged: boolean;
  banned: boolean;
  kpd: boolean;
  premium: boolean;
  rankedPool: boolean;
}

export function generateWorld(seed: number, nowMs: number, playerCount = PLAYER_COUNT): World {
  const rng = new Rng(hashSeed(seed, 'world'));
  const anchorMs = startOfUtcDay(nowMs);
  const daysAgo = (days: number, jitterHours = 24): number =>
    anchorMs - days * DAY_MS + Math.floor(rng.next() * jitterHours * HOUR_MS);

  // Players, first as drafts: clans and flags are decided before the records are frozen.
  const names = makeNames(rng, Math.max(playerCount, 40));
  let nextPlayerId = 1_000;
  const drafts: PlayerDraft[] = names.map((name) => {
    nextPlayerId += rng.int(1, 9);
    return {
      id: nextPlayerId,
      name,
      clanId: null,
      verified: rng.chance(0.04),
      hackerTagged: false,
      banned: false,
      kpd: rng.chance(0.02),
      premium: rng.chance(0.15),
      rankedPool: rng.chance(0.6),
    };
  });
  const draftByName = new Map(drafts.map((draft) => [draft.name, draft]));
  const draft = (name: string): PlayerDraft => {
    const found = draftByName.get(name);
    if (!found) throw new Error(`no player ${name}`);
    return found;
  };
  Object.assign(draft(NOTABLE.player), { verified: false, rankedPool: true });
  Object.assign(draft(NOTABLE.verified), { verified: true, premium: true, rankedPool: true });
  Object.assign(draft(NOTABLE.hacker), {
    hackerTagged: true,
    banned: true,
    verified: false,
    rankedPool: false,
  });
  Object.assign(draft(NOTABLE.zeroGames), { verified: false, kpd: false, premium: false, rankedPool: false });
  Object.assign(draft(NOTABLE.kpd), { kpd: true, rankedPool: true });
  for (const extra of rng.sample(drafts.slice(30), 4))
    Object.assign(extra, { hackerTagged: true, banned: true });

  // Clans: every clan gets two members first so none is empty, then most players join one.
  const clanNames = [...CLAN_NAMES, MARKDOWN_CLAN];
  const clanIds = clanNames.map((_, index) => 101 + index * 3);
  const vortexId = at(clanIds, 0);
  const markdownId = at(clanIds, clanNames.length - 1);
  const unicodeClanId = at(clanIds, clanNames.indexOf('Кланище'));
  const fixedClans = new Map<string, number | null>([
    [NOTABLE.player, vortexId],
    [NOTABLE.verified, at(clanIds, 1)],
    [NOTABLE.hacker, at(clanIds, 4)],
    [NOTABLE.zeroGames, null],
    [at(NOTABLE.unicode, 0), unicodeClanId],
    [NOTABLE.kpd, at(clanIds, 2)],
    [NOTABLE.markdown, markdownId],
    [NOTABLE.mapMaker, null],
  ]);
  const pool = rng.shuffle(drafts.filter((d) => !fixedClans.has(d.name)));
  let cursor = 0;
  for (const clanId of clanIds) {
    for (let i = 0; i < 2; i++) at(pool, cursor++).clanId = clanId;
  }
  for (; cursor < pool.length; cursor++) {
    if (rng.chance(0.72)) at(pool, cursor).clanId = rng.pick(clanIds);
  }
  for (const [name, clanId] of fixedClans) draft(name).clanId = clanId;

  const players: Player[] = drafts.map((d) => {
    const games = d.name === NOTABLE.zeroGames ? 0 : rng.int(20, 4_000);
    const stats = makeStats(rng, games);
    const classStats: Record<string, number> = {};
    if (games > 0) {
      for (const classId of rng
        .sample([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13], rng.int(2, 6))
        .sort((a, b) => a - b)) {
        classStats[String(classId)] = Math.floor(stats.score * rng.float(0.02, 0.4));
      }
    }
    const previousNames =
      rng.chance(0.2) && games > 0
        ? [{ name: `${d.name.slice(0, 6)}Old${rng.int(1, 99)}`, changedAtMs: daysAgo(rng.int(40, 600)) }]
        : [];
    return {
      id: d.id,
      name: d.name,
      clanId: d.clanId,
      verified: d.verified,
      hackerTagged: d.hackerTagged,
      banned: d.banned,
      kpd: d.kpd,
      premium: d.premium,
      flag: rng.int(0, 249),
      badges: rng
        .sample([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20], rng.int(0, 4))
        .sort((a, b) => a - b),
      twitchName:
        d.verified || rng.chance(0.08) ? `${d.name.replace(/[^A-Za-z0-9_]/g, '')}_tv`.toLowerCase() : '',
      createdAtMs: daysAgo(rng.int(30, 2_000)),
      kr: games === 0 ? 0 : rng.int(0, 450_000),
      junk: games === 0 ? 0 : rng.float(400, 3_200),
      homeRegion: rng.pick(RANKED_REGIONS),
      rankedPool: d.rankedPool && games > 0,
      stats,
      classStats,
      follows: [],
      previousNames,
      discordTag: rng.chance(0.3) ? `${d.name.toLowerCase().slice(0, 10)}#${rng.int(1000, 9999)}` : null,
    };
  });
  const zeroGames = players.find((p) => p.name === NOTABLE.zeroGames);
  for (const player of players) {
    if (player === zeroGames) continue;
    const follows = rng
      .sample(players, rng.int(0, 18))
      .filter((other) => other.id !== player.id && other !== zeroGames)
      .map((other) => other.id)
      .sort((a, b) => a - b);
    (player as { follows: readonly number[] }).follows = follows;
  }
  const playerByName = new Map(players.map((p) => [p.name, p]));
  const named = (name: string): Player => {
    const found = playerByName.get(name);
    if (!found) throw new Error(`no player ${name}`);
    return found;
  };

  const clans: Clan[] = clanNames.map((name, index) => {
    const id = at(clanIds, index);
    const memberPlayers = players.filter((p) => p.clanId === id);
    const ownerName =
      id === vortexId ? NOTABLE.player : id === markdownId ? NOTABLE.markdown : at(memberPlayers, 0).name;
    const members: ClanMember[] = memberPlayers.map((p) => ({
      playerId: p.id,
      playerName: p.name,
      role: p.name === ownerName ? 3 : rng.chance(0.15) ? 2 : rng.chance(0.3) ? 1 : 0,
    }));
    return {
      id,
      name,
      ownerId: named(ownerName).id,
      ownerName,
      createdAtMs: daysAgo(rng.int(60, 1_500)),
      discord:
        index % 4 === 3
          ? ''
          : rng.token(rng.int(7, 10), 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'),
      region: rng.pick(RANKED_REGIONS),
      language: rng.pick(['en', 'en', 'de', 'fr', 'es', 'pt', 'ru', 'tr', 'pl']),
      recruiting: rng.chance(0.6),
      motd: rng.chance(0.8)
        ? `${rng.pick(['Scrims', 'Turf', 'Ranked push', 'Clan war'])} at ${rng.int(16, 22)}:00 UTC`
        : '',
      members,
    };
  });

  // Posts.
  const posts: Post[] = [];
  let nextPostId = 50_000;
  for (const player of players) {
    if (player.stats.games === 0) continue;
    const count = rng.chance(0.5) ? rng.int(1, 14) : 0;
    const times = Array.from({ length: count }, () => daysAgo(rng.int(0, 300))).sort((a, b) => a - b);
    for (const dateMs of times) {
      nextPostId += rng.int(1, 40);
      posts.push({
        id: nextPostId,
        playerId: player.id,
        dateMs,
        text: rng.pick(POST_TEXTS),
        votes: rng.int(0, 400),
        commentCount: rng.int(0, 40),
      });
    }
  }
  posts.sort((a, b) => a.dateMs - b.dateMs || a.id - b.id);

  // Skins and their markets.
  const skins: SkinDefinition[] = [];
  const usedSkinNames = new Set<string>();
  for (let index = 0; index < SKIN_COUNT; index++) {
    let name = `${rng.pick(SKIN_ADJECTIVES)} ${rng.pick(SKIN_NOUNS)}`;
    if (usedSkinNames.has(name)) name = `${name} ${['II', 'III', 'IV', 'V'][rng.int(0, 3)] ?? 'II'}`;
    if (usedSkinNames.has(name)) name = `${name} #${index}`;
    usedSkinNames.add(name);
    const rarity = Math.min(6, Math.floor(-Math.log(1 - rng.next() * 0.999) * 1.4));
    const season = rng.int(1, 9);
    skins.push({ index, name, rarity, season, hasWear: season >= 7 });
  }
  const activePlayers = players.filter((p) => p.stats.games > 0);
  let nextMarketId = FIRST_MARKET_ID;
  const historyStart = anchorMs - (PRICE_HISTORY_DAYS - 1) * DAY_MS;
  const market: SkinMarket[] = skins.map((skin) => {
    const base = at(RARITY_BASE_PRICE, skin.rarity);
    const holderCount =
      skin.rarity >= 5 ? rng.int(0, 6) : skin.rarity >= 3 ? rng.int(3, 60) : rng.int(20, 170);
    const holders: Holder[] = rng
      .sample(activePlayers, holderCount)
      .map((p) => ({
        playerId: p.id,
        playerName: p.name,
        count: skin.rarity >= 4 ? 1 : rng.int(1, rng.chance(0.2) ? 12 : 3),
        banned: p.banned,
      }))
      .sort((a, b) => b.count - a.count || a.playerId - b.playerId);
    const listings: Listing[] = [];
    for (const holder of holders) {
      if (holder.banned || !rng.chance(0.25)) continue;
      const listed = rng.int(1, Math.min(holder.count, 3));
      for (let i = 0; i < listed; i++) {
        nextMarketId += BigInt(rng.int(1, 97));
        listings.push({
          marketId: nextMarketId.toString(),
          skinIndex: skin.index,
          price: Math.max(1, Math.round(base * rng.float(0.8, 2.5))),
          sellerId: holder.playerId,
          sellerName: holder.playerName,
          listedAtMs: daysAgo(rng.int(0, 40)),
        });
      }
    }
    listings.sort((a, b) => a.price - b.price || a.listedAtMs - b.listedAtMs);
    const salesChance = skin.rarity === 6 ? 0 : skin.rarity === 5 ? 0.04 : skin.rarity >= 3 ? 0.25 : 0.7;
    const priceHistory: DaySales[] = [];
    let drift = 1;
    for (let day = 0; day < PRICE_HISTORY_DAYS; day++) {
      drift = Math.min(3, Math.max(0.4, drift * rng.float(0.95, 1.06, 4)));
      if (!rng.chance(salesChance)) continue;
      const dayMs = historyStart + day * DAY_MS;
      priceHistory.push({
        date: ymd(dayMs),
        dayMs,
        averagePrice: Math.round(base * drift * rng.float(0.9, 1.1, 4) * 100) / 100,
        sales: rng.int(1, skin.rarity >= 4 ? 2 : 25),
      });
    }
    return {
      skinIndex: skin.index,
      listings,
      holders,
      priceHistory,
      totalCirculating: holders.reduce((sum, h) => sum + h.count, 0),
    };
  });

  // Community maps: the map maker owns several; a few are hidden; boards of every kind.
  const creators = players.filter((p) => !p.banned && p.stats.games > 0);
  const mapMaker = named(NOTABLE.mapMaker);
  let nextMapId = 100_000;
  const maps: CommunityMap[] = COMMUNITY_MAP_NAMES.map((name, index) => {
    nextMapId += rng.int(3, 400);
    const creator = index % 8 === 0 ? mapMaker : rng.pick(creators);
    const boardKind =
      name === 'Golf Course' ? 'golf' : index % 3 === 0 ? 'time' : index % 3 === 1 ? 'score' : 'none';
    const leaderboardType: BoardType | '' =
      boardKind === 'time' ? 'time' : boardKind === 'none' ? '' : 'score';
    const leaderboardOrder: 0 | 1 = boardKind === 'score' ? 1 : 0;
    const boards: Partial<Record<BoardType, BoardEntry[]>> = {};
    const fillBoard = (type: BoardType): BoardEntry[] =>
      rng.sample(creators, rng.int(20, 80)).map((p) => ({
        playerName: p.name,
        value: type === 'time' ? rng.int(12_000, 400_000) : rng.int(50, 60_000),
        dateMs: daysAgo(rng.int(0, 200)),
      }));
    if (leaderboardType !== '') boards[leaderboardType] = fillBoard(leaderboardType);
    if (leaderboardType === 'time' && index % 2 === 0) boards.score = fillBoard('score');
    const createdAtMs = daysAgo(rng.int(20, 900));
    return {
      id: nextMapId,
      name,
      description: `A ${rng.pick(MAP_WORDS)} ${rng.pick(MAP_WORDS)} map by ${creator.name}.`,
      creatorId: creator.id,
      creatorName: creator.name,
      votes: rng.int(0, 25_000),
      gameplays: rng.int(10, 900_000),
      playtimeMs: rng.int(10, 900_000) * rng.int(30_000, 400_000),
      category: rng.int(0, 7),
      createdAtMs,
      updatedAtMs: Math.min(anchorMs, createdAtMs + rng.int(0, 300) * DAY_MS),
      leaderboardType,
      leaderboardOrder,
      featured: false,
      featuredAtMs: null,
      hidden: name === 'Backrooms' ? 'restricted' : name === 'Sewers' ? 'deleted' : null,
      boards,
      versions: rng.int(1, 12),
    };
  });

  // Events history: feature and unfeature maps over 45 days; the final state is the maps' state.
  const visibleMaps = maps.filter((m) => m.hidden === null);
  const featuredAt = new Map<number, number>();
  for (const map of rng.sample(visibleMaps, 6)) featuredAt.set(map.id, anchorMs - 50 * DAY_MS);
  const events: ApiEvent[] = [];
  let nextEventId = 1_000;
  const steps = 90;
  for (let step = 0; step < steps; step++) {
    const time = anchorMs - 45 * DAY_MS + Math.floor(((step + rng.next()) * 45 * DAY_MS) / (steps + 1));
    const featuredCount = featuredAt.size;
    const feature = featuredCount < 4 ? true : featuredCount > 10 ? false : rng.chance(0.5);
    const candidates = visibleMaps.filter((m) => featuredAt.has(m.id) !== feature);
    const map = rng.pick(candidates);
    if (feature) featuredAt.set(map.id, time);
    else featuredAt.delete(map.id);
    nextEventId += rng.int(1, 7);
    events.push(makeEvent(nextEventId, feature ? 'map.featured' : 'map.unfeatured', time, map));
  }
  for (const map of maps) {
    const when = featuredAt.get(map.id);
    if (when !== undefined) Object.assign(map, { featured: true, featuredAtMs: when });
  }

  const officialMaps: OfficialMap[] = OFFICIAL_MAP_NAMES.map((name, id) => ({ id, name }));

  const hacker = named(NOTABLE.hacker);
  const mods: Mod[] = MOD_NAMES.map((name, index) => {
    const creator = name === 'Hacker Pack' ? hacker : rng.pick(creators);
    const createdAtMs = daysAgo(rng.int(10, 1_200));
    return {
      id: 5_000 + index * 11 + rng.int(0, 9),
      name,
      description: `${name}: a ${rng.pick(MAP_WORDS)} resource pack.`,
      creatorName: creator.name,
      creatorBanned: creator.banned,
      votes: rng.int(0, 40_000),
      featured: rng.chance(0.2),
      version: rng.int(1, 30),
      createdAtMs,
      updatedAtMs: Math.min(anchorMs, createdAtMs + rng.int(0, 400) * DAY_MS),
      deleted: name === 'Deleted Mod' || name === 'Old Junk',
    };
  });

  // Ranked matches per season and region, then the ranked records derived from them.
  const matches: Match[] = [];
  const seasonSpan: Readonly<Record<number, readonly [number, number]>> = {
    [PREVIOUS_SEASON]: [150, 61],
    [CURRENT_SEASON]: [60, 0],
  };
  const raw: Omit<Match, 'id'>[] = [];
  const rankedMaps = [0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 16, 17];
  for (const season of [PREVIOUS_SEASON, CURRENT_SEASON]) {
    const [fromDay, toDay] = seasonSpan[season] ?? [0, 0];
    for (const region of RANKED_REGIONS) {
      const regionPool = players.filter((p) => p.rankedPool && p.homeRegion === region);
      for (let m = 0; m < 100; m++) {
        const dateMs = daysAgo(rng.int(toDay, fromDay));
        const duration = rng.int(300, 900);
        const draw = rng.chance(0.05);
        const winner = rng.int(1, 2);
        const winnerRounds = rng.int(3, 4);
        const loserRounds = draw ? winnerRounds : rng.int(0, winnerRounds - 1);
        const chosen = rng.sample(regionPool, 8);
        const participants: Participant[] = chosen.map((p, slot) => {
          const team = slot < 4 ? 1 : 2;
          const won = !draw && team === winner;
          const kills = rng.int(3, 38);
          return {
            playerId: p.id,
            playerName: p.name,
            kills,
            deaths: rng.int(4, 32),
            assists: rng.int(0, 16),
            score: kills * rng.int(90, 140) + rng.int(0, 900),
            damageDone: kills * rng.int(80, 120) + rng.int(0, 2_000),
            headshots: rng.int(0, kills),
            accuracy: rng.int(12, 58),
            objectiveScore: rng.int(0, 4_000),
            victory: draw ? -1 : won ? 1 : 0,
            roundsWon: draw ? winnerRounds : won ? winnerRounds : loserRounds,
            team,
            playTime: duration - rng.int(0, 40),
            kr: rng.int(5, won ? 80 : 30),
            result: draw ? -1 : won ? 1 : 0,
          };
        });
        participants.sort((a, b) => a.team - b.team || b.score - a.score);
        raw.push({ dateMs, map: rng.pick(rankedMaps), mode: 2, duration, season, region, participants });
      }
    }
  }
  raw.sort((a, b) => a.dateMs - b.dateMs);
  let nextMatchId = FIRST_MATCH_ID;
  for (const match of raw) {
    matches.push({ id: nextMatchId.toString(), ...match });
    nextMatchId += BigInt(rng.int(1, 5_000));
  }

  const rankedTotals = new Map<string, RankedRecord>();
  for (const match of matches) {
    for (const p of match.participants) {
      const key = `${match.season}:${match.region}:${p.playerId}`;
      const previous = rankedTotals.get(key);
      rankedTotals.set(key, {
        season: match.season,
        region: match.region,
        playerId: p.playerId,
        playerName: p.playerName,
        mmr: 0,
        matches: (previous?.matches ?? 0) + 1,
        wins: (previous?.wins ?? 0) + (p.result === 1 ? 1 : 0),
        losses: (previous?.losses ?? 0) + (p.result === 0 ? 1 : 0),
        kills: (previous?.kills ?? 0) + p.kills,
        deaths: (previous?.deaths ?? 0) + p.deaths,
        assists: (previous?.assists ?? 0) + p.assists,
        score: (previous?.score ?? 0) + p.score,
        damageDone: (previous?.damageDone ?? 0) + p.damageDone,
        timePlayed: (previous?.timePlayed ?? 0) + p.playTime,
      });
    }
  }
  const ranked: RankedRecord[] = [...rankedTotals.values()].map((record) => ({
    ...record,
    mmr: Math.max(
      0,
      1_200 +
        (record.wins - record.losses) * 35 +
        rng.int(-300, 900) +
        (record.playerName === NOTABLE.verified ? 1_500 : 0),
    ),
  }));
  ranked.sort(
    (a, b) => a.season - b.season || a.region - b.region || b.mmr - a.mmr || a.playerId - b.playerId,
  );

  const lobbies: Lobby[] = Array.from({ length: 48 }, (_, index) => {
    const region = at(REGION_KEYS, index % REGION_KEYS.length);
    const custom: 0 | 1 = rng.chance(0.25) ? 1 : 0;
    const maxPlayers = custom === 1 ? rng.pick([2, 4, 8, 10, 16]) : rng.pick([6, 8, 10]);
    return {
      gameId: `${(region.split('-').at(-1) ?? region).toUpperCase()}:${rng.token(5)}`,
      region,
      players: rng.int(0, maxPlayers),
      maxPlayers,
      mapName: custom === 1 && rng.chance(0.5) ? rng.pick(visibleMaps).name : rng.pick(OFFICIAL_MAP_NAMES),
      mode: rng.pick([0, 0, 0, 1, 2, 3, 5, 8, 11]),
      custom,
      phase: rng.int(0, 239),
    };
  });

  const kpdPlayer = named(NOTABLE.kpd);
  const officers = [kpdPlayer, ...players.filter((p) => p.kpd && p !== kpdPlayer)];
  const callers = players.filter((p) => p.stats.games > 0 && !p.banned);
  const kpdCalls: KpdCall[] = [];
  let nextCallId = 88_000;
  let callTime = anchorMs - 10 * DAY_MS;
  const calls: KpdCall[] = [];
  for (let i = 0; i < 50; i++) {
    nextCallId += rng.int(1, 30);
    callTime += rng.int(1, 5 * 60) * 60_000;
    const status = (i % 3) + 1;
    const rating = status === 1 ? 0 : status === 2 ? (i % 2 === 0 ? 0 : 1) : i % 2 === 0 ? 1 : 2;
    const caller = rng.pick(callers);
    const guest = i % 7 === 3;
    const called = i === 4 ? hacker : rng.pick(players);
    const officer = status === 1 ? null : rng.pick(officers);
    const kdfType = i % 4;
    const region = rng.pick(REGION_KEYS);
    const jobRating = rng.int(0, 400);
    calls.push({
      id: nextCallId,
      date: iso(callTime),
      caller_id: caller.id,
      caller_name: caller.name,
      caller_score: caller.stats.score,
      caller_job_rating: jobRating,
      caller_job_rating_positive: rng.int(0, jobRating),
      called_id: guest ? 0 : called.id,
      called_name: guest ? 'guest' : called.name,
      called_score: guest ? 0 : called.stats.score,
      kdf_type: kdfType,
      kdf_type_label: at(KPD_CONTEXT_LABELS, kdfType),
      status,
      status_label: KPD_STATUS_LABELS[status] ?? '',
      rating,
      rating_label: at(KPD_RATING_LABELS, rating),
      officer_id: officer?.id ?? 0,
      officer_name: officer?.name ?? '',
      status_date: iso(callTime + (status === 1 ? 0 : rng.int(5, 600) * 60_000)),
      game_code: `${(region.split('-').at(-1) ?? region).toUpperCase()}:${rng.token(5)}`,
      host: `${region}-${rng.int(1, 9)}.gameservers.example`,
      port: String(rng.int(30_000, 39_999)),
      token: rng.token(32, '0123456789abcdef'),
    });
  }
  kpdCalls.push(...calls.reverse());

  const currentMatches = matches.filter((m) => m.season === CURRENT_SEASON);
  const sampleMatch = at(currentMatches, Math.floor(currentMatches.length / 2));
  const rankedPlayer = ranked.find(
    (r) => r.season === CURRENT_SEASON && r.matches >= PLACEMENT_MATCHES && r.playerName === NOTABLE.verified,
  );
  const firstWhere = <T>(items: readonly T[], predicate: (item: T) => boolean, what: string): T => {
    const found = items.find(predicate);
    if (found === undefined) throw new Error(`seeded world has no ${what}`);
    return found;
  };
  const samples: WorldSamples = {
    player: NOTABLE.player,
    verifiedPlayer: NOTABLE.verified,
    hackerPlayer: NOTABLE.hacker,
    zeroGamesPlayer: NOTABLE.zeroGames,
    kpdPlayer: NOTABLE.kpd,
    unicodePlayers: [...NOTABLE.unicode, ...UNICODE_NAMES],
    clan: 'Vortex',
    markdownClan: MARKDOWN_CLAN,
    featuredMap: firstWhere(maps, (m) => m.featured, 'featured map').name,
    timeBoardMap: firstWhere(maps, (m) => m.hidden === null && m.leaderboardType === 'time', 'time board')
      .name,
    scoreBoardMap: firstWhere(
      maps,
      (m) => m.hidden === null && m.leaderboardType === 'score' && m.leaderboardOrder === 1,
      'score board',
    ).name,
    noBoardMap: firstWhere(maps, (m) => m.hidden === null && m.leaderboardType === '', 'map without board')
      .name,
    hiddenMap: firstWhere(maps, (m) => m.hidden !== null, 'hidden map').name,
    mod: firstWhere(mods, (m) => !m.deleted && !m.creatorBanned, 'mod').name,
    deletedMod: firstWhere(mods, (m) => m.deleted, 'deleted mod').name,
    skinIndex: firstWhere(market, (m) => m.listings.length >= 12 && m.priceHistory.length > 0, 'busy skin')
      .skinIndex,
    matchId: sampleMatch.id,
    rankedPlayer:
      rankedPlayer?.playerName ??
      firstWhere(
        ranked,
        (r) => r.season === CURRENT_SEASON && r.matches >= PLACEMENT_MATCHES,
        'ranked player',
      ).playerName,
  };

  return {
    seed,
    anchorMs,
    currentSeason: CURRENT_SEASON,
    previousSeason: PREVIOUS_SEASON,
    players,
    clans,
    maps,
    officialMaps,
    mods,
    skins,
    market,
    matches,
    ranked,
    lobbies,
    kpdCalls,
    events,
    posts,
    samples,
  };
}

export function makeEvent(
  id: number,
  type: ApiEventType,
  createdAtMs: number,
  map: Pick<CommunityMap, 'id' | 'name' | 'creatorName'>,
): ApiEvent {
  return {
    id,
    type,
    created_at: iso(createdAtMs),
    target: { type: 'map', id: map.id },
    data: { map_id: map.id, map_name: map.name, creator: map.creatorName },
  };
}
