import { RARITY_BASE_PRICE } from './names.ts';
import { compareText } from './world/common.ts';
import {
  PLACEMENT_MATCHES,
  type Clan,
  type CommunityMap,
  type Listing,
  type Match,
  type Mod,
  type Player,
  type Post,
  type RankedRecord,
  type SkinMarket,
  type World,
} from './world/types.ts';

export interface InventoryItem {
  readonly skin_index: number;
  readonly count: number;
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Lookups and figures derived from the world once, so replies stay cheap (the activity log updates them). */
export class WorldIndex {
  readonly #playersByName: Map<string, Player>;
  readonly #playersById: Map<number, Player>;
  readonly #clansByName: Map<string, Clan>;
  readonly #clansById: Map<number, Clan>;
  readonly #mapsByName: Map<string, CommunityMap>;
  readonly #mapsById: Map<number, CommunityMap>;
  readonly #modsByName: Map<string, Mod>;
  readonly #matchesById: Map<string, Match>;
  readonly #matchesByPlayer: Map<number, Match[]>;
  readonly #rankedRecords: Map<string, RankedRecord>;
  readonly #rankedBoards: Map<string, RankedRecord[]>;
  readonly #rankedByPlayer: Map<number, RankedRecord[]>;
  readonly #followers: Map<number, number[]>;
  readonly #postsByPlayer: Map<number, Post[]>;
  readonly #postsById: Map<number, Post>;
  readonly #listingsBySeller: Map<number, Listing[]>;
  readonly #inventories: Map<number, InventoryItem[]>;
  /** Clan scores and ranks follow the members' scores: recomputed on the next read after a change. */
  #clanScores = new Map<number, number>();
  #clanRanks = new Map<number, number>();
  #clanScoresStale = true;

  constructor(readonly world: World) {
    this.#playersByName = new Map(world.players.map((p) => [p.name, p]));
    this.#playersById = new Map(world.players.map((p) => [p.id, p]));
    this.#clansByName = new Map(world.clans.map((c) => [c.name, c]));
    this.#clansById = new Map(world.clans.map((c) => [c.id, c]));
    this.#mapsByName = new Map(world.maps.map((m) => [m.name.toLowerCase(), m]));
    this.#mapsById = new Map(world.maps.map((m) => [m.id, m]));
    this.#modsByName = new Map(world.mods.map((m) => [m.name, m]));
    this.#matchesById = new Map(world.matches.map((m) => [m.id, m]));

    this.#matchesByPlayer = new Map();
    for (let i = world.matches.length - 1; i >= 0; i--) {
      const match = world.matches[i];
      if (!match) continue;
      for (const p of match.participants) {
        const list = this.#matchesByPlayer.get(p.playerId);
        if (list) list.push(match);
        else this.#matchesByPlayer.set(p.playerId, [match]);
      }
    }

    this.#rankedRecords = new Map(world.ranked.map((r) => [rankedKey(r.season, r.region, r.playerId), r]));
    const eligible = world.ranked.filter((r) => r.matches >= PLACEMENT_MATCHES);
    this.#rankedBoards = groupBy(eligible, (r) => `${r.season}:${r.region}`);
    for (const board of this.#rankedBoards.values())
      board.sort((a, b) => b.mmr - a.mmr || a.playerId - b.playerId);
    this.#rankedByPlayer = groupBy(eligible, (r) => r.playerId);

    this.#followers = new Map();
    for (const player of world.players) {
      for (const followed of player.follows) {
        const list = this.#followers.get(followed);
        if (list) list.push(player.id);
        else this.#followers.set(followed, [player.id]);
      }
    }

    this.#postsByPlayer = groupBy([...world.posts].reverse(), (p) => p.playerId);
    this.#postsById = new Map(world.posts.map((p) => [p.id, p]));

    const listings = world.market.flatMap((m) => m.listings);
    this.#listingsBySeller = groupBy(
      [...listings].sort((a, b) => b.listedAtMs - a.listedAtMs || compareText(b.marketId, a.marketId)),
      (l) => l.sellerId,
    );
    const listedCount = new Map<string, number>();
    for (const listing of listings) {
      const key = `${listing.sellerId}:${listing.skinIndex}`;
      listedCount.set(key, (listedCount.get(key) ?? 0) + 1);
    }
    this.#inventories = new Map();
    for (const skinMarket of world.market) {
      for (const holder of skinMarket.holders) {
        const count = holder.count - (listedCount.get(`${holder.playerId}:${skinMarket.skinIndex}`) ?? 0);
        if (count <= 0) continue;
        const list = this.#inventories.get(holder.playerId);
        const item = { skin_index: skinMarket.skinIndex, count };
        if (list) list.push(item);
        else this.#inventories.set(holder.playerId, [item]);
      }
    }
  }

  player(name: string): Player | undefined {
    return this.#playersByName.get(name);
  }

  playerById(id: number): Player | undefined {
    return this.#playersById.get(id);
  }

  clan(name: string): Clan | undefined {
    return this.#clansByName.get(name);
  }

  clanById(id: number): Clan | undefined {
    return this.#clansById.get(id);
  }

  clanOf(player: Player): Clan | undefined {
    return player.clanId === null ? undefined : this.#clansById.get(player.clanId);
  }

  /** Case-insensitive; hidden (restricted or deleted) maps are not found. */
  map(name: string): CommunityMap | undefined {
    const map = this.#mapsByName.get(name.toLowerCase());
    return map?.hidden === null ? map : undefined;
  }

  mapById(id: number): CommunityMap | undefined {
    const map = this.#mapsById.get(id);
    return map?.hidden === null ? map : undefined;
  }

  /** Deleted mods are not found. */
  mod(name: string): Mod | undefined {
    const mod = this.#modsByName.get(name);
    return mod && !mod.deleted ? mod : undefined;
  }

  match(id: string): Match | undefined {
    return this.#matchesById.get(id);
  }

  /** Newest first. */
  matchesOf(playerId: number): readonly Match[] {
    return this.#matchesByPlayer.get(playerId) ?? [];
  }

  /** Players with enough placement matches, mmr descending. */
  rankedBoard(season: number, region: number): readonly RankedRecord[] {
    return this.#rankedBoards.get(`${season}:${region}`) ?? [];
  }

  /** The player's records with enough placement matches. */
  rankedOf(playerId: number, season?: number): readonly RankedRecord[] {
    const records = this.#rankedByPlayer.get(playerId) ?? [];
    return season === undefined ? records : records.filter((r) => r.season === season);
  }

  followersOf(playerId: number): readonly number[] {
    return this.#followers.get(playerId) ?? [];
  }

  /** Newest first. */
  postsOf(playerId: number): readonly Post[] {
    return this.#postsByPlayer.get(playerId) ?? [];
  }

  post(id: number): Post | undefined {
    return this.#postsById.get(id);
  }

  /** Every post's id, those written while the sandbox runs included. */
  postIds(): IterableIterator<number> {
    return this.#postsById.keys();
  }

  /** A post written now: it becomes the player's newest. */
  addPost(post: Post): void {
    this.#postsByPlayer.set(post.playerId, [post, ...this.postsOf(post.playerId)]);
    this.#postsById.set(post.id, post);
  }

  /** Newest first. */
  listingsOf(playerId: number): readonly Listing[] {
    return this.#listingsBySeller.get(playerId) ?? [];
  }

  /** What the player holds and has not listed, by skin index. */
  inventoryOf(playerId: number): readonly InventoryItem[] {
    return this.#inventories.get(playerId) ?? [];
  }

  inventoryValue(playerId: number): number {
    let total = 0;
    for (const item of this.inventoryOf(playerId)) {
      const rarity = this.world.skins[item.skin_index]?.rarity ?? 0;
      total += (RARITY_BASE_PRICE[rarity] ?? 0) * item.count;
    }
    return total;
  }

  clanScore(clanId: number): number {
    this.#refreshClanScores();
    return this.#clanScores.get(clanId) ?? 0;
  }

  clanRank(clanId: number): number {
    this.#refreshClanScores();
    return this.#clanRanks.get(clanId) ?? 0;
  }

  #refreshClanScores(): void {
    if (!this.#clanScoresStale) return;
    this.#clanScoresStale = false;
    const clans = this.world.clans;
    this.#clanScores = new Map(
      clans.map((clan) => [
        clan.id,
        clan.members.reduce((sum, m) => sum + (this.#playersById.get(m.playerId)?.stats.score ?? 0), 0),
      ]),
    );
    const byScore = [...clans].sort(
      (a, b) => (this.#clanScores.get(b.id) ?? 0) - (this.#clanScores.get(a.id) ?? 0) || a.id - b.id,
    );
    this.#clanRanks = new Map(byScore.map((clan, index) => [clan.id, index + 1]));
  }

  // Changes made by the activity log (activity.ts). Each one swaps the changed record for a new one in the
  // world's arrays and in every index here, so routes reading either see the same state.

  /** Any ranked record of the player, placement finished or not. */
  rankedRecord(season: number, region: number, playerId: number): RankedRecord | undefined {
    return this.#rankedRecords.get(rankedKey(season, region, playerId));
  }

  /** A match just finished: the newest of the world and of each participant. */
  addMatch(match: Match): void {
    (this.world.matches as Match[]).push(match);
    this.#matchesById.set(match.id, match);
    for (const p of match.participants)
      this.#matchesByPlayer.set(p.playerId, [match, ...this.matchesOf(p.playerId)]);
  }

  /** Adds or replaces the player's record of a season and region; boards list it once placement is done. */
  putRanked(record: RankedRecord): void {
    const key = rankedKey(record.season, record.region, record.playerId);
    const previous = this.#rankedRecords.get(key);
    this.#rankedRecords.set(key, record);
    replaceOrAppend(this.world.ranked as RankedRecord[], previous, record);

    const boardKey = `${record.season}:${record.region}`;
    const board = (this.#rankedBoards.get(boardKey) ?? []).filter((r) => r !== previous);
    const own = (this.#rankedByPlayer.get(record.playerId) ?? []).filter((r) => r !== previous);
    if (record.matches >= PLACEMENT_MATCHES) {
      board.push(record);
      board.sort((a, b) => b.mmr - a.mmr || a.playerId - b.playerId);
      own.push(record);
    }
    this.#rankedBoards.set(boardKey, board);
    this.#rankedByPlayer.set(record.playerId, own);
  }

  /**
   * A holder lists one more of a skin (`market-live.ts`): the skin's listings (price ascending), the
   * seller's (newest first) and the seller's unlisted inventory change together.
   */
  addListing(listing: Listing): void {
    const market = this.world.market[listing.skinIndex];
    if (!market) throw new RangeError(`no skin ${listing.skinIndex}`);
    const listings = [...market.listings, listing].sort(
      (a, b) => a.price - b.price || a.listedAtMs - b.listedAtMs,
    );
    (this.world.market as SkinMarket[])[listing.skinIndex] = { ...market, listings };
    this.#listingsBySeller.set(listing.sellerId, [listing, ...this.listingsOf(listing.sellerId)]);
    const inventory = this.inventoryOf(listing.sellerId)
      .map((item) => (item.skin_index === listing.skinIndex ? { ...item, count: item.count - 1 } : item))
      .filter((item) => item.count > 0);
    this.#inventories.set(listing.sellerId, inventory);
  }

  /** The player's new state (same id and name). */
  replacePlayer(player: Player): void {
    const previous = this.#playersById.get(player.id);
    replaceOrAppend(this.world.players as Player[], previous, player);
    this.#playersById.set(player.id, player);
    this.#playersByName.set(player.name, player);
    this.#clanScoresStale = true;
  }

  /** The player under a new name (`clans-roster.ts`): the old name no longer finds them. */
  renamePlayer(player: Player, name: string): void {
    const previous = this.#playersById.get(player.id);
    if (previous) this.#playersByName.delete(previous.name);
    this.replacePlayer({ ...(previous ?? player), name });
  }

  /** The clan's new state (same id and name). */
  replaceClan(clan: Clan): void {
    const previous = this.#clansById.get(clan.id);
    replaceOrAppend(this.world.clans as Clan[], previous, clan);
    this.#clansById.set(clan.id, clan);
    this.#clansByName.set(clan.name, clan);
    this.#clanScoresStale = true;
  }
}

/** A player posts on their profile at `nowMs` (`Sandbox.posts.add`); throws for an unknown name. */
export function addPost(index: WorldIndex, nowMs: number, playerName: string, text: string): void {
  const { world } = index;
  const player = world.players.find((p) => p.name.toLowerCase() === playerName.toLowerCase());
  if (!player) throw new Error(`the sandbox world has no player named ${playerName}`);
  const newest = Math.max(0, ...world.posts.map((p) => p.id), ...[...index.postIds()]);
  index.addPost({ id: newest + 1, playerId: player.id, dateMs: nowMs, text, votes: 0, commentCount: 0 });
}

function rankedKey(season: number, region: number, playerId: number): string {
  return `${season}:${region}:${playerId}`;
}

function replaceOrAppend<T>(items: T[], previous: T | undefined, next: T): void {
  const at = previous === undefined ? -1 : items.indexOf(previous);
  if (at === -1) items.push(next);
  else items[at] = next;
}
