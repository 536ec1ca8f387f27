/**
 * Ranking names against what a user typed, forgiving typos: exact, then names starting with the query,
 * then names containing it, then names within a few edits of the query (Damerau–Levenshtein, adjacent
 * swaps counted as one edit), either of the whole name or of its start (the user may still be typing).
 *
 * Why not a fuzzy-search library: names are short (the API takes at most 100 characters; players use
 * about 20), the list is one in-memory array, and what is wanted is exactly "prefix, substring, or a few
 * typos". A banded edit distance with a cut-off does that in O(query length × (2k + 1)) per name, with
 * no index to build or keep in step with the names seen, and gives the same order on every run.
 *
 * Every input is data: both strings are cut to {@link MAX_COMPARED} code units before comparing, so one
 * comparison is bounded whatever is typed or stored.
 */
export const MAX_COMPARED = 64;

/** How many edits a query of this length may be off by: none under 3 characters, at most 3. */
export function allowedEdits(length: number): number {
  if (length < 3) return 0;
  if (length <= 5) return 1;
  if (length <= 10) return 2;
  return 3;
}

/** The form names are compared in: compatibility-normalised, lower case, trimmed, cut. */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().trim().slice(0, MAX_COMPARED);
}

/**
 * How well `name` answers `query` (both {@link fold}ed); lower is better, undefined when it does not match.
 * 0 exact · [1, 2) prefix · [2, 3) substring · [3, 7) within the allowed edits.
 */
export function matchScore(query: string, name: string): number | undefined {
  if (query === '') return 1;
  if (name === query) return 0;
  if (name.startsWith(query)) return 1 + Math.min(name.length - query.length, 999) / 1000;
  const at = name.indexOf(query);
  if (at >= 0) return 2 + Math.min(at, 999) / 1000;
  const k = allowedEdits(query.length);
  if (k === 0) return undefined;
  const edits = boundedEdits(query, name, k);
  if (edits === undefined) return undefined;
  return 3 + edits + Math.min(Math.abs(name.length - query.length), 999) / 1000;
}

export interface Ranked {
  readonly name: string;
  readonly score: number;
}

/**
 * The best `limit` of `names` for `query`, best first, each spelling once (case-insensitively: the first
 * seen wins). Ties are broken by name, so the order does not depend on the order of `names`.
 */
export function rankNames(query: string, names: Iterable<string>, limit: number): Ranked[] {
  const needle = fold(query);
  const best = new Map<string, Ranked>();
  for (const name of names) {
    const folded = fold(name);
    if (folded === '' || best.has(folded)) continue;
    const score = matchScore(needle, folded);
    if (score !== undefined) best.set(folded, { name, score });
  }
  return [...best.values()]
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, Math.max(0, limit));
}

/**
 * The fewest edits that turn `query` into `name` or into a start of `name` (so "snipr" matches "Sniper1"),
 * if at most `k`; undefined otherwise. Optimal string alignment distance, computed in a band of width
 * 2k + 1 around the diagonal, stopping as soon as a whole row exceeds `k`.
 */
export function boundedEdits(query: string, name: string, k: number): number | undefined {
  const a = query.slice(0, MAX_COMPARED);
  const b = name.slice(0, MAX_COMPARED);
  const m = a.length;
  const n = b.length;
  if (m === 0) return 0;
  const INF = k + 1;
  let before = new Array<number>(n + 1).fill(INF);
  let previous = new Array<number>(n + 1).fill(INF);
  let current = new Array<number>(n + 1).fill(INF);
  for (let j = 0; j <= Math.min(n, k); j += 1) previous[j] = j;
  for (let i = 1; i <= m; i += 1) {
    current.fill(INF);
    if (i <= k) current[0] = i;
    let rowBest = current[0] ?? INF;
    const from = Math.max(1, i - k);
    const to = Math.min(n, i + k);
    for (let j = from; j <= to; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? INF) + 1,
        (current[j - 1] ?? INF) + 1,
        (previous[j - 1] ?? INF) + cost,
      );
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      )
        value = Math.min(value, (before[j - 2] ?? INF) + 1);
      current[j] = Math.min(value, INF);
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > k) return undefined;
    [before, previous, current] = [previous, current, before];
  }
  // `previous` holds the last row: the query against every start of the name (the whole name included).
  let bestEnd = INF;
  for (let j = Math.max(0, m - k); j <= Math.min(n, m + k); j += 1)
    bestEnd = Math.min(bestEnd, previous[j] ?? INF);
  return bestEnd <= k ? bestEnd : undefined;
}
