import { describe, expect, it } from 'vitest';
import { toJson } from '../../../src/dev/sandbox/json.ts';
import { Rng, hashSeed, mulberry32 } from '../../../src/dev/sandbox/prng.ts';
import { generateWorld } from '../../../src/dev/sandbox/world/index.ts';
import { FIXED_NOW } from '../../support/sandbox.ts';

const world = generateWorld(1, FIXED_NOW);
const DAY = 86_400_000;

describe('toJson', () => {
  it('writes bigint values as bare integers with every digit and matches JSON.stringify otherwise', () => {
    const value = {
      id: 9_007_199_254_740_993n,
      list: [1, 'two', null, true, 2.5, { x: -3n }],
      skip: undefined,
    };
    expect(toJson(value)).toBe('{"id":9007199254740993,"list":[1,"two",null,true,2.5,{"x":-3}]}');
    const plain = { a: 'quote " and \\ and \u2028 and ünïcødé', b: [1.25, -0, 1e21], c: { d: false } };
    expect(toJson(plain)).toBe(JSON.stringify(plain));
    expect(toJson([undefined, Number.NaN])).toBe('[null,null]');
  });
});

describe('prng', () => {
  it('is deterministic per seed and stays in range', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const xs = Array.from({ length: 100 }, () => a());
    expect(xs).toEqual(Array.from({ length: 100 }, () => b()));
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    expect(hashSeed(1, 'x')).not.toBe(hashSeed(1, 'y'));
    const rng = new Rng(3);
    const sample = rng.sample([1, 2, 3, 4, 5, 6], 4);
    expect(new Set(sample).size).toBe(4);
    for (let i = 0; i < 200; i++) {
      const n = rng.int(2, 4);
      expect(n >= 2 && n <= 4).toBe(true);
    }
  });
});

describe('seeded world', () => {
  it('has the promised sizes and notable records', () => {
    expect(world.players.length).toBeGreaterThanOrEqual(300);
    expect(world.clans.length).toBeGreaterThanOrEqual(30);
    expect(world.maps.length).toBeGreaterThanOrEqual(50);
    expect(world.mods.length).toBeGreaterThanOrEqual(25);
    expect(world.skins.length).toBeGreaterThanOrEqual(200);
    expect(world.market).toHaveLength(world.skins.length);
    expect(world.kpdCalls).toHaveLength(50);
    const names = new Set(world.players.map((p) => p.name));
    expect(names.size).toBe(world.players.length);
    expect(world.players.some((p) => /[\u0080-\uffff]/.test(p.name))).toBe(true);
    expect(world.players.some((p) => p.verified)).toBe(true);
    expect(world.players.some((p) => p.hackerTagged)).toBe(true);
    expect(world.players.find((p) => p.name === world.samples.zeroGamesPlayer)?.stats.games).toBe(0);
    expect(world.clans.some((c) => /[*_~|]/.test(c.name))).toBe(true);
    for (const clan of world.clans) expect(clan.members.length).toBeGreaterThan(0);
  });

  it('has featured maps, ascending time boards, score boards and maps without a board', () => {
    expect(world.maps.some((m) => m.featured)).toBe(true);
    expect(world.maps.some((m) => m.leaderboardType === 'time' && m.leaderboardOrder === 0)).toBe(true);
    expect(world.maps.some((m) => m.leaderboardType === 'score')).toBe(true);
    expect(world.maps.some((m) => m.leaderboardType === '')).toBe(true);
  });

  it('keeps match ids above 2^53 as increasing digit strings', () => {
    let previous = 0n;
    for (const match of world.matches) {
      expect(match.id).toMatch(/^\d+$/);
      const id = BigInt(match.id);
      expect(id > 2n ** 53n).toBe(true);
      expect(id > previous).toBe(true);
      previous = id;
    }
    expect(world.matches[0]!.id).toBe('9007199254740993');
  });

  it('keeps market history to days with sales within 120 days, and owners include the listed items', () => {
    for (const market of world.market) {
      for (const day of market.priceHistory) {
        expect(day.sales).toBeGreaterThan(0);
        expect(day.dayMs).toBeGreaterThan(world.anchorMs - 120 * DAY);
      }
      for (const listing of market.listings) {
        const holder = market.holders.find((h) => h.playerId === listing.sellerId);
        const listed = market.listings.filter((l) => l.sellerId === listing.sellerId).length;
        expect(holder && holder.count >= listed).toBe(true);
      }
    }
    expect(world.market.some((m) => m.holders.length > 100)).toBe(true);
  });

  it('has ranked records for regions 2, 3 and 4 in the current and previous season', () => {
    for (const season of [world.currentSeason, world.previousSeason]) {
      for (const region of [2, 3, 4]) {
        expect(
          world.ranked.filter((r) => r.season === season && r.region === region && r.matches >= 6).length,
        ).toBeGreaterThan(10);
      }
    }
  });

  it('has an events history with gaps, partly past the 30-day retention', () => {
    const ids = world.events.map((e) => e.id);
    expect(ids.some((id, i) => i > 0 && id - ids[i - 1]! > 1)).toBe(true);
    expect(world.events.some((e) => Date.parse(e.created_at) < FIXED_NOW - 30 * DAY)).toBe(true);
    expect(world.events.some((e) => Date.parse(e.created_at) >= FIXED_NOW - 30 * DAY)).toBe(true);
  });
});
