import { HttpError, type Route } from './http.ts';
import { GAME_VERSION, type World } from './world/types.ts';

const ROUND_SECONDS = 240;

/** The lobby list: positional entries `[gameId, regionKey, players, maxPlayers, options, secondsLeft]`. */
export function gameList(world: World, nowMs: number): { games: unknown[][] } {
  const nowSec = Math.floor(nowMs / 1000);
  return {
    games: world.lobbies.map((lobby) => [
      lobby.gameId,
      lobby.region,
      lobby.players,
      lobby.maxPlayers,
      { i: lobby.mapName, g: lobby.mode, c: lobby.custom, v: GAME_VERSION },
      ROUND_SECONDS - ((nowSec + lobby.phase) % ROUND_SECONDS),
    ]),
  };
}

export function matchmakerRoutes(world: World): Route[] {
  return [
    {
      pattern: '/game-list',
      tier: 'open',
      handler: ({ query, nowMs }) => {
        if (!query.get('hostname')) throw new HttpError(400, 'hostname required');
        return gameList(world, nowMs);
      },
    },
  ];
}
