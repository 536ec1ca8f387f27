import type { KpdCall } from '../../api/schemas/index.ts';
import { parseTime } from '../../core/time.ts';

/** `/api/kpd/latest-calls` answers at most 50 calls; the bot shows them a page at a time. */
export const KPD_CALLS_MAX = 50;
export const KPD_CALLS_PER_PAGE = 10;

/**
 * Newest first, as the spec says the service answers; sorted again so that a reply in another order
 * still reads right. Calls without a readable date keep their place after the dated ones.
 */
export function newestFirst(calls: readonly KpdCall[]): KpdCall[] {
  const dated = calls.map((call, index) => ({
    call,
    index,
    at: call.date ? parseTime(call.date) : Number.NaN,
  }));
  dated.sort((a, b) => {
    const aKnown = Number.isFinite(a.at);
    const bKnown = Number.isFinite(b.at);
    if (aKnown && bKnown && a.at !== b.at) return b.at - a.at;
    if (aKnown !== bKnown) return aKnown ? -1 : 1;
    return a.index - b.index;
  });
  return dated.slice(0, KPD_CALLS_MAX).map((entry) => entry.call);
}

export function pageCount(total: number, perPage: number = KPD_CALLS_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The page (1-based) clamped to what exists, and its calls. */
export function pageOf<T>(items: readonly T[], page: number, perPage: number = KPD_CALLS_PER_PAGE) {
  const total = pageCount(items.length, perPage);
  const current = Math.min(Math.max(1, Math.floor(page) || 1), total);
  return { page: current, totalPages: total, items: items.slice((current - 1) * perPage, current * perPage) };
}
