import { z } from 'zod';

/**
 * What happens to a followed player between two looks, as the players feed (`src/features/tracking/feed.ts`) stores
 * it in the inbox and `/track` subscriptions (`features/tracking/kind.ts`) post it.
 */
export const PLAYERS_SOURCE = 'players';
export const TRACK_MATCH_EVENT = 'track.match';
export const TRACK_LEVEL_EVENT = 'track.level';
export const TRACK_CLAN_EVENT = 'track.clan';

const PlayerRef = {
  playerId: z.number().int().nonnegative(),
  playerName: z.string().max(200),
};

export const TrackMatchSchema = z.object({
  ...PlayerRef,
  /** The match id as a decimal string (ids pass 2^53). */
  matchId: z.string().regex(/^\d{1,20}$/),
  map: z.number().int().optional(),
  mapName: z.string().max(200).optional(),
  region: z.number().int().optional(),
  kills: z.number().optional(),
  deaths: z.number().optional(),
  assists: z.number().optional(),
  score: z.number().optional(),
  /** 1 win, 0 loss, -1 draw. */
  victory: z.number().int().min(-1).max(1).optional(),
  /** The change of the region's MMR, when the season profile tells it (see the feed). */
  mmrChange: z.number().int().optional(),
  mmr: z.number().int().optional(),
  /** When the match was played (epoch ms), when the reply says. */
  playedAt: z.number().optional(),
});
export type TrackMatch = z.output<typeof TrackMatchSchema>;

export const TrackLevelSchema = z.object({
  ...PlayerRef,
  from: z.number().int(),
  to: z.number().int(),
});
export type TrackLevel = z.output<typeof TrackLevelSchema>;

export const TrackClanSchema = z.object({
  ...PlayerRef,
  /** Empty: no clan. */
  from: z.string().max(200),
  to: z.string().max(200),
});
export type TrackClan = z.output<typeof TrackClanSchema>;
