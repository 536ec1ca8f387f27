import { NotFoundError } from '../api/errors.ts';
import type { Loader } from '../discord/command.ts';
import { NameNotFoundError, type NameChoice } from '../render/suggest.ts';
import { nameSearchOf, type SearchAsker, type SearchServices } from './index.ts';

/**
 * The command half of "did you mean": a context whose `load` turns the API's 404 for a player into a reply
 * that names the player searched for and offers up to three close names, each a button whose id
 * `idFor(name)` gives (undefined: no button, e.g. when a command has nothing to run for one name).
 *
 * Only the routes that look a player up by name count: a 404 of any other route (an item, a match) is
 * left as it is, so it is never mistaken for a missing player.
 */
const PLAYER_ROUTES: ReadonlySet<string> = new Set([
  'player',
  'gamePlayer',
  'playerMatches',
  'playerInventory',
  'playerListings',
  'playerPosts',
]);

/** The interaction's user and server, when the context has one (whose share of the search budget it is). */
interface Asking {
  readonly interaction?: { readonly user: { readonly id: string }; readonly guildId: string | null };
}

export function suggestPlayersOnNotFound<C extends Loader & { readonly services: SearchServices } & Asking>(
  ctx: C,
  idFor: (name: string) => string | undefined,
): C {
  const load: Loader['load'] = async (route, params, options) => {
    try {
      return await ctx.load(route, params, options);
    } catch (error) {
      const searched =
        error instanceof NotFoundError && PLAYER_ROUTES.has(route) ? nameOf(params) : undefined;
      if (searched === undefined) throw error;
      const asker = ctx.interaction && { user: ctx.interaction.user.id, guild: ctx.interaction.guildId };
      throw await playerNotFound(ctx.services, searched, idFor, asker);
    }
  };
  return { ...ctx, load };
}

/** The error for a player the API does not know, with the close names found. */
export async function playerNotFound(
  services: SearchServices,
  searched: string,
  idFor: (name: string) => string | undefined,
  asker?: SearchAsker,
): Promise<NameNotFoundError> {
  const close = await nameSearchOf(services).didYouMean('player', searched, 3, 1_500, asker);
  const choices: NameChoice[] = close.map((name) => ({ name, customId: idFor(name) }));
  return new NameNotFoundError('common:notFound.player', searched, choices);
}

function nameOf(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || !('playerName' in params)) return undefined;
  const name = (params as { readonly playerName: unknown }).playerName;
  return typeof name === 'string' ? name : undefined;
}

/**
 * The error for a clan the API does not know. Clan names are exact in the spec (capitals, spaces and
 * symbols count), so `key` should say so; the close names are those the bot has seen, and a name that
 * differs from the one asked only in case is among them (it is the likeliest slip).
 */
export async function clanNotFound(
  services: SearchServices,
  searched: string,
  idFor: (name: string) => string | undefined,
  key: string,
  asker?: SearchAsker,
): Promise<NameNotFoundError> {
  const close = await nameSearchOf(services).didYouMean('clan', searched, 3, 1_500, asker);
  const choices: NameChoice[] = close.map((name) => ({ name, customId: idFor(name) }));
  return new NameNotFoundError(key, searched, choices);
}
