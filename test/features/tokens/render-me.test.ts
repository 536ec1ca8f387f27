import { beforeAll, describe, expect, it } from 'vitest';
import type {
  MarketHistory,
  MatchHistory,
  OwnListings,
  RankedProfile,
  TradesHistory,
  Wallet,
} from '../../../src/api/schemas/index.ts';
import {
  renderMarketHistory,
  renderMatchHistory,
  renderOwnListings,
  renderRankedProfile,
  renderRankedProfileRegion,
  renderTrades,
  renderWallet,
} from '../../../src/features/tokens/render.ts';
import { text } from '../../../src/render/common.ts';
import { HOSTILE, expectSafe, translators, useSandboxApi } from '../../support/render.ts';

const { en, tr } = translators;
const LONG = `${HOSTILE}${'W'.repeat(400)}`;
/** Every /me reply is for the token owner only, and has nothing to click. */
const PRIVATE = { ephemeral: true, components: false } as const;

const live = useSandboxApi({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
let token: string;
let rankedToken: string;
const skinNames = new Map<number, string>();
const skinName = (index: number) => skinNames.get(index);
const mapName = (id: number) => live.sandbox.world.officialMaps.find((map) => map.id === id)?.name;

beforeAll(() => {
  token = live.sandbox.issueToken({ playerName: live.sandbox.world.samples.player });
  rankedToken = live.sandbox.issueToken({ playerName: live.sandbox.world.samples.rankedPlayer });
  for (const skin of live.sandbox.world.skins) skinNames.set(skin.index, skin.name);
});

describe('the token owner’s own data, from the sandbox', () => {
  it('renders the wallet', async () => {
    const wallet = await live.client.api.wallet({}, { token });
    for (const t of [en, tr]) expectSafe(renderWallet(t, wallet), PRIVATE);
    const fields = renderWallet(en, wallet).embeds![0]!.fields!;
    expect(fields[0]).toMatchObject({ name: 'KR', value: en.n(wallet.kr) });
  });

  it('renders the market history, the open listings and the trades with skin names', async () => {
    const history = await live.client.api.marketHistory({ limit: 25 }, { token });
    const listings = await live.client.api.ownListings({}, { token });
    const trades = await live.client.api.tradesHistory(
      { limit: 10, offset: 0, includeOpen: true },
      { token },
    );
    for (const t of [en, tr]) {
      expectSafe(renderMarketHistory(t, history, skinName), PRIVATE);
      expectSafe(renderOwnListings(t, listings, skinName), PRIVATE);
      expectSafe(renderTrades(t, trades, 1, skinName), PRIVATE);
    }
    const entry = history.entries[0]!;
    expect(renderMarketHistory(en, history, skinName).embeds![0]!.description).toContain(
      `**${text(skinNames.get(entry.skin_index!), 80)}**`,
    );
  });

  it('renders the ranked profile, all regions and one, and the match history with map names', async () => {
    const season = live.sandbox.world.currentSeason;
    const profile = await live.client.api.rankedProfile({ season }, { token: rankedToken });
    expect(profile.regions.length).toBeGreaterThan(0);
    for (const t of [en, tr]) expectSafe(renderRankedProfile(t, profile), PRIVATE);
    const region = profile.regions[0]!.region;
    const one = await live.client.api.rankedProfileRegion({ season, region }, { token: rankedToken });
    expectSafe(renderRankedProfileRegion(en, one), PRIVATE);
    const history = await live.client.api.matchHistory({ limit: 10, offset: 0 }, { token: rankedToken });
    for (const t of [en, tr]) expectSafe(renderMatchHistory(t, history, 1, mapName), PRIVATE);
    const match = history.matches[0]!;
    expect(renderMatchHistory(en, history, 1, mapName).embeds![0]!.description).toContain(
      text(mapName(match.map!), 60),
    );
  });
});

describe('extreme inputs', () => {
  it('empty lists and a wallet without currencies', () => {
    expectSafe(renderWallet(en, { kr: 0 }), PRIVATE);
    expect(renderWallet(en, { kr: 0 }).embeds![0]!.description).toBe('No studio currencies.');
    expect(renderMarketHistory(en, { entries: [] }, skinName).embeds![0]!.description).toBe(
      'No completed buys or sales.',
    );
    expect(renderOwnListings(en, { listings: [] }, skinName).embeds![0]!.description).toBe(
      'You have no open listings.',
    );
    expect(renderTrades(en, { trades: [] }, 3, skinName).embeds![0]!.description).toBe(
      'No trades on this page.',
    );
    expect(renderRankedProfile(en, { regions: [] }).embeds![0]!.description).toContain('6 placement');
    expect(renderMatchHistory(en, { matches: [] }, 1, mapName).embeds![0]!.description).toBe(
      'No matches on this page.',
    );
  });

  it('hostile and very long names, too many rows, missing fields', () => {
    const wallet: Wallet = {
      kr: 1e12,
      currencies: Array.from({ length: 60 }, (_, i) => ({ id: i, name: LONG, amount: i })),
    };
    const history: MarketHistory = {
      entries: Array.from({ length: 100 }, (_, i) => ({
        market_id: String(i),
        skin_index: i,
        price: 5,
        side: 'sell' as const,
      })),
      cursor: 'next',
    };
    const listings: OwnListings = {
      listings: Array.from({ length: 80 }, (_, i) => ({ market_id: String(i), skin_index: i, price: 5 })),
    };
    const trades: TradesHistory = {
      trades: Array.from({ length: 30 }, (_, i) => ({
        id: String(i),
        st: i % 4,
        pn: LONG,
        gv: Array.from({ length: 40 }, (_, j) => j),
        rc: [],
      })),
    };
    const profile: RankedProfile = { regions: Array.from({ length: 40 }, (_, i) => ({ region: i })) };
    const matches: MatchHistory = {
      total: 1e6,
      matches: Array.from({ length: 40 }, (_, i) => ({ match_id: String(i), result: (i % 4) - 2, map: i })),
    };
    const longNames = () => LONG;
    for (const t of [en, tr]) {
      expectSafe(renderWallet(t, wallet), PRIVATE);
      expectSafe(renderMarketHistory(t, history, longNames), PRIVATE);
      expectSafe(renderOwnListings(t, listings, longNames), PRIVATE);
      expectSafe(renderTrades(t, trades, 2, longNames), PRIVATE);
      expectSafe(renderRankedProfile(t, profile), PRIVATE);
      expectSafe(renderRankedProfileRegion(t, { region: 9 }), PRIVATE);
      expectSafe(renderMatchHistory(t, matches, 4, longNames), PRIVATE);
    }
    expect(renderOwnListings(en, listings, skinName).embeds![0]!.footer?.text).toBe(
      'Page 1 of 4 · 80 in all',
    );
    const last = renderOwnListings(en, listings, skinName, undefined, 9).embeds![0]!;
    expect(last.footer?.text).toBe('Page 4 of 4 · 80 in all');
    expect(last.description?.split('\n')).toHaveLength(5);
    // 100 entries read and a cursor left: the latest, and so said.
    const read = renderMarketHistory(en, history, longNames).embeds![0]!;
    expect(read.footer?.text).toBe('Page 1 of 4 · the latest 100; older ones are in the game');
    expect(read.fields).toEqual([
      { name: 'Bought', value: '0 skins · 0 KR', inline: true },
      { name: 'Sold', value: '100 skins · 500 KR', inline: true },
    ]);
    const one = renderMarketHistory(en, { entries: [{ market_id: '1', price: 20, side: 'buy' }] }, skinName);
    expect(one.embeds![0]!.fields?.[0]?.value).toBe('1 skin · 20 KR');
    expect(one.embeds![0]!.footer?.text).toBe('Page 1 of 1 · 1 in all');
    expect(renderTrades(en, trades, 1, () => undefined).embeds![0]!.fields![0]!.value).toContain(
      'and 32 more',
    );
  });
});
