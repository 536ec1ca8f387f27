import type { SandboxContext } from '../context.ts';
import type { Route } from '../http.ts';
import { clanRoutes } from './clans.ts';
import { leaderboardRoutes } from './leaderboards.ts';
import { liveRoutes } from './live.ts';
import { mapRoutes } from './maps.ts';
import { marketRoutes } from './market.ts';
import { playerRoutes } from './players.ts';
import { shopRoutes } from './shop.ts';
import { socialRoutes } from './social.ts';
import { turfRoutes } from './turf.ts';

/** The open tier of the game API. */
export function gameRoutes(ctx: SandboxContext): Route[] {
  return [
    ...playerRoutes(ctx),
    ...clanRoutes(ctx),
    ...leaderboardRoutes(ctx),
    ...mapRoutes(ctx),
    ...marketRoutes(ctx),
    ...socialRoutes(ctx),
    ...shopRoutes(ctx),
    ...liveRoutes(ctx),
    ...turfRoutes(ctx),
  ];
}
