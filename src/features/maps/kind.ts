import { z } from 'zod';
import { EventSchema } from '../../api/schemas/index.ts';
import {
  renderMapFeatured,
  renderMapUnfeatured,
  type MapAnnouncement,
} from '../../announcements/render-posts.ts';
import { EVENTS_SOURCE, type AnnouncementEvent } from '../../announcements/model.ts';
import { stringOption, type AnnouncementKind } from '../../announcements/kinds/kind.ts';

/**
 * What the events feed adds to a featured map's event (`data.details`, from the map's record): votes,
 * plays and the creator, each only when it read as a number or a name.
 */
const DetailsSchema = z.object({
  votes: z.number().int().nonnegative().optional().catch(undefined),
  gameplays: z.number().int().nonnegative().optional().catch(undefined),
  creator_name: z.string().max(100).optional().catch(undefined),
});

/** The map an events-feed event is about, read tolerantly. */
function mapOf(event: AnnouncementEvent): MapAnnouncement | undefined {
  const parsed = EventSchema.safeParse(event.data);
  if (!parsed.success) return undefined;
  const { data, target } = parsed.data;
  const mapId = data?.map_id ?? (target?.type === 'map' ? target.id : undefined);
  const details = DetailsSchema.safeParse(event.data['details'] ?? {});
  const extra = details.success ? details.data : {};
  return {
    mapId,
    mapName: data?.map_name,
    creator: data?.creator ?? extra.creator_name,
    votes: extra.votes,
    plays: extra.gameplays,
    featuredAt: event.at,
  };
}

/** `/subscribe maps`: a featured map is posted (pinging the subscription's role), edited when unfeatured. */
export const mapsKind: AnnouncementKind = {
  name: 'maps',
  source: EVENTS_SOURCE,
  eventTypes: ['map.featured', 'map.unfeatured'],
  needsApiKey: true,

  accepts(event) {
    return (
      event.source === EVENTS_SOURCE && (event.type === 'map.featured' || event.type === 'map.unfeatured')
    );
  },

  plan(event, subscription, t) {
    const map = mapOf(event);
    if (map?.mapId === undefined) return undefined;
    const ref = `map:${map.mapId}`;
    if (event.type === 'map.featured') {
      const roleId = stringOption(subscription, 'roleId');
      return {
        action: 'post',
        payload: renderMapFeatured(t, map, roleId),
        ...(roleId === undefined ? {} : { pingRoles: [roleId] }),
        remember: ref,
      };
    }
    return {
      action: 'edit',
      ref,
      render: (earlier) => renderMapUnfeatured(t, { ...map, featuredAt: earlier.at }, event.at),
      forget: true,
    };
  },
};
