import type { TierClient } from '../api/client.ts';
import type { Clock } from '../core/clock.ts';
import type { NameKind, Suggestion } from '../names/index.ts';
import { fold, rankNames } from './fuzzy.ts';
import { SearchShares, type SearchAsker, type SearchWindow } from '../traffic/shares.ts';
import { tierLookup, type SearchKind, type SearchLookup } from './lookup.ts';

export { tierLookup, type SearchKind, type SearchLookup } from './lookup.ts';
import type { Cached, NameSearchOptions, NameSource, SearchStats } from './options.ts';
export type { NameSearchOptions, NameSource, SearchStats } from './options.ts';

export type { SearchAsker, SearchWindow } from '../traffic/shares.ts';

/**
 * Name search that forgives: autocomplete and "did you mean" for player and clan names, from the names the
 * bot has already seen (`NameIndex`) and from the game's search endpoints.
 *
 * - Names seen answer first. An autocomplete answer never waits longer than `answerWithinMs` (800 ms, well
 *   inside Discord's 3 s and the router's own bound): what upstream has not answered by then fills the
 *   cache for the next keystroke.
 * - Debounced: a query goes upstream only once it has stayed the same for `debounceMs` (per user and
 *   kind). A newer keystroke cancels the wait of the older one, which answers at once with what is known
 *   (Discord drops that answer anyway). Concurrent asks for the same query share one request.
 * - Cached: answers are kept `cacheTtlMs` (5 min) in a bounded LRU. A longer query is answered from the
 *   cached answer to its prefix without a request when that answer was complete (fewer hits than a page:
 *   the search matches substrings, so every hit for "snip" is among the hits for "sni").
 * - Within the budget: at most `budget.limit` upstream searches per `budget.windowMs` and `maxInFlight` at
 *   once for this process, sent with `background` priority so they never take the room the shared limits
 *   keep for commands. With no room now, the answer is the names seen: autocomplete never queues.
 * - Shared by owner: one user may start at most `perUser.limit` of those searches per window, and one
 *   server `perServer.limit`, so one user's burst (or one server's) leaves room for everyone else; a
 *   search refused for its owner's share is answered from the names seen, as over the budget.
 */

const MAX_QUERY = 100;
const MAX_CHOICES = 25;

export class NameSearch {
  readonly #clock: Clock;
  readonly #names: NameSource;
  readonly #lookup: SearchLookup;
  readonly #debounceMs: number;
  readonly #answerWithinMs: number;
  readonly #ttlMs: number;
  readonly #cacheSize: number;
  readonly #budget: SearchWindow;
  readonly #shares: SearchShares;
  readonly #maxInFlight: number;
  readonly #pageSize: number;
  readonly #minQuery: number;
  readonly #onError: NameSearchOptions['onError'];
  /** LRU: `kind:folded query` → answer; Map order is use order. */
  readonly #cache = new Map<string, Cached>();
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Times of the searches sent within the budget window, oldest first. */
  #sent: number[] = [];
  /** The debounce wait of each user and kind. */
  readonly #waiting = new Map<string, AbortController>();
  readonly stats: SearchStats = {
    upstream: 0,
    cacheHits: 0,
    overBudget: 0,
    overShare: 0,
    superseded: 0,
    answeredFromKnown: 0,
  };

  constructor(options: NameSearchOptions) {
    this.#clock = options.clock;
    this.#names = options.names;
    this.#lookup = options.lookup;
    this.#debounceMs = options.debounceMs ?? 300;
    this.#answerWithinMs = Math.max(this.#debounceMs, options.answerWithinMs ?? 800);
    this.#ttlMs = options.cacheTtlMs ?? 5 * 60_000;
    this.#cacheSize = Math.max(1, options.cacheSize ?? 500);
    this.#budget = options.budget ?? { limit: 30, windowMs: 60_000 };
    this.#shares = new SearchShares(
      options.perUser ?? { limit: 10, windowMs: 60_000 },
      options.perServer ?? { limit: 20, windowMs: 60_000 },
    );
    this.#maxInFlight = Math.max(1, options.maxInFlight ?? 2);
    this.#pageSize = options.pageSize ?? 25;
    this.#minQuery = Math.max(1, options.minQuery ?? 2);
    this.#onError = options.onError;
  }

  /**
   * Autocomplete choices for `typed`, from the names seen and the cached search answers, best first.
   * `who` (the user id, or the user and the server) keys the debounce, so one user's keystrokes replace
   * each other and not other users', and says whose share of the budget a search takes.
   */
  async suggest(
    kind: SearchKind,
    typed: string,
    who: string | SearchAsker,
    limit = MAX_CHOICES,
  ): Promise<Suggestion[]> {
    const query = queryOf(typed);
    const folded = fold(query);
    const asker = typeof who === 'string' ? { user: who } : who;
    if (folded.length >= this.#minQuery && !this.#known(kind, folded)) {
      await this.#debounced(kind, query, asker);
    }
    return this.#rank(kind, query, limit).map((name) => ({ name: choiceText(name), value: name }));
  }

  /**
   * The spelling of a player that equals `typed` but for case, when the API did not find `typed` as typed:
   * a name seen (or published), else a hit of the search endpoint for it (within the budget and the
   * asker's share, waiting at most `waitMs`; its answer is cached, so the "did you mean" that may follow
   * asks nothing again). Undefined when there is none.
   */
  async otherCasing(
    kind: NameKind,
    typed: string,
    waitMs = 1_500,
    asker?: SearchAsker,
  ): Promise<string | undefined> {
    const query = queryOf(typed);
    const folded = fold(query);
    if (folded === '') return undefined;
    const other = (names: Iterable<string>) => {
      for (const name of names) if (name !== query && fold(name) === folded) return name;
      return undefined;
    };
    const seen = other(this.#names.list(kind));
    // Only players have a search endpoint (clans have the exact lookup, which just failed).
    if (seen !== undefined || kind !== 'player' || folded.length < this.#minQuery) return seen;
    const asked = this.#ask(kind, query, asker);
    if (asked) await this.#within(waitMs, asked);
    return other(this.#cached(kind, folded, false)?.names ?? []);
  }

  /**
   * Up to `limit` names close to `missing` (a name the API did not find), from the names seen and the
   * search endpoint (asked with the name and with its first three characters, within the budget and the
   * asker's share when one is given, waiting at most `waitMs`); never `missing` itself. Maps and mods have
   * no search endpoint: theirs are the names seen and the game's published lists.
   */
  async didYouMean(
    kind: NameKind,
    missing: string,
    limit = 3,
    waitMs = 1_500,
    asker?: SearchAsker,
  ): Promise<string[]> {
    const query = queryOf(missing);
    const folded = fold(query);
    if (folded === '') return [];
    // Clans have only an exact lookup, which the command just made: their suggestions are the names seen.
    const queries =
      kind === 'player'
        ? [...new Set([query, [...query].slice(0, 3).join('')])].filter(
            (q) => fold(q).length >= this.#minQuery,
          )
        : [];
    const asks = queries
      .filter((q) => !this.#known('player', fold(q)))
      .map((q) => this.#ask('player', q, asker))
      .filter((ask) => ask !== undefined);
    if (asks.length > 0) await this.#within(waitMs, Promise.all(asks));
    // Every fresh answer cached for this kind (bounded: cacheSize × pageSize): for clans, the names the
    // exact lookups of autocomplete found.
    const extra = [...this.#cache]
      .filter(([key, entry]) => key.startsWith(`${kind}:`) && entry.at + this.#ttlMs > this.#clock.now())
      .flatMap(([, entry]) => entry.names);
    // Clan names are exact (the lookup just failed for this very spelling), so a name differing from it
    // only in case is the likeliest slip and stays; a player or mod name folding to the query was tried
    // already (`otherCasing`), and map lookups ignore case.
    const asked =
      kind === 'clan' ? (name: string) => name === query : (name: string) => fold(name) === folded;
    return rankNames(query, [...this.#names.list(kind), ...extra], limit + 1)
      .map((ranked) => ranked.name)
      .filter((name) => !asked(name))
      .slice(0, limit);
  }

  /** Whether a cached answer covers the query: its own, or a complete one of a prefix of it. */
  #known(kind: SearchKind, folded: string): boolean {
    if (this.#cached(kind, folded)) {
      this.stats.cacheHits += 1;
      return true;
    }
    for (let end = folded.length - 1; end >= this.#minQuery; end -= 1) {
      const shorter = this.#cached(kind, folded.slice(0, end));
      if (shorter?.complete) {
        this.stats.cacheHits += 1;
        return true;
      }
    }
    return false;
  }

  #rank(kind: SearchKind, query: string, limit: number): string[] {
    const folded = fold(query);
    const extra: string[] = [];
    // The cached answers of the query and of its prefixes (the hits for "sni" include those for "snip").
    for (let end = folded.length; end >= this.#minQuery; end -= 1) {
      const cached = this.#cached(kind, folded.slice(0, end), false);
      if (cached) extra.push(...cached.names);
    }
    return rankNames(query, [...extra, ...this.#names.list(kind)], limit).map((ranked) => ranked.name);
  }

  /**
   * Waits until the query has stayed the same for the debounce, then asks upstream and waits for that,
   * all within the answer bound (counting in `stats` how it went).
   */
  async #debounced(kind: SearchKind, query: string, asker: SearchAsker): Promise<void> {
    const key = `${kind}:${asker.user}`;
    this.#waiting.get(key)?.abort();
    const controller = new AbortController();
    this.#waiting.set(key, controller);
    const started = this.#clock.now();
    try {
      try {
        await this.#clock.sleep(this.#debounceMs, controller.signal);
      } catch {
        this.stats.superseded += 1;
        return;
      }
      const asked = this.#ask(kind, query, asker);
      if (asked === undefined) return;
      const left = this.#answerWithinMs - (this.#clock.now() - started);
      if (!(await this.#within(left, asked))) this.stats.answeredFromKnown += 1;
    } finally {
      if (this.#waiting.get(key) === controller) this.#waiting.delete(key);
    }
  }

  /**
   * One upstream search for the query (shared by concurrent asks), if the budget has room now; undefined
   * when there is no room (or the answer is cached after all): nothing to wait for.
   */
  #ask(kind: SearchKind, query: string, asker?: SearchAsker): Promise<void> | undefined {
    const key = `${kind}:${fold(query)}`;
    const running = this.#inFlight.get(key);
    if (running) return running;
    if (this.#cached(kind, fold(query), false)) return undefined;
    if (!this.#take(asker)) {
      this.stats.overBudget += 1;
      return undefined;
    }
    this.stats.upstream += 1;
    const request = this.#lookup(kind, query)
      .then(
        (names) => {
          const kept = names.slice(0, this.#pageSize).filter((name) => name.length <= MAX_QUERY);
          // Only a substring search can be complete: the clan lookup is exact, it says nothing of longer names.
          const complete = kind === 'player' && names.length < this.#pageSize;
          this.#store(key, { names: kept, complete, at: this.#clock.now() });
        },
        (error: unknown) => this.#onError?.(kind, error),
      )
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, request);
    return request;
  }

  /** Takes a slot of the budget, and of the asker's and its server's shares, if all have room now. */
  #take(asker?: SearchAsker): boolean {
    const now = this.#clock.now();
    this.#sent = this.#sent.filter((at) => at > now - this.#budget.windowMs);
    if (this.#sent.length >= this.#budget.limit || this.#inFlight.size >= this.#maxInFlight) return false;
    if (!this.#shares.room(asker, now)) {
      this.stats.overShare += 1;
      return false;
    }
    this.#sent.push(now);
    this.#shares.take(asker, now);
    return true;
  }

  #cached(kind: SearchKind, folded: string, touch = true): Cached | undefined {
    const key = `${kind}:${folded}`;
    const entry = this.#cache.get(key);
    if (!entry) return undefined;
    if (entry.at + this.#ttlMs <= this.#clock.now()) {
      this.#cache.delete(key);
      return undefined;
    }
    if (touch) {
      this.#cache.delete(key);
      this.#cache.set(key, entry);
    }
    return entry;
  }

  #store(key: string, entry: Cached): void {
    this.#cache.delete(key);
    this.#cache.set(key, entry);
    while (this.#cache.size > this.#cacheSize) {
      const oldest = this.#cache.keys().next();
      if (oldest.done) break;
      this.#cache.delete(oldest.value);
    }
  }

  /** Whether `work` settles within `ms` of the clock (it keeps running either way). */
  async #within(ms: number, work: Promise<unknown>): Promise<boolean> {
    if (ms <= 0) return false;
    const timer = new AbortController();
    const done = work.then(
      () => true,
      () => true,
    );
    const late = this.#clock.sleep(ms, timer.signal).then(
      () => false,
      () => false,
    );
    try {
      return await Promise.race([done, late]);
    } finally {
      timer.abort();
    }
  }

  /** Queries in the cache now (for tests and the bench). */
  get cacheSize(): number {
    return this.#cache.size;
  }

  /** Resolves once the upstream searches under way now have answered and filled the cache (for tests). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight.values()]);
  }
}

/** What was typed, trimmed and cut to what the API takes. */
function queryOf(typed: string): string {
  return [...typed.trim()].slice(0, MAX_QUERY).join('');
}

/** A choice's label: 1 to 100 characters (Discord's bounds). */
function choiceText(name: string): string {
  const chars = [...name];
  return chars.length > 100 ? chars.slice(0, 99).join('') + '…' : name;
}

export interface SearchServices {
  readonly api: Pick<TierClient, 'call'>;
  readonly names: NameSource;
  readonly clock: Clock;
  readonly log: { warn(object: object, message: string): void };
}

const searches = new WeakMap<SearchServices, NameSearch>();

/**
 * The process's name search, made on first use from its services (one per `Services`, so every command and
 * every test process has its own cache and budget, and nothing else needs wiring).
 */
export function nameSearchOf(services: SearchServices): NameSearch {
  let search = searches.get(services);
  if (!search) {
    search = new NameSearch({
      clock: services.clock,
      names: services.names,
      lookup: tierLookup(services.api),
      onError: (kind, error) =>
        services.log.warn({ kind, err: describe(error) }, 'name search failed; answering from names seen'),
    });
    searches.set(services, search);
  }
  return search;
}

function describe(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'unknown', message: String(error) };
}
