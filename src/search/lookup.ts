import type { TierClient } from '../api/client.ts';
import { NotFoundError, LocalRefusalError } from '../api/errors.ts';

export type SearchKind = 'player' | 'clan';

/** Asks upstream for names matching `query`; [] when there are none. */
export type SearchLookup = (kind: SearchKind, query: string) => Promise<readonly string[]>;

/** The lookups through the tier client: `/players/search`, and for clans the exact `/clans/by-name/{name}`. */
export function tierLookup(api: Pick<TierClient, 'call'>, deadlineMs = 5_000): SearchLookup {
  const options = { priority: 'background', deadlineMs } as const;
  return async (kind, query) => {
    try {
      if (kind === 'player') {
        const found = await api.call('playerSearch', { query }, options);
        return found.players.map((hit) => hit.player_name);
      }
      // The spec documents no clan search: the exact lookup by name tells whether this very name exists.
      const clan = await api.call('clanByName', { clanName: query }, options);
      return [clan.name];
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof LocalRefusalError) return [];
      throw error;
    }
  };
}
