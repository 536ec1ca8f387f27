import type { EventStore } from './events.ts';
import type { WorldIndex } from './lookup.ts';
import type { TurfModel } from './turf.ts';
import type { CommunityMap, World } from './world/types.ts';

export interface Latencies {
  readonly marketSkinColdMs: number;
  readonly marketSkinWarmMs: number;
  readonly topPlayersMs: number;
}

/** The live featured state: the world's at start, then changed by published events. */
export class FeaturedMaps {
  readonly #since = new Map<number, number>();

  constructor(maps: readonly CommunityMap[]) {
    for (const map of maps)
      if (map.featured && map.featuredAtMs !== null) this.#since.set(map.id, map.featuredAtMs);
  }

  isFeatured(mapId: number): boolean {
    return this.#since.has(mapId);
  }

  set(mapId: number, featured: boolean, atMs: number): void {
    if (featured) this.#since.set(mapId, atMs);
    else this.#since.delete(mapId);
  }

  /** Map ids, newest featured first. */
  ids(): number[] {
    return [...this.#since].sort((a, b) => b[1] - a[1] || b[0] - a[0]).map(([id]) => id);
  }
}

/** Everything the route handlers read. */
export interface SandboxContext {
  readonly world: World;
  readonly index: WorldIndex;
  readonly turf: TurfModel;
  readonly events: EventStore;
  readonly featured: FeaturedMaps;
  readonly latency: Latencies;
  /** Waits in real time; rejects when the sandbox closes. */
  sleep(ms: number): Promise<void>;
  /** Skin indices whose market reply has been made once (later ones answer with the warm latency). */
  readonly warmSkins: Set<number>;
}
