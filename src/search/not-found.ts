import { NotFoundError } from '../api/errors.ts';
import type { Loader } from '../discord/command.ts';
import type { NameKind } from '../names/index.ts';
import { NameNotFoundError, type NameChoice } from '../render/suggest.ts';
import { nameSearchOf, type SearchAsker, type SearchServices } from './index.ts';

/**
 * The one path every command that takes a name resolves it through: a context whose `load`, when the API
 * answers 404 for a name it looked up, tries again before giving up, and then gives up helpfully.
 *
 * 1. The name as typed (the command's own call).
 * 2. For players and mods (whose lookups the game does by exact spelling), the spelling of the same name
 *    in another case: a name seen or published, else a hit of the player search for it. The call is made
 *    again with that spelling; {@link nameFound} tells the command which spelling answered.
 * 3. "Did you mean": a reply naming what was searched, with up to three close names (for players, from the
 *    names seen and the search endpoint; for maps and mods, the names seen and the game's published lists,
 *    `catalog.ts`), each a button whose id `idFor(kind, name)` gives (undefined: no button, e.g. when a
 *    command has nothing to run for one name).
 *
 * Only the routes that look a name up count: a 404 of any other route (an item, a match, a player's entry
 * on a map's board) is left as it is, so it is never mistaken for a missing name.
 */
interface Family {
  readonly kind: NameKind;
  readonly param: 'playerName' | 'mapName' | 'modName';
  readonly routes: ReadonlySet<string>;
  /** Whether the game's lookup is case-sensitive, so another casing is worth a second call. */
  readonly exactCase: boolean;
  readonly key: string;
}

const FAMILIES: readonly Family[] = [
  {
    kind: 'player',
    param: 'playerName',
    routes: new Set([
      'player',
      'gamePlayer',
      'playerMatches',
      'playerInventory',
      'playerListings',
      'playerPosts',
    ]),
    exactCase: true,
    key: 'common:notFound.player',
  },
  {
    kind: 'map',
    param: 'mapName',
    routes: new Set(['map', 'mapLeaderboard', 'mapByName', 'mapByNameLeaderboard']),
    // The spec observes map lookups to ignore case.
    exactCase: false,
    key: 'common:notFound.map',
  },
  {
    kind: 'mod',
    param: 'modName',
    routes: new Set(['mod', 'modByName']),
    exactCase: true,
    key: 'common:notFound.mod',
  },
];

/** The interaction's user and server, when the context has one (whose share of the search budget it is). */
interface Asking {
  readonly interaction?: { readonly user: { readonly id: string }; readonly guildId: string | null };
}

type Resolving = Loader & { readonly services: SearchServices & NameMemory } & Asking;

interface NameMemory {
  readonly names: { remember(kind: NameKind, ...names: string[]): void };
}

/** The spellings that answered in place of the typed ones, per context `findingNames` made. */
const FOUND = new WeakMap<object, Map<string, string>>();

/**
 * The context that resolves names as described above; `idFor(kind, name)` gives a "did you mean" button's
 * custom id.
 */
export function findingNames<C extends Resolving>(
  ctx: C,
  idFor: (kind: NameKind, name: string) => string | undefined,
): C {
  const found = new Map<string, string>();
  const load: Loader['load'] = async (route, params, options) => {
    try {
      return await ctx.load(route, params, options);
    } catch (error) {
      const family = error instanceof NotFoundError ? familyOf(route) : undefined;
      const searched = family && nameOf(params, family.param);
      if (family === undefined || searched === undefined) throw error;
      const asker = askerOf(ctx);
      const other = family.exactCase
        ? await nameSearchOf(ctx.services).otherCasing(family.kind, searched, 1_500, asker)
        : undefined;
      if (other !== undefined) {
        try {
          const value = await ctx.load(route, { ...params, [family.param]: other }, options);
          found.set(searched, other);
          ctx.services.names.remember(family.kind, other);
          return value;
        } catch (again) {
          if (!(again instanceof NotFoundError)) throw again;
        }
      }
      throw await nameNotFound(ctx.services, family, searched, (name) => idFor(family.kind, name), asker);
    }
  };
  const resolving = { ...ctx, load };
  FOUND.set(resolving, found);
  return resolving;
}

/** The spelling that answered for `typed` in this context (another case of it), or `typed` itself. */
export function nameFound(ctx: object, typed: string): string {
  return FOUND.get(ctx)?.get(typed) ?? typed;
}

/** {@link findingNames} for a command whose buttons run it for a player. */
export function suggestPlayersOnNotFound<C extends Resolving>(
  ctx: C,
  idFor: (name: string) => string | undefined,
): C {
  return findingNames(ctx, (kind, name) => (kind === 'player' ? idFor(name) : undefined));
}

function familyOf(route: string): Family | undefined {
  return FAMILIES.find((family) => family.routes.has(route));
}

function askerOf(ctx: Asking): SearchAsker | undefined {
  return ctx.interaction && { user: ctx.interaction.user.id, guild: ctx.interaction.guildId };
}

async function nameNotFound(
  services: SearchServices,
  family: Family,
  searched: string,
  idFor: (name: string) => string | undefined,
  asker: SearchAsker | undefined,
): Promise<NameNotFoundError> {
  const close = await nameSearchOf(services).didYouMean(family.kind, searched, 3, 1_500, asker);
  const choices: NameChoice[] = close.map((name) => ({ name, customId: idFor(name) }));
  return new NameNotFoundError(family.key, searched, choices);
}

function nameOf(params: unknown, param: Family['param']): string | undefined {
  if (typeof params !== 'object' || params === null || !(param in params)) return undefined;
  const name = (params as Readonly<Record<string, unknown>>)[param];
  return typeof name === 'string' ? name : undefined;
}

/**
 * The error for a clan the API does not know. Clan names are exact in the spec (capitals, spaces and
 * symbols count), so `key` should say so; the close names are those the bot has seen and those the game
 * publishes (the clan boards), and a name that differs from the one asked only in case is among them (it
 * is the likeliest slip).
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
