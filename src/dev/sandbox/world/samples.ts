import { MARKDOWN_CLAN, UNICODE_NAMES } from '../names.ts';
import { NOTABLE, at } from './common.ts';
import { CURRENT_SEASON, PLACEMENT_MATCHES, type World, type WorldSamples } from './types.ts';

function firstWhere<T>(items: readonly T[], predicate: (item: T) => boolean, what: string): T {
  const found = items.find(predicate);
  if (found === undefined) throw new Error(`seeded world has no ${what}`);
  return found;
}

export function makeSamples({
  maps,
  mods,
  market,
  matches,
  ranked,
}: Pick<World, 'maps' | 'mods' | 'market' | 'matches' | 'ranked'>): WorldSamples {
  const currentMatches = matches.filter((m) => m.season === CURRENT_SEASON);
  const sampleMatch = at(currentMatches, Math.floor(currentMatches.length / 2));
  const rankedPlayer = ranked.find(
    (r) => r.season === CURRENT_SEASON && r.matches >= PLACEMENT_MATCHES && r.playerName === NOTABLE.verified,
  );
  return {
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
}
