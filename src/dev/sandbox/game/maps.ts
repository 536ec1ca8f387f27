import type { SandboxContext } from '../context.ts';
import { findMap, mapInfo, mapLeaderboard, modRecord } from '../records.ts';
import { intParam, notFound, type Route } from '../http.ts';
import { Rng, hashSeed } from '../prng.ts';
import type { World } from '../world/types.ts';
import { route } from './common.ts';

function mapFile(world: World, id: number, name: string, creator: string, objectCount: number): unknown {
  const rng = new Rng(hashSeed(world.seed, 'map-file', id));
  const objects = Array.from({ length: objectCount }, () => ({
    p: [rng.int(-400, 400), rng.int(0, 120), rng.int(-400, 400)],
    s: [rng.int(1, 80), rng.int(1, 40), rng.int(1, 80)],
    t: rng.int(0, 12),
    c: rng.int(0, 15),
    ...(rng.chance(0.2) ? { r: [0, rng.float(0, 6.28), 0] } : {}),
  }));
  return {
    id,
    name,
    creator,
    modURL: '',
    ambient: '#97a0a8',
    light: '#f2f8fc',
    sky: '#dce8ed',
    fog: '#8d9aa0',
    fogD: 2_000,
    spawns: Array.from({ length: 16 }, () => [rng.int(-380, 380), 2, rng.int(-380, 380), rng.int(0, 2)]),
    colors: Array.from({ length: 16 }, () => `#${rng.token(6, '0123456789abcdef')}`),
    objects,
  };
}

/** Maps and mods. */
export function mapRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  const mapFiles = new Map<number, unknown>();
  return [
    route('/maps', () => world.officialMaps.map((m) => ({ id: m.id, name: m.name }))),
    route('/maps/by-name/{name}', ({ params }) => {
      const map = findMap(index, params['name'] ?? '');
      return { ...mapInfo(map, ctx.featured.isFeatured(map.id)), creator_id: map.creatorId };
    }),
    route('/maps/by-name/{name}/leaderboard', ({ params, query }) =>
      mapLeaderboard(findMap(index, params['name'] ?? ''), query),
    ),
    route('/maps/{id}', ({ params }) => {
      const id = intParam(params['id'] ?? '', 'id');
      let file = mapFiles.get(id);
      if (file === undefined) {
        const official = world.officialMaps[id];
        const community = index.mapById(id);
        if (official) file = mapFile(world, id, official.name, 'Krunker', 2_000);
        else if (community) file = mapFile(world, id, community.name, community.creatorName, 150);
        else throw notFound('Map');
        mapFiles.set(id, file);
      }
      return file;
    }),
    route('/mods/by-name/{name}', ({ params }) => {
      const mod = index.mod(params['name'] ?? '');
      if (!mod) throw notFound('Mod');
      return modRecord(mod);
    }),
  ];
}
