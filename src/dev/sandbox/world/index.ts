import { Rng, hashSeed } from '../prng.ts';
import { DAY_MS, HOUR_MS, startOfUtcDay } from '../time.ts';
import { makeClans, assignClans } from './clans.ts';
import { NOTABLE, playerLookup, type WorldContext } from './common.ts';
import { makeEventHistory } from './events.ts';
import { makeKpdCalls } from './kpd.ts';
import { makeLobbies } from './lobbies.ts';
import { makeCommunityMaps, makeOfficialMaps } from './maps.ts';
import { makeMarket, makeSkins } from './market.ts';
import { makeMatches, makeRanked } from './matches.ts';
import { makeMods } from './mods.ts';
import { makePlayerDrafts, makePlayers } from './players.ts';
import { makePosts } from './posts.ts';
import { makeSamples } from './samples.ts';
import { CURRENT_SEASON, PREVIOUS_SEASON, type World } from './types.ts';

const PLAYER_COUNT = 320;

/** Every part draws from the one random stream in this order: reordering the calls changes every seed's world. */
export function generateWorld(seed: number, nowMs: number, playerCount = PLAYER_COUNT): World {
  const rng = new Rng(hashSeed(seed, 'world'));
  const anchorMs = startOfUtcDay(nowMs);
  // Day `days` before today, at a random hour of that day. Today's hours after now have not happened: such
  // a time is mirrored back before now (never after it, never before the day's start), so that no seed
  // dates a listing, post or match in the future ("listed in 10 h").
  const daysAgo = (days: number, jitterHours = 24): number => {
    const dayStart = anchorMs - days * DAY_MS;
    const time = dayStart + Math.floor(rng.next() * jitterHours * HOUR_MS);
    return time <= nowMs ? time : Math.max(Math.min(dayStart, nowMs), 2 * nowMs - time);
  };
  const ctx: WorldContext = { rng, nowMs, anchorMs, daysAgo };

  const drafts = makePlayerDrafts(ctx, playerCount);
  assignClans(ctx, drafts);
  const players = makePlayers(ctx, drafts);
  const named = playerLookup(players);
  const clans = makeClans(ctx, players, named);
  const posts = makePosts(ctx, players);
  const skins = makeSkins(ctx);
  const market = makeMarket(ctx, skins, players);
  const creators = players.filter((p) => !p.banned && p.stats.games > 0);
  const maps = makeCommunityMaps(ctx, creators, named(NOTABLE.mapMaker));
  const events = makeEventHistory(ctx, maps);
  const officialMaps = makeOfficialMaps();
  const hacker = named(NOTABLE.hacker);
  const mods = makeMods(ctx, creators, hacker);
  const matches = makeMatches(ctx, players);
  const ranked = makeRanked(ctx, matches);
  const lobbies = makeLobbies(
    ctx,
    maps.filter((m) => m.hidden === null),
  );
  const kpdCalls = makeKpdCalls(ctx, players, named(NOTABLE.kpd), hacker);

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
    samples: makeSamples({ maps, mods, market, matches, ranked }),
  };
}
