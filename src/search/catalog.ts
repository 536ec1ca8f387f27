import type { ResultOf, RouteName, Routes, TierClient } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { ParamsOf } from '../api/route.ts';
import type { Clock } from '../core/clock.ts';
import type { NameIndex } from '../names/index.ts';
import { RequestBudget, type BudgetRule } from '../traffic/budget.ts';
import { NAME_CATALOG_READS } from '../traffic/capacity.ts';
import type { SharedLimits } from '../traffic/index.ts';

/**
 * The names the game already publishes, for "did you mean" and autocomplete on a bot that has never seen
 * them: maps from the map browser and mods from the mod browser (`{legacy_url}/webhooks/general/maps/list`
 * and `/mods/list`, no key, each tab `index` 0..2 paged by `pos`), clans from the clan leaderboard and the
 * recruitment board. They replace the published names of the name index (`NameIndex.replaceCatalog`),
 * kept apart from the names seen.
 *
 * Within its share of the budget: every read takes a ticket of its own budget in the shared limits
 * ({@link NAME_CATALOG_READS}, across processes with Redis), which `followCapacity` leaves out of what the
 * players feed, the price alerts and the clan logs plan; reads go one at a time with `background`
 * priority, so they never take the room the tier client keeps for commands. Bounded: at most
 * {@link CatalogOptions.pages} pages of each browser tab and of the recruitment board, one leaderboard
 * read, and at most `CATALOG_PER_KIND` names of a kind, so one refresh makes at most
 * {@link readsPerRefresh} reads.
 */
export const NAME_CATALOG_SCOPE = 'name-catalog';

/** The browsers' tabs (`index`): 0 most voted, 1 newest, 2 featured. */
const BROWSER_TABS = [0, 1, 2] as const;
/** Clans asked per page of the recruitment board (the route allows 1 to 100). */
const RECRUITMENT_LIMIT = 50;

export interface CatalogOptions {
  readonly api: Pick<TierClient, 'call'>;
  readonly names: Pick<NameIndex, 'replaceCatalog'>;
  readonly limits: SharedLimits;
  readonly clock: Clock;
  readonly log: { warn(object: object, message: string): void };
  /** The budget's rule; default {@link NAME_CATALOG_READS}. */
  readonly rule?: BudgetRule;
  /** How often the lists are read again. Default 6 hours. */
  readonly refreshMs?: number;
  /** How long after start the first refresh begins (start-up's own reads go first). Default 1 minute. */
  readonly initialDelayMs?: number;
  /** Pages read at most of each browser tab and of the recruitment board. Default 5. */
  readonly pages?: number;
  /** How long one read may take, its waits and its one retry included. Default 30 s. */
  readonly deadlineMs?: number;
}

/** What one refresh found: names of each kind, and the reads it made (retries included). */
export interface CatalogRefresh {
  readonly counts: Readonly<Record<'map' | 'mod' | 'clan', number>>;
  readonly requests: number;
}

/** The most reads one refresh makes with `pages` pages a list (retries aside). */
export function readsPerRefresh(pages: number): number {
  return 2 * BROWSER_TABS.length * pages + 1 + pages;
}

export class NameCatalog {
  readonly #options: CatalogOptions;
  readonly #budget: RequestBudget;
  readonly #pages: number;
  #requests = 0;

  constructor(options: CatalogOptions) {
    this.#options = options;
    this.#budget = new RequestBudget(
      options.limits,
      NAME_CATALOG_SCOPE,
      options.rule ?? NAME_CATALOG_READS,
      options.clock,
    );
    this.#pages = Math.max(1, Math.min(20, options.pages ?? 5));
  }

  /** The budget the reads take their tickets from (for tests and diagnostics). */
  get budget(): RequestBudget {
    return this.#budget;
  }

  /**
   * Reads every list once, clans first (the fewest reads), and replaces the published names of each kind
   * as soon as its lists answered at least once (a kind none of whose reads answered keeps its names).
   */
  async refresh(signal?: AbortSignal): Promise<CatalogRefresh> {
    const before = this.#requests;
    const counts = { map: 0, mod: 0, clan: 0 };
    const readers = {
      clan: () => this.#clans(signal),
      map: () => this.#browse('map', signal),
      mod: () => this.#browse('mod', signal),
    };
    for (const kind of ['clan', 'map', 'mod'] as const) {
      const found = await readers[kind]();
      if (found === undefined) continue;
      this.#options.names.replaceCatalog(kind, found);
      counts[kind] = found.size;
    }
    return { counts, requests: this.#requests - before };
  }

  /**
   * Refreshes after `initialDelayMs` and then every `refreshMs` until `signal` aborts; a failed refresh
   * is logged and the names of the last good one stay.
   */
  async run(signal: AbortSignal): Promise<void> {
    const refreshMs = Math.max(60_000, this.#options.refreshMs ?? 6 * 60 * 60_000);
    try {
      await this.#options.clock.sleep(Math.max(0, this.#options.initialDelayMs ?? 60_000), signal);
    } catch {
      return;
    }
    for (;;) {
      try {
        await this.refresh(signal);
      } catch (error) {
        // Aborted while waiting for a ticket or a read: stopped.
        if (signal.aborted) return;
        this.#options.log.warn({ err: describeError(error) }, 'could not refresh the published names');
      }
      try {
        await this.#options.clock.sleep(refreshMs, signal);
      } catch {
        return;
      }
    }
  }

  /** Names of every tab of a browser, page after page until a page brings nothing new; undefined if none answered. */
  async #browse(kind: 'map' | 'mod', signal?: AbortSignal): Promise<Set<string> | undefined> {
    const found = new Set<string>();
    let answered = false;
    for (const index of BROWSER_TABS) {
      for (let pos = 0; pos < this.#pages; pos += 1) {
        const names =
          kind === 'map'
            ? (await this.#read('mapBrowser', { index, pos }, signal))?.maps.map((map) => map.name)
            : (await this.#read('modBrowser', { index, pos }, signal))?.mods.map((mod) => mod.name);
        if (names === undefined) break;
        answered = true;
        const size = found.size;
        for (const name of names) found.add(name);
        if (found.size === size) break;
      }
    }
    return answered ? found : undefined;
  }

  /** Clan names of the clan leaderboard and the recruitment board; undefined if neither answered. */
  async #clans(signal?: AbortSignal): Promise<Set<string> | undefined> {
    const found = new Set<string>();
    const board = await this.#read('clanLeaderboard', {}, signal);
    for (const row of board?.rows ?? []) found.add(row.clan_name);
    let answered = board !== undefined;
    for (let page = 1; page <= this.#pages; page += 1) {
      const recruiting = await this.#read('clanRecruitment', { page, limit: RECRUITMENT_LIMIT }, signal);
      if (recruiting === undefined) break;
      answered = true;
      for (const clan of recruiting.clans) found.add(clan.name);
      if (recruiting.clans.length < RECRUITMENT_LIMIT) break;
    }
    return answered ? found : undefined;
  }

  /** One read with a ticket of the budget; undefined when it failed (logged), rejecting only on abort. */
  async #read<N extends RouteName>(
    name: N,
    params: ParamsOf<Routes[N]>,
    signal?: AbortSignal,
  ): Promise<ResultOf<Routes[N]> | undefined> {
    const ticket = await this.#budget.take(signal);
    let attempts = 0;
    try {
      return await this.#options.api.call(name, params, {
        priority: 'background',
        fresh: true,
        ...(signal === undefined ? {} : { signal }),
        deadlineMs: this.#options.deadlineMs ?? 30_000,
        onAttempt: () => (attempts += 1),
      });
    } catch (error) {
      signal?.throwIfAborted();
      this.#options.log.warn({ route: name, err: describeError(error) }, 'could not read a published list');
      return undefined;
    } finally {
      this.#requests += attempts;
      await ticket.settle(Math.max(0, attempts - 1));
    }
  }
}

/** Starts refreshing the published names in the background; the returned function stops it. */
export function startNameCatalog(options: CatalogOptions): { readonly catalog: NameCatalog; stop(): void } {
  const catalog = new NameCatalog(options);
  const controller = new AbortController();
  void catalog.run(controller.signal);
  return { catalog, stop: () => controller.abort() };
}
