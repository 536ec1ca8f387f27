import type { Clock } from '../core/clock.ts';
import type { SearchKind, SearchLookup } from './lookup.ts';
import type { SearchWindow } from '../traffic/shares.ts';

import type { NameKind } from '../names/index.ts';

/** The names known without asking: those seen and those the game publishes (`NameIndex`). */
export interface NameSource {
  list(kind: NameKind): Iterable<string>;
}

/** The options, cache entries and counters of the name search (`index.ts`). */
export interface NameSearchOptions {
  readonly clock: Clock;
  readonly names: NameSource;
  readonly lookup: SearchLookup;
  /** How long a query must stay unchanged before it goes upstream. Default 300 ms. */
  readonly debounceMs?: number;
  /** The longest an autocomplete answer waits for upstream. Default 800 ms. */
  readonly answerWithinMs?: number;
  /** How long an upstream answer is reused. Default 5 min. */
  readonly cacheTtlMs?: number;
  /** Queries kept in the cache. Default 500. */
  readonly cacheSize?: number;
  /** Upstream searches allowed per window. Default 30 a minute. */
  readonly budget?: SearchWindow;
  /** Upstream searches one user may start per window. Default 10 a minute (a third of the budget). */
  readonly perUser?: SearchWindow;
  /** Upstream searches one server's users may start per window. Default 20 a minute (two thirds). */
  readonly perServer?: SearchWindow;
  /** Upstream searches at once. Default 2. */
  readonly maxInFlight?: number;
  /** Hits in a full page of the search endpoint: an answer with fewer is complete. Default 25. */
  readonly pageSize?: number;
  /** Shortest query sent upstream. Default 2 characters. */
  readonly minQuery?: number;
  /** Told of each upstream failure (logged by the caller); failures are not cached. */
  readonly onError?: (kind: SearchKind, error: unknown) => void;
}

export interface Cached {
  readonly names: readonly string[];
  readonly complete: boolean;
  readonly at: number;
}

export interface SearchStats {
  /** Searches sent upstream. */
  upstream: number;
  /** Answers given from the cache of an earlier query (same or prefix) without asking upstream. */
  cacheHits: number;
  /** Queries not sent because the budget had no room. */
  overBudget: number;
  /** Of those, queries not sent because their user's or server's share had no room. */
  overShare: number;
  /** Queries whose wait a newer keystroke cancelled. */
  superseded: number;
  /** Autocomplete asks sent upstream whose answer came too late for them (answered from the names known). */
  answeredFromKnown: number;
}
