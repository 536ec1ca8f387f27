import type { MapLeaderboard } from '../../api/schemas/index.ts';

/** Players on a page of a map's board, as the API pages it. */
export const MAP_BOARD_PER_PAGE = 25;

/**
 * How many players a map's board has. The API sends no total: the board is paged (25 a page), so the
 * size is found by reading pages: the page of the player first (usually the last one), then doubling
 * past it until a page is short or empty, then halving between the last full and the first empty page.
 * At most `maxReads` pages are read (each one a request, cached a minute); when they do not settle it,
 * the size is a lower bound (`exact: false`).
 */
export interface BoardSize {
  readonly size: number;
  readonly exact: boolean;
}

export type ReadBoardPage = (page: number) => Promise<MapLeaderboard>;

/** Pages are never asked past this one (2,500 × 25 rows), whatever a reply says. */
const LAST_PAGE = 2_500;

export async function boardSize(read: ReadBoardPage, position: number, maxReads = 6): Promise<BoardSize> {
  const start =
    Number.isSafeInteger(position) && position >= 1 ? Math.ceil(position / MAP_BOARD_PER_PAGE) : 1;
  /** The last page known full, and the first page known empty. */
  let full = 0;
  let empty: number | undefined;
  let next = Math.min(start, LAST_PAGE);
  let perPage = MAP_BOARD_PER_PAGE;
  // The player is on the board: it has at least their position, whatever the pages say.
  const least = Number.isSafeInteger(position) && position >= 1 ? position : 0;
  const settled = (size: number): BoardSize => ({ size: Math.max(size, least), exact: true });
  for (let reads = 0; reads < maxReads; reads += 1) {
    const data = await read(next);
    perPage = validPerPage(data.per_page);
    const rows = Math.min(data.entries.length, perPage);
    if (rows > 0 && rows < perPage) return settled((next - 1) * perPage + rows);
    if (rows === 0) empty = next;
    else full = next;
    if (empty !== undefined && empty - full <= 1) return settled(full * perPage);
    const following: number =
      empty === undefined ? Math.min(full * 2, LAST_PAGE) : Math.floor((full + empty) / 2);
    if (following <= full) break;
    next = following;
  }
  return { size: Math.max(full * perPage, least), exact: false };
}

function validPerPage(perPage: number | undefined): number {
  return perPage !== undefined && Number.isSafeInteger(perPage) && perPage >= 1 && perPage <= 100
    ? perPage
    : MAP_BOARD_PER_PAGE;
}
