import { DAY_MS, iso } from '../time.ts';
import type { WorldContext } from './common.ts';
import type { ApiEvent, ApiEventType, CommunityMap } from './types.ts';

/** Features and unfeatures maps over 45 days; the final state is written back to the maps. */
export function makeEventHistory({ rng, anchorMs }: WorldContext, maps: readonly CommunityMap[]): ApiEvent[] {
  const visibleMaps = maps.filter((m) => m.hidden === null);
  const featuredAt = new Map<number, number>();
  for (const map of rng.sample(visibleMaps, 6)) featuredAt.set(map.id, anchorMs - 50 * DAY_MS);
  const events: ApiEvent[] = [];
  let nextEventId = 1_000;
  const steps = 90;
  for (let step = 0; step < steps; step++) {
    const time = anchorMs - 45 * DAY_MS + Math.floor(((step + rng.next()) * 45 * DAY_MS) / (steps + 1));
    const featuredCount = featuredAt.size;
    const feature = featuredCount < 4 ? true : featuredCount > 10 ? false : rng.chance(0.5);
    const candidates = visibleMaps.filter((m) => featuredAt.has(m.id) !== feature);
    const map = rng.pick(candidates);
    if (feature) featuredAt.set(map.id, time);
    else featuredAt.delete(map.id);
    nextEventId += rng.int(1, 7);
    events.push(makeEvent(nextEventId, feature ? 'map.featured' : 'map.unfeatured', time, map));
  }
  for (const map of maps) {
    const when = featuredAt.get(map.id);
    if (when !== undefined) Object.assign(map, { featured: true, featuredAtMs: when });
  }
  return events;
}

export function makeEvent(
  id: number,
  type: ApiEventType,
  createdAtMs: number,
  map: Pick<CommunityMap, 'id' | 'name' | 'creatorName'>,
): ApiEvent {
  return {
    id,
    type,
    created_at: iso(createdAtMs),
    target: { type: 'map', id: map.id },
    data: { map_id: map.id, map_name: map.name, creator: map.creatorName },
  };
}
