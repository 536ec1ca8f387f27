/** Who asks: the user (debounce and share), and the server the ask comes from, if any. */
export interface SearchAsker {
  readonly user: string;
  readonly guild?: string | null | undefined;
}

/** A limit of searches per sliding window. */
export interface SearchWindow {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The owners' shares of the search budget: each user, and each server, may start at most its window's
 * limit of searches. Only owners with a search within their window are kept, so the map holds at most as
 * many owners as the budget lets searches through in a window.
 */
export class SearchShares {
  readonly #perUser: SearchWindow;
  readonly #perServer: SearchWindow;
  /** Times of the searches each owner (`u:<user>`, `g:<server>`) started within its window, oldest first. */
  readonly #owned = new Map<string, number[]>();

  constructor(perUser: SearchWindow, perServer: SearchWindow) {
    this.#perUser = perUser;
    this.#perServer = perServer;
  }

  /** Whether the asker and its server both have room at `now`. */
  room(asker: SearchAsker | undefined, now: number): boolean {
    for (const [owner, times] of this.#owned) {
      const kept = times.filter((at) => at > now - this.#windowOf(owner).windowMs);
      if (kept.length === 0) this.#owned.delete(owner);
      else this.#owned.set(owner, kept);
    }
    return this.#owners(asker).every(
      (owner) => (this.#owned.get(owner)?.length ?? 0) < this.#windowOf(owner).limit,
    );
  }

  /** Counts a search the asker started at `now`. */
  take(asker: SearchAsker | undefined, now: number): void {
    for (const owner of this.#owners(asker)) this.#owned.set(owner, [...(this.#owned.get(owner) ?? []), now]);
  }

  #owners(asker: SearchAsker | undefined): string[] {
    if (asker === undefined) return [];
    const guild = asker.guild ?? undefined;
    return guild === undefined || guild === '' ? [`u:${asker.user}`] : [`u:${asker.user}`, `g:${guild}`];
  }

  #windowOf(owner: string): SearchWindow {
    return owner.startsWith('u:') ? this.#perUser : this.#perServer;
  }
}
