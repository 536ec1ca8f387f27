import {
  PLAYERS_SOURCE,
  TRACK_CLAN_EVENT,
  TRACK_LEVEL_EVENT,
  TRACK_MATCH_EVENT,
  TrackClanSchema,
  TrackLevelSchema,
  TrackMatchSchema,
} from './events.ts';
import { renderTrackClan, renderTrackLevel, renderTrackMatch } from './render.ts';
import {
  numberOption,
  stringOption,
  type AnnouncementKind,
  type DeliveryPlan,
} from '../../announcements/kinds/kind.ts';

/**
 * `/track add`: one player followed into one channel: ranked matches finished, level ups, clan changes
 * (the players feed, `src/features/tracking/feed.ts`, finds them). Made by `/track`, not `/subscribe`, and listed by
 * `/track list`.
 */
export const trackKind: AnnouncementKind = {
  name: 'track',
  source: PLAYERS_SOURCE,
  needsApiKey: true,
  filters: ['playerId'],

  accepts(event, subscription) {
    if (event.source !== PLAYERS_SOURCE) return false;
    const data = event.data as { playerId?: unknown };
    return data.playerId !== undefined && data.playerId === numberOption(subscription, 'playerId');
  },

  plan(event, subscription, t): DeliveryPlan | undefined {
    const roleId = stringOption(subscription, 'roleId');
    const pingRoles = roleId === undefined ? {} : { pingRoles: [roleId] };
    switch (event.type) {
      case TRACK_MATCH_EVENT: {
        const match = TrackMatchSchema.safeParse(event.data);
        return match.success
          ? { action: 'post', payload: renderTrackMatch(t, match.data, roleId), ...pingRoles }
          : undefined;
      }
      case TRACK_LEVEL_EVENT: {
        const level = TrackLevelSchema.safeParse(event.data);
        return level.success
          ? { action: 'post', payload: renderTrackLevel(t, level.data, roleId), ...pingRoles }
          : undefined;
      }
      case TRACK_CLAN_EVENT: {
        const clan = TrackClanSchema.safeParse(event.data);
        return clan.success
          ? { action: 'post', payload: renderTrackClan(t, clan.data, roleId), ...pingRoles }
          : undefined;
      }
      default:
        return undefined;
    }
  },
};
