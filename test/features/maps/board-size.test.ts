import { describe, expect, it } from 'vitest';
import type { MapLeaderboard } from '../../../src/api/schemas/index.ts';
import { boardSize } from '../../../src/features/maps/board-size.ts';

/** A board of `size` rows, 25 a page, that counts the pages read. */
function board(size: number) {
  const reads: number[] = [];
  const read = (page: number): Promise<MapLeaderboard> => {
    reads.push(page);
    const first = (page - 1) * 25;
    const rows = Math.max(0, Math.min(25, size - first));
    return Promise.resolve({
      page,
      per_page: 25,
      entries: Array.from({ length: rows }, (_, i) => ({
        player_name: `P${first + i}`,
        position: first + i + 1,
      })),
    });
  };
  return { read, reads };
}

describe('map board size', () => {
  it('reads the player’s own page when it is the last one', async () => {
    const { read, reads } = board(37);
    expect(await boardSize(read, 30)).toEqual({ size: 37, exact: true });
    expect(reads).toEqual([2]);
  });

  it('doubles past the player, then halves, to the exact size', async () => {
    for (const size of [25, 50, 51, 260, 999, 1000]) {
      const { read, reads } = board(size);
      const found = await boardSize(read, 2, 12);
      expect(found, `board of ${size}`).toEqual({ size, exact: true });
      expect(reads.length).toBeLessThanOrEqual(12);
    }
  });

  it('says "at least" when its reads do not settle it', async () => {
    const { read, reads } = board(100_000);
    expect(await boardSize(read, 2)).toEqual({ size: 32 * 25, exact: false });
    expect(reads).toEqual([1, 2, 4, 8, 16, 32]);
  });

  it('never says fewer than the player’s position, and ignores a nonsense page size', async () => {
    const empty = (): Promise<MapLeaderboard> => Promise.resolve({ entries: [], per_page: -4 });
    expect(await boardSize(empty, 7)).toEqual({ size: 7, exact: true });
  });
});
