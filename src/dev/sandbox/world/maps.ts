import { COMMUNITY_MAP_NAMES, MAP_WORDS, OFFICIAL_MAP_NAMES } from '../names.ts';
import { DAY_MS } from '../time.ts';
import type { WorldContext } from './common.ts';
import type { BoardEntry, BoardType, CommunityMap, OfficialMap, Player } from './types.ts';

/** The map maker owns several; a few are hidden; boards of every kind. */
export function makeCommunityMaps(
  { rng, anchorMs, daysAgo }: WorldContext,
  creators: readonly Player[],
  mapMaker: Player,
): CommunityMap[] {
  let nextMapId = 100_000;
  return COMMUNITY_MAP_NAMES.map((name, index) => {
    nextMapId += rng.int(3, 400);
    const creator = index % 8 === 0 ? mapMaker : rng.pick(creators);
    const boardKind =
      name === 'Golf Course' ? 'golf' : index % 3 === 0 ? 'time' : index % 3 === 1 ? 'score' : 'none';
    const leaderboardType: BoardType | '' =
      boardKind === 'time' ? 'time' : boardKind === 'none' ? '' : 'score';
    const leaderboardOrder: 0 | 1 = boardKind === 'score' ? 1 : 0;
    const boards: Partial<Record<BoardType, BoardEntry[]>> = {};
    const fillBoard = (type: BoardType): BoardEntry[] =>
      rng.sample(creators, rng.int(20, 80)).map((p) => ({
        playerName: p.name,
        value: type === 'time' ? rng.int(12_000, 400_000) : rng.int(50, 60_000),
        dateMs: daysAgo(rng.int(0, 200)),
      }));
    if (leaderboardType !== '') boards[leaderboardType] = fillBoard(leaderboardType);
    if (leaderboardType === 'time' && index % 2 === 0) boards.score = fillBoard('score');
    const createdAtMs = daysAgo(rng.int(20, 900));
    return {
      id: nextMapId,
      name,
      description: `A ${rng.pick(MAP_WORDS)} ${rng.pick(MAP_WORDS)} map by ${creator.name}.`,
      creatorId: creator.id,
      creatorName: creator.name,
      votes: rng.int(0, 25_000),
      gameplays: rng.int(10, 900_000),
      playtimeMs: rng.int(10, 900_000) * rng.int(30_000, 400_000),
      category: rng.int(0, 7),
      createdAtMs,
      updatedAtMs: Math.min(anchorMs, createdAtMs + rng.int(0, 300) * DAY_MS),
      leaderboardType,
      leaderboardOrder,
      featured: false,
      featuredAtMs: null,
      hidden: name === 'Backrooms' ? 'restricted' : name === 'Sewers' ? 'deleted' : null,
      boards,
      versions: rng.int(1, 12),
    };
  });
}

export function makeOfficialMaps(): OfficialMap[] {
  return OFFICIAL_MAP_NAMES.map((name, id) => ({ id, name }));
}
