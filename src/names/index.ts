import type { Namespace } from '../store/index.ts';

/**
 * Names for autocomplete: what the bot has already seen (players, clans, maps, mods looked up or shown
 * in replies) and the game's static lists (skins, official maps, featured maps, mods). Seen names are
 * kept in the store, so suggestions survive restarts; lookups are in memory.
 */
export type NameKind = 'player' | 'clan' | 'map' | 'mod';

export interface Suggestion<V extends string | number = string> {
  readonly name: string;
  readonly value: V;
}

const PER_KIND = 20_000;
const SEEN_TTL_MS = 30 * 24 * 60 * 60_000;
/** Names of one kind kept from the game's published lists (`src/search/catalog.ts`), at most. */
export const CATALOG_PER_KIND = 5_000;

export class NameIndex {
  readonly #names = new Map<NameKind, Map<string, string>>();
  readonly #skins = new Map<number, string>();
  /** The game's published lists of each kind (lower case → name), replaced whole on each refresh. */
  readonly #catalog = new Map<NameKind, Map<string, string>>();
  readonly #store: Namespace<string> | undefined;

  constructor(store?: Namespace<string>) {
    this.#store = store;
  }

  /** Loads the names seen before a restart. */
  async load(): Promise<void> {
    if (!this.#store) return;
    for await (const [key, name] of this.#store.entries()) {
      const kind = key.slice(0, key.indexOf(':')) as NameKind;
      this.#add(kind, name);
    }
  }

  /** Remembers names the bot saw in a reply; persisted in the background. */
  remember(kind: NameKind, ...names: ReadonlyArray<string | undefined | null>): void {
    for (const name of names) {
      if (!name || name.length > 100) continue;
      if (this.#add(kind, name)) {
        void this.#store?.set(`${kind}:${name.toLowerCase()}`, name, SEEN_TTL_MS).catch(() => undefined);
      }
    }
  }

  /** Static lists from the game: added in memory only (they are fetched again after a restart). */
  seed(kind: NameKind, names: readonly string[]): void {
    for (const name of names) this.#add(kind, name);
  }

  /**
   * Replaces the names of `kind` read from the game's published lists (the map and mod browsers, the clan
   * boards): kept in memory apart from the names seen, at most {@link CATALOG_PER_KIND} of them, so a
   * refresh never grows the index and never pushes out a name seen.
   */
  replaceCatalog(kind: NameKind, names: Iterable<string>): void {
    const kept = new Map<string, string>();
    for (const name of names) {
      if (kept.size >= CATALOG_PER_KIND) break;
      if (!name || name.length > 100) continue;
      const key = name.toLowerCase();
      if (!kept.has(key)) kept.set(key, name);
    }
    this.#catalog.set(kind, kept);
  }

  /** Names of `kind` the published lists hold now. */
  catalogSize(kind: NameKind): number {
    return this.#catalog.get(kind)?.size ?? 0;
  }

  seedSkins(skins: ReadonlyArray<{ readonly index: number; readonly name: string }>): void {
    for (const skin of skins) this.#skins.set(skin.index, skin.name);
  }

  skinName(index: number): string | undefined {
    return this.#skins.get(index);
  }

  get skinCount(): number {
    return this.#skins.size;
  }

  /**
   * Every name of `kind` seen or seeded (at most 20,000, oldest first), then those of the published lists
   * not among them (at most {@link CATALOG_PER_KIND}): what search ranks fuzzily.
   */
  *list(kind: NameKind): IterableIterator<string> {
    const seen = this.#names.get(kind) ?? new Map<string, string>();
    yield* seen.values();
    for (const [key, name] of this.#catalog.get(kind) ?? []) if (!seen.has(key)) yield name;
  }

  /** Up to `limit` names: those starting with `query` first, then those containing it. */
  suggest(kind: NameKind, query: string, limit = 25): Array<Suggestion> {
    return rank(
      [...this.list(kind)].map((name) => ({ name, value: name })),
      query,
      limit,
    );
  }

  suggestSkins(query: string, limit = 25): Array<Suggestion<number>> {
    const trimmed = query.trim();
    const all = [...this.#skins].map(([index, name]) => ({ name: `${name} (#${index})`, value: index }));
    if (/^\d+$/.test(trimmed)) {
      const exact = all.filter((skin) => String(skin.value).startsWith(trimmed));
      return exact.sort((a, b) => a.value - b.value).slice(0, limit);
    }
    return rank(all, trimmed, limit);
  }

  #add(kind: NameKind, name: string): boolean {
    let names = this.#names.get(kind);
    if (!names) {
      names = new Map();
      this.#names.set(kind, names);
    }
    const key = name.toLowerCase();
    if (names.get(key) === name) return false;
    names.set(key, name);
    if (names.size > PER_KIND) {
      const oldest = names.keys().next();
      if (!oldest.done) names.delete(oldest.value);
    }
    return true;
  }
}

function rank<T extends Suggestion<string | number>>(items: readonly T[], query: string, limit: number): T[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...items].sort((a, b) => a.name.localeCompare(b.name)).slice(0, limit);
  const starts: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const hay = item.name.toLowerCase();
    if (hay.startsWith(needle)) starts.push(item);
    else if (hay.includes(needle)) contains.push(item);
  }
  const byName = (a: T, b: T) => a.name.length - b.name.length || a.name.localeCompare(b.name);
  return [...starts.sort(byName), ...contains.sort(byName)].slice(0, limit);
}
