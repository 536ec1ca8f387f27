import { RARITY_BASE_PRICE, SKIN_ADJECTIVES, SKIN_NOUNS } from '../names.ts';
import { DAY_MS, ymd } from '../time.ts';
import { at, type WorldContext } from './common.ts';
import {
  FIRST_MARKET_ID,
  PRICE_HISTORY_DAYS,
  type DaySales,
  type Holder,
  type Listing,
  type Player,
  type SkinDefinition,
  type SkinMarket,
} from './types.ts';

const SKIN_COUNT = 220;

export function makeSkins({ rng }: WorldContext): SkinDefinition[] {
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
  return skins;
}

export function makeMarket(
  { rng, anchorMs, daysAgo }: WorldContext,
  skins: readonly SkinDefinition[],
  players: readonly Player[],
): SkinMarket[] {
  const activePlayers = players.filter((p) => p.stats.games > 0);
  let nextMarketId = FIRST_MARKET_ID;
  const historyStart = anchorMs - (PRICE_HISTORY_DAYS - 1) * DAY_MS;
  return skins.map((skin) => {
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
}
