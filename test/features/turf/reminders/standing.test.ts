import { describe, expect, it } from 'vitest';
import type { TurfMap, TurfStatus } from '../../../../src/api/schemas/index.ts';
import { mapStandingOf, mapsToRead, validMaps } from '../../../../src/features/turf/reminders/standing.ts';

/** A clan's standing on a turf map from the status's top clans, and the map's board when it is not there. */
const map: TurfMap = {
  map_id: 2,
  owner: { clan_id: 9, clan_name: 'Holder' },
  top_clans: [
    { position: 2, clan_id: 7, clan_name: 'Us', points: 700 },
    { position: 1, clan_id: 9, clan_name: 'Holder', points: 1_000 },
  ],
};

describe('mapStandingOf', () => {
  it('finds the clan in the top clans: its place, points and the leader', () => {
    expect(mapStandingOf(map, 7, undefined)).toEqual({
      mapId: 2,
      owner: 'Holder',
      owned: false,
      position: 2,
      points: 700,
      leader: { name: 'Holder', points: 1_000, own: false },
    });
    expect(mapStandingOf(map, 9, undefined)).toMatchObject({
      owned: true,
      position: 1,
      leader: { name: 'Holder', own: true },
    });
  });

  it('looks a clan up on the map’s board when the top clans lack it', () => {
    const board = {
      rows: [
        { clan_id: 9, clan_name: 'Holder', position: 1, points: 1_000 },
        { clan_id: 5, clan_name: 'Far', position: 31, points: 40 },
      ],
    };
    expect(mapStandingOf(map, 5, board)).toMatchObject({ position: 31, points: 40 });
    expect(mapStandingOf(map, 6, board)).toMatchObject({ position: null, rows: 2 });
    // Not read (it failed): unknown, not "no points".
    expect(mapStandingOf(map, 6, undefined)).not.toHaveProperty('position');
  });

  it('reads nobody holding the map, and a map nobody scored on yet', () => {
    expect(mapStandingOf({ map_id: 0, owner: null, top_clans: [] }, 7, undefined)).toEqual({
      mapId: 0,
      owner: null,
      owned: false,
    });
  });

  it('leaves numbers out of range unknown and bounds the lists it reads', () => {
    const wild: TurfMap = {
      map_id: 3,
      top_clans: [
        { clan_id: 7, clan_name: 'Us', position: -4, points: 1e300 },
        ...Array.from({ length: 2_000 }, (_, i) => ({ clan_id: 100 + i, clan_name: `c${i}`, points: i })),
      ],
    };
    const standing = mapStandingOf(wild, 7, undefined);
    expect(standing).not.toHaveProperty('points');
    expect(standing.position).toBeGreaterThanOrEqual(1);
    expect(standing).not.toHaveProperty('owner');
  });
});

describe('the maps read', () => {
  it('reads a board only for maps whose top clans lack one of the clans', () => {
    const status: TurfStatus = {
      day: 1,
      maps: [map, { map_id: 0, owner: null, top_clans: [{ clan_id: 7, clan_name: 'Us', points: 5 }] }],
    };
    expect(mapsToRead(status, [7])).toEqual([]);
    expect(mapsToRead(status, [9])).toEqual([0]);
    expect(mapsToRead(status, [7, 9, 5])).toEqual([2, 0]);
  });

  it('keeps ten maps at most, each once', () => {
    const status: TurfStatus = {
      maps: Array.from({ length: 50 }, (_, i) => ({ map_id: i % 12, top_clans: [] })),
    };
    expect(validMaps(status).map((m) => m.map_id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
