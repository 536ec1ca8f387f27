import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as s from '../../src/api/schemas/index.ts';
import { degradations, MAX_LIST_ITEMS } from '../../src/api/schemas/tolerant.ts';

type Sample = Record<string, unknown>;
interface Case {
  readonly name: string;
  readonly schema: z.ZodObject;
  readonly sample: Sample;
}

const clanMember = { player_name: 'Sidney', role: 2, verified: true, score: 1200 };
const event = {
  id: 41,
  type: 'map.featured',
  created_at: '2026-03-20T10:00:00Z',
  target: { type: 'map', id: 77 },
  data: { map_id: 77, map_name: 'Bridges', creator: 'Ada' },
};
const kpdCall = {
  id: 9,
  date: '2026-03-20T10:00:00Z',
  caller_id: 1,
  caller_name: 'Ada',
  caller_score: 100,
  caller_job_rating: 10,
  caller_job_rating_positive: 8,
  called_id: 2,
  called_name: 'guest',
  called_score: 0,
  kdf_type: 1,
  kdf_type_label: 'ranked',
  status: 2,
  status_label: 'responded',
  rating: 1,
  rating_label: 'banned',
  officer_id: 3,
  officer_name: 'Officer',
  status_date: '2026-03-20T11:00:00Z',
  game_code: 'FRA:abcde',
  host: 'game.example',
  port: '443',
  token: 'opaque',
};
const rankedTotals = {
  mmr: 2400,
  wins: 30,
  losses: 4,
  kills: 900,
  deaths: 300,
  assists: 120,
  score: 50_000,
  damage_done: 90_000,
};
const rankedEntry = { position: 1, player_name: 'Ada', ...rankedTotals };
const mapInfo = {
  map_id: 77,
  name: 'Bridges',
  description: 'Two bridges',
  creator_name: 'Ada',
  votes: 12,
  gameplays: 4000,
  playtime: 86_400_000,
  category: 3,
  created_at: '2025-01-02 03:04:05',
  updated_at: '2025-02-03 04:05:06',
  leaderboard_type: 'time',
  leaderboard_order: 0,
  featured: true,
};
const featuredMap = { map_id: 77, name: 'Bridges', creator_id: 5, creator_name: 'Ada' };
const mapEntry = { position: 1, player_name: 'Ada', value: 51_234, date: '2026-03-01T00:00:00Z' };
const marketListing = { price: 500, seller_name: 'Bob', listed_at: '2026-03-01T00:00:00Z' };
const marketOwner = { player_name: 'Bob', count: 3 };
const priceDay = { date: '2026-03-01', average_price: 512.5, sales: 4 };
const participant = {
  player_name: 'Ada',
  kills: 20,
  deaths: 5,
  assists: 3,
  score: 3000,
  damage_done: 2500,
  headshots: 7,
  accuracy: 41,
  objective_score: 200,
  victory: 1,
  rounds_won: 3,
  team: 1,
  play_time: 600,
};
const mod = {
  mod_id: 4,
  name: 'Neon',
  description: 'Bright',
  creator_name: 'Ada',
  votes: 30,
  featured: false,
  version: 2,
  created_at: '2025-01-02 03:04:05',
  updated_at: '2025-02-03 04:05:06',
};
const playerRanked = { region: 3, ...rankedTotals, time_played: 3600 };
const playerProfile = {
  player_id: 1,
  player_name: 'Ada',
  clan: 'VOID',
  verified: true,
  flag: 44,
  badges: [1, 5],
  following: 3,
  followers: 90,
  ranked: [playerRanked],
  kr: 12_000,
  level: 52,
  junk: 1.5,
  inventory: 80_000,
  score: 3_000_000,
  spk: 120.5,
  kills: 25_000,
  deaths: 10_000,
  kdr: 2.5,
  kpg: 12.1,
  games: 2000,
  wins: 900,
  losses: 1100,
  assists: 3000,
  melees: 100,
  beatdowns: 5,
  bullseyes: 9,
  headshots: 4000,
  legshots: 300,
  wallbangs: 200,
  shots: 100_000,
  hits: 40_000,
  misses: 60_000,
  time_played: 720_000,
  nukes: 12,
  airdrops: 40,
  airdrops_stolen: 2,
  slimes: 1,
  juggernauts: 3,
  juggernauts_killed: 4,
  warmachines: 1,
  class_stats: { '0': 1000, '3': 2000 },
  hacker_tagged: false,
  kpd: false,
  premium: true,
  twitch_name: '',
  created_at: '2020-05-01T00:00:00Z',
};
const inventoryItem = { skin_index: 120, count: 2 };
const playerListing = {
  market_id: '9007199254740993',
  skin_index: 120,
  price: 700,
  listed_at: '2026-03-01T00:00:00Z',
};
const playerMatch = {
  match_id: '9007199254740995',
  date: '2026-03-01T00:00:00Z',
  map: 2,
  duration: 900,
  season: 5,
  region: 3,
  kills: 20,
  deaths: 5,
  assists: 3,
  score: 3000,
  damage_done: 2500,
  headshots: 7,
  accuracy: 41,
  objective_score: 200,
  kr: 15,
  victory: -1,
  rounds_won: 2,
  team: 2,
  play_time: 900,
};
const playerPost = { date: '2026-03-01T00:00:00Z', text: 'gg', votes: 3, comment_count: 1 };
const skin = { skin_index: 120, name: 'Neon Blade', rarity: 4, season: 5 };

/** A valid sample of every developer resource and of every record inside one. */
const cases: readonly Case[] = [
  {
    name: 'ClanProfile',
    schema: s.ClanProfileSchema,
    sample: {
      name: 'VOID',
      owner_name: 'Ada',
      score: 12_345_678,
      rank: 3,
      member_count: 20,
      created_at: '2024-01-01T00:00:00Z',
      discord: 'abcDEF',
    },
  },
  { name: 'ClanMember', schema: s.ClanMemberSchema, sample: clanMember },
  {
    name: 'ClanMembers',
    schema: s.ClanMembersSchema,
    sample: { page: 1, per_page: 10, members: [clanMember] },
  },
  { name: 'Event', schema: s.EventSchema, sample: event },
  { name: 'EventTarget', schema: s.EventTargetSchema, sample: event.target },
  { name: 'EventData', schema: s.EventDataSchema, sample: event.data },
  { name: 'EventsPage', schema: s.EventsPageSchema, sample: { events: [event], next: 41, has_more: false } },
  { name: 'KpdCall', schema: s.KpdCallSchema, sample: kpdCall },
  { name: 'RankedLeaderboardEntry', schema: s.RankedLeaderboardEntrySchema, sample: rankedEntry },
  {
    name: 'RankedLeaderboard',
    schema: s.RankedLeaderboardSchema,
    sample: { page: 1, per_page: 10, season: 5, region: 3, entries: [rankedEntry] },
  },
  { name: 'MapInfo', schema: s.MapInfoSchema, sample: mapInfo },
  { name: 'FeaturedMap', schema: s.FeaturedMapSchema, sample: featuredMap },
  { name: 'FeaturedMaps', schema: s.FeaturedMapsSchema, sample: { maps: [featuredMap], count: 1 } },
  { name: 'MapLeaderboardEntry', schema: s.MapLeaderboardEntrySchema, sample: mapEntry },
  {
    name: 'MapLeaderboard',
    schema: s.MapLeaderboardSchema,
    sample: {
      page: 1,
      per_page: 25,
      map_name: 'Bridges',
      leaderboard_type: 'time',
      leaderboard_order: 0,
      entries: [mapEntry],
    },
  },
  {
    name: 'MapLeaderboardPlayer',
    schema: s.MapLeaderboardPlayerSchema,
    sample: { map_name: 'Bridges', leaderboard_type: 'time', leaderboard_order: 0, ...mapEntry },
  },
  { name: 'MarketSkinListing', schema: s.MarketSkinListingSchema, sample: marketListing },
  { name: 'MarketSkinOwner', schema: s.MarketSkinOwnerSchema, sample: marketOwner },
  { name: 'PriceHistoryDay', schema: s.PriceHistoryDaySchema, sample: priceDay },
  {
    name: 'MarketSkin',
    schema: s.MarketSkinSchema,
    sample: {
      skin_index: 120,
      total_listings: 1,
      lowest_price: 500,
      average_price: 512.5,
      total_circulating: 300,
      listings: [marketListing],
      owners: [marketOwner],
      price_history: [priceDay],
    },
  },
  { name: 'MatchParticipant', schema: s.MatchParticipantSchema, sample: participant },
  {
    name: 'MatchDetails',
    schema: s.MatchDetailsSchema,
    sample: {
      match_id: '9007199254740993',
      date: '2026-03-01T00:00:00Z',
      map: 2,
      duration: 900,
      season: 5,
      region: 3,
      participants: [participant],
    },
  },
  { name: 'Mod', schema: s.ModSchema, sample: mod },
  { name: 'ModsPage', schema: s.ModsPageSchema, sample: { page: 1, per_page: 10, mods: [mod] } },
  { name: 'PlayerRanked', schema: s.PlayerRankedSchema, sample: playerRanked },
  { name: 'PlayerProfile', schema: s.PlayerProfileSchema, sample: playerProfile },
  { name: 'InventoryItem', schema: s.InventoryItemSchema, sample: inventoryItem },
  { name: 'PlayerListing', schema: s.PlayerListingSchema, sample: playerListing },
  {
    name: 'PlayerListings',
    schema: s.PlayerListingsSchema,
    sample: { page: 1, per_page: 10, listings: [playerListing] },
  },
  { name: 'PlayerMatch', schema: s.PlayerMatchSchema, sample: playerMatch },
  {
    name: 'PlayerMatches',
    schema: s.PlayerMatchesSchema,
    sample: { page: 1, per_page: 10, matches: [playerMatch] },
  },
  { name: 'PlayerPost', schema: s.PlayerPostSchema, sample: playerPost },
  {
    name: 'PlayerPosts',
    schema: s.PlayerPostsSchema,
    sample: { page: 1, per_page: 10, posts: [playerPost] },
  },
  { name: 'SkinDefinition', schema: s.SkinDefinitionSchema, sample: skin },
  { name: 'SkinsPage', schema: s.SkinsPageSchema, sample: { page: 1, per_page: 50, skins: [skin] } },
];

function isOptional(field: z.core.$ZodType): field is z.ZodCatch<z.ZodOptional> {
  return field instanceof z.ZodCatch;
}

function fieldsOf(schema: z.ZodObject): [string, z.core.$ZodType][] {
  return Object.entries<z.core.$ZodType>(schema.shape);
}

function optionalKeys(schema: z.ZodObject): string[] {
  return fieldsOf(schema)
    .filter(([, field]) => isOptional(field))
    .map(([key]) => key);
}

function requiredKeys(schema: z.ZodObject): string[] {
  return fieldsOf(schema)
    .filter(([, field]) => !isOptional(field))
    .map(([key]) => key);
}

/** Whether the field's own type (without the degrade-to-absent wrapper) accepts `value`. */
function fieldAccepts(schema: z.ZodObject, key: string, value: unknown): boolean {
  const field = fieldsOf(schema).find(([name]) => name === key)?.[1];
  if (field === undefined) throw new Error(`no field ${key}`);
  const inner = isOptional(field) ? field.unwrap().unwrap() : field;
  return z.safeParse(inner, value).success;
}

function without(value: Sample, key: string): Sample {
  const copy = { ...value };
  Reflect.deleteProperty(copy, key);
  return copy;
}

let reported: string[] = [];

beforeEach(() => {
  degradations.reset();
  reported = [];
  degradations.listen((resource, field) => reported.push(`${resource}.${field}`));
});

afterEach(() => {
  degradations.listen(() => undefined);
  degradations.reset();
});

describe('developer schemas', () => {
  it.each(cases)('$name: a valid sample parses as it is, with no degradation', ({ schema, sample }) => {
    expect(schema.parse(sample)).toEqual(sample);
    expect(reported).toEqual([]);
  });

  it('covers every documented developer resource', () => {
    const named = new Set(cases.map((c) => c.name));
    for (const resource of [
      'ClanProfile',
      'ClanMembers',
      'Event',
      'EventsPage',
      'KpdCall',
      'RankedLeaderboard',
      'MapInfo',
      'FeaturedMaps',
      'MapLeaderboard',
      'MapLeaderboardPlayer',
      'MarketSkin',
      'MatchDetails',
      'ModsPage',
      'Mod',
      'PlayerProfile',
      'InventoryItem',
      'PlayerListings',
      'PlayerMatches',
      'PlayerPosts',
      'SkinsPage',
    ]) {
      expect(named).toContain(resource);
    }
  });

  it.each(cases)(
    '$name: unknown extra fields are accepted, dropped, and change nothing else',
    ({ schema, sample }) => {
      const known = new Set(Object.keys(schema.shape));
      const extras = fc.dictionary(
        fc.string().filter((key) => !known.has(key) && key !== '__proto__'),
        fc.jsonValue(),
      );
      fc.assert(
        fc.property(extras, (extra) => {
          const parsed = schema.parse({ ...sample, ...extra });
          expect(parsed).toEqual(sample);
        }),
        { numRuns: 50 },
      );
      expect(reported).toEqual([]);
    },
  );

  it.each(cases.filter((c) => optionalKeys(c.schema).length > 0))(
    '$name: a wrong-typed optional field degrades to absent, once, and leaves the rest intact',
    ({ name, schema, sample }) => {
      const keys = optionalKeys(schema);
      const drifted = fc.constantFrom(...keys).chain((key) =>
        fc.tuple(
          fc.constant(key),
          fc.jsonValue().filter((value) => !fieldAccepts(schema, key, value)),
        ),
      );
      fc.assert(
        fc.property(drifted, ([key, value]) => {
          degradations.reset();
          reported = [];
          const input = { ...sample, [key]: value };
          const first = schema.safeParse(input);
          const second = schema.safeParse(input);
          expect(first.success).toBe(true);
          expect(second.success).toBe(true);
          const parsed = first.data as Sample;
          expect(key in parsed).toBe(false);
          expect(parsed).toEqual(without(sample, key));
          expect(reported).toEqual([`${name}.${key}`]);
          expect(degradations.seen()).toContain(`${name}.${key}`);
        }),
        { numRuns: 60 },
      );
    },
  );

  it.each(cases.filter((c) => requiredKeys(c.schema).length > 0))(
    '$name: a missing or wrong-typed identity field fails the record',
    ({ schema, sample }) => {
      for (const key of requiredKeys(schema)) {
        expect(schema.safeParse(without(sample, key)).success).toBe(false);
      }
      const drifted = fc.constantFrom(...requiredKeys(schema)).chain((key) =>
        fc.tuple(
          fc.constant(key),
          fc.jsonValue().filter((value) => !fieldAccepts(schema, key, value)),
        ),
      );
      fc.assert(
        fc.property(drifted, ([key, value]) => {
          expect(schema.safeParse({ ...sample, [key]: value }).success).toBe(false);
        }),
        { numRuns: 30 },
      );
    },
  );

  it('keeps a match id beyond 2^53 exactly as its digit string', () => {
    const big = '9007199254740993';
    expect(s.MatchDetailsSchema.parse({ match_id: big }).match_id).toBe(big);
    expect(s.PlayerMatchSchema.parse({ match_id: '18446744073709551615' }).match_id).toBe(
      '18446744073709551615',
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n }), (id) => {
        const digits = id.toString();
        expect(s.MatchDetailsSchema.parse({ match_id: digits }).match_id).toBe(digits);
      }),
    );
  });

  it('turns a safe numeric match id into its digit string and refuses other ids', () => {
    expect(s.MatchDetailsSchema.parse({ match_id: 42 }).match_id).toBe('42');
    for (const bad of [-1, 1.5, 2 ** 53 + 2, '12a', '', '-3', ' 1', null]) {
      expect(s.MatchDetailsSchema.safeParse({ match_id: bad }).success).toBe(false);
    }
  });

  it('drops one bad item of a list, keeps the others, and reports the list once', () => {
    const page = s.ClanMembersSchema.parse({
      members: [clanMember, { role: 1 }, 'nonsense', { ...clanMember, player_name: 'Bob' }],
    });
    expect(page.members.map((member) => member.player_name)).toEqual(['Sidney', 'Bob']);
    expect(reported).toEqual(['ClanMembers.members.[]']);
  });

  it('keeps at most MAX_LIST_ITEMS of a list, reads none past them, and reports the cut once', () => {
    let read = 0;
    const counted = new Proxy(clanMember, {
      get(target, key, receiver) {
        if (key === 'player_name') read += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const page = s.ClanMembersSchema.parse({ members: Array.from({ length: 10_000 }, () => counted) });
    expect(page.members).toHaveLength(MAX_LIST_ITEMS);
    expect(read).toBe(MAX_LIST_ITEMS);
    expect(reported).toEqual([`ClanMembers.members.[${MAX_LIST_ITEMS}+]`]);
  });

  it('reads a null list as empty', () => {
    expect(s.ClanMembersSchema.parse({ members: null }).members).toEqual([]);
    expect(s.PlayerInventorySchema.parse(null)).toEqual([]);
  });

  it('fails a page whose list is missing, and an events page without its cursor', () => {
    expect(s.ClanMembersSchema.safeParse({ page: 1, per_page: 10 }).success).toBe(false);
    expect(s.EventsPageSchema.safeParse({ events: [event], has_more: false }).success).toBe(false);
  });

  it('keeps the map dates in their service format and the KPD call without any IP field', () => {
    const map = s.MapInfoSchema.parse(mapInfo);
    expect(map.created_at).toBe('2025-01-02 03:04:05');
    const call = s.KpdCallSchema.parse({ id: 1 });
    expect(call).toEqual({ id: 1 });
    expect(Object.keys(s.KpdCallSchema.shape).filter((key) => /ip/i.test(key))).toEqual([]);
  });

  it('parses the KPD latest calls and the inventory as lists', () => {
    expect(s.KpdLatestCallsSchema.parse([kpdCall, { id: 'x' }])).toEqual([kpdCall]);
    expect(s.PlayerInventorySchema.parse([inventoryItem])).toEqual([inventoryItem]);
  });

  it('does not change the object it parses', () => {
    const input = { ...playerProfile, kr: 'lots' };
    const copy = structuredClone(input);
    s.PlayerProfileSchema.parse(input);
    expect(input).toEqual(copy);
  });
});

describe('game schemas', () => {
  const turfStatus = {
    day: 12,
    maps: [
      { map_id: 0, owner: null, top_clans: [] },
      {
        map_id: 2,
        owner: { clan_id: 7, clan_name: 'VOID' },
        top_clans: [{ position: 1, clan_id: 7, clan_name: 'VOID', points: 900 }],
      },
    ],
  };

  it('parses the turf status, keeping a null owner', () => {
    expect(s.TurfStatusSchema.parse(turfStatus)).toEqual(turfStatus);
  });

  it('degrades a malformed turf owner and drops a map without its id', () => {
    const parsed = s.TurfStatusSchema.parse({
      day: 12,
      maps: [{ map_id: 3, owner: { clan_name: 'no id' }, top_clans: [] }, { owner: null }],
    });
    expect(parsed.maps).toEqual([{ map_id: 3, top_clans: [] }]);
    expect(reported).toContain('TurfMap.owner');
    expect(reported).toContain('TurfStatus.maps.[]');
  });

  it('names the positional lobby entries', () => {
    const parsed = s.LobbyListSchema.parse({
      games: [
        ['FRA:abc', 'fra', 5, 8, { i: 'Burg', g: 1, c: 0, v: '7.2.1', cs: true }, 240],
        ['SIN:def', 'sin', 1, 4, { i: 'Subzero', g: 0, c: 1, v: 9 }, 30],
      ],
    });
    expect(parsed.games).toEqual([
      {
        gameId: 'FRA:abc',
        regionKey: 'fra',
        players: 5,
        maxPlayers: 8,
        options: { map: 'Burg', mode: 1, custom: false, version: '7.2.1' },
        secondsLeft: 240,
      },
      {
        gameId: 'SIN:def',
        regionKey: 'sin',
        players: 1,
        maxPlayers: 4,
        options: { map: 'Subzero', mode: 0, custom: true, version: '9' },
        secondsLeft: 30,
      },
    ]);
    expect(s.LobbyListSchema.parse(parsed)).toEqual(parsed);
  });

  it('drops a lobby entry without id or region and degrades its other drifted positions', () => {
    const parsed = s.LobbyListSchema.parse({
      games: [['only-id'], 'nonsense', ['A', 'eu', 'many', 8, 'not options', 10]],
    });
    expect(parsed.games).toEqual([{ gameId: 'A', regionKey: 'eu', maxPlayers: 8, secondsLeft: 10 }]);
    expect(reported).toEqual(
      expect.arrayContaining(['LobbyList.games.[]', 'Lobby.players', 'Lobby.options']),
    );
  });

  it('parses any well-formed positional lobby entry', () => {
    const entry = fc.tuple(
      fc.string({ minLength: 1 }),
      fc.string({ minLength: 1 }),
      fc.nat(100),
      fc.nat(100),
      fc.record({ i: fc.string(), g: fc.nat(20), c: fc.constantFrom(0, 1) }),
      fc.nat(3600),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 5 }), (games) => {
        const parsed = s.LobbyListSchema.parse({ games });
        expect(parsed.games.map((game) => [game.gameId, game.regionKey, game.options?.map])).toEqual(
          games.map(([gameId, regionKey, , , options]) => [gameId, regionKey, options.i]),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('maps item prices by skin index, keeping null prices and dropping the rest', () => {
    expect(s.ItemPricesSchema.parse({ '0': 100, '12': null, x: 5, '13': 'free' })).toEqual({
      0: 100,
      12: null,
    });
    expect(reported).toEqual(['ItemPrices.[]']);
  });

  it('reads the soft refusal of the wild offer', () => {
    const refusal = { available: false, error: 'No offer available' };
    expect(s.SoftRefusalSchema.safeParse(refusal).success).toBe(true);
    expect(s.WildOfferSchema.parse(refusal)).toEqual(refusal);
    expect(s.SoftRefusalSchema.safeParse({ id: 3, price: 100 }).success).toBe(false);
  });

  it('keeps the short keys of feed posts and clan members', () => {
    const clan = s.GameClanSchema.parse({ clan_id: 7, name: 'VOID', members: [{ n: 'Ada', r: 2, s: 10 }] });
    expect(clan.members).toEqual([{ n: 'Ada', r: 2, s: 10 }]);
    const feed = s.PlayerFeedSchema.parse({ posts: [{ id: 1, t: 'gg', v: 2, c: 0, d: '2026-03-01' }] });
    expect(feed.posts[0]?.t).toBe('gg');
  });

  it('accepts loose objects and lists of objects only', () => {
    expect(s.ShopDisplaysSchema.safeParse([]).success).toBe(false);
    expect(s.TitlesSchema.parse([{ id: 1 }, 3, null, { id: 2 }, [1]])).toEqual([{ id: 1 }, { id: 2 }]);
  });
});

describe('token schemas', () => {
  it('keeps the short keys of a trade and its id as a digit string', () => {
    const trade = { id: 12, st: 1, pn: 'Bob', gv: [1, 2], rc: [3], kr: 500, ts: '2026-03-01T00:00:00Z' };
    const parsed = s.TradesHistorySchema.parse({ trades: [trade, { st: 0 }] });
    expect(parsed.trades).toEqual([{ ...trade, id: '12' }]);
    expect(reported).toEqual(['TradesHistory.trades.[]']);
  });

  it('parses market history ids beyond 2^53 and refuses an unknown side', () => {
    const parsed = s.MarketHistorySchema.parse({
      entries: [
        { market_id: '9007199254740993', skin_index: 4, price: 10, side: 'swap', date: '2026-03-01' },
      ],
      cursor: null,
    });
    expect(parsed).toEqual({
      entries: [{ market_id: '9007199254740993', skin_index: 4, price: 10, date: '2026-03-01' }],
      cursor: null,
    });
    expect(reported).toEqual(['MarketHistoryEntry.side']);
  });

  it('reads a null list of clan applications as empty and a null black market rank as null', () => {
    expect(s.ClanApplicationsSchema.parse({ clan_ids: null })).toEqual({ clan_ids: [] });
    expect(s.BlackMarketRankSchema.parse(null)).toBeNull();
  });

  it('parses the ranked match history and a regional ranked profile', () => {
    const history = s.MatchHistorySchema.parse({
      total: 1,
      matches: [
        { match_id: '9007199254740997', date: '2026-03-01', map: 2, region: 3, ranked: true, result: -1 },
      ],
    });
    expect(history.matches[0]?.match_id).toBe('9007199254740997');
    expect(s.RankedProfileRegionSchema.parse({ season: 5, region: 3, mmr: 2000 })).toEqual({
      season: 5,
      region: 3,
      mmr: 2000,
    });
  });

  it('parses a wallet with its studio currencies', () => {
    const wallet = { kr: 900, currencies: [{ id: 'gold', name: 'Gold', amount: 3 }] };
    expect(s.WalletSchema.parse(wallet)).toEqual(wallet);
    expect(s.WalletSchema.safeParse({ currencies: [] }).success).toBe(false);
  });
});
