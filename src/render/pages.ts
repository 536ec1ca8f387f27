import type { Translator } from '../i18n/index.ts';
import { pageRow, type Pager, type Row } from './common.ts';

/**
 * Boards the API sends whole (up to 100 rows) are paged here, the same way for every feature: the
 * leaderboards, the turf boards, payouts.
 */
/** Rows per page of the boards the API sends whole (up to 100 rows), paged here. */
export const LOCAL_PAGE_SIZE = 25;

const MEDALS: Readonly<Record<number, string>> = { 1: '🥇', 2: '🥈', 3: '🥉' };

/** 🥇🥈🥉 for the podium, `#n` below it (the row's index when the API left the position out). */
export function place(t: Translator, position: number | undefined, index: number): string {
  const at = position ?? index + 1;
  return MEDALS[at] ?? `**#${t.n(at)}**`;
}

/** The page actually shown: within 1..pages. */
export function clampPage(page: number, rows: number, perPage: number = LOCAL_PAGE_SIZE): number {
  const pages = Math.max(1, Math.ceil(rows / perPage));
  return Math.min(Math.max(1, Math.floor(Number.isFinite(page) ? page : 1)), pages);
}

export interface LocalPage<T> {
  readonly rows: readonly T[];
  readonly offset: number;
  readonly page: number;
  readonly pages: number;
}

/** One page of a board the API sends whole, cut here ({@link LOCAL_PAGE_SIZE} rows a page). */
export function localPage<T>(rows: readonly T[], page: number): LocalPage<T> {
  const shown = clampPage(page, rows.length);
  const offset = (shown - 1) * LOCAL_PAGE_SIZE;
  return {
    rows: rows.slice(offset, offset + LOCAL_PAGE_SIZE),
    offset,
    page: shown,
    pages: Math.max(1, Math.ceil(rows.length / LOCAL_PAGE_SIZE)),
  };
}

/** The pager of a {@link localPage}: none when everything fits on one page. */
export function localRow(t: Translator, slice: LocalPage<unknown>, pager: Pager): Row[] {
  if (slice.pages <= 1) return [];
  const row = pageRow(t, {
    pager,
    page: slice.page,
    totalPages: slice.pages,
    hasNext: slice.page < slice.pages,
  });
  return row ? [row] : [];
}
