import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { TierClient } from './client.ts';
import { ApiError, LocalRefusalError, type ApiErrorKind } from './errors.ts';
import type { Host, RouteDef, Tier } from './route.ts';
import { routes, type RouteName } from './routes/index.ts';

/**
 * `npm run --silent api -- <dev|game|token|legacy|matchmaker> <path> [--query k=v ...] [--token-file F]`
 *
 * Sends one request through the same client as the bot (same checks, auth, retries, schemas) and
 * prints the validated reply as JSON. The path is matched against the route table, so a path that no
 * route knows is refused without a request.
 */
export const EXIT = {
  ok: 0,
  usage: 1,
  refusedLocally: 2,
  notFound: 3,
  denied: 4,
  rateLimited: 5,
  upstream: 6,
  invalidReply: 7,
} as const;

const EXIT_BY_KIND: Record<ApiErrorKind, number> = {
  refused_locally: EXIT.refusedLocally,
  bad_request: EXIT.usage,
  not_found: EXIT.notFound,
  unauthorized: EXIT.denied,
  forbidden: EXIT.denied,
  rate_limited: EXIT.rateLimited,
  upstream: EXIT.upstream,
  timeout: EXIT.upstream,
  invalid_reply: EXIT.invalidReply,
};

const TIERS: Record<string, { host: Host; tiers: readonly Tier[] }> = {
  dev: { host: 'base', tiers: ['developer'] },
  game: { host: 'base', tiers: ['game'] },
  token: { host: 'base', tiers: ['token'] },
  legacy: { host: 'legacy', tiers: ['game', 'token'] },
  matchmaker: { host: 'matchmaker', tiers: ['game'] },
};

export const USAGE = `usage: npm run --silent api -- <dev|game|token|legacy|matchmaker> <path> [--query k=v ...] [--token-file F]

  dev         developer API on GAME_API_URL (sends GAME_API_KEY)
  game        game API on GAME_API_URL (no credentials)
  token       token API on GAME_API_URL (the access token in --token-file)
  legacy      GAME_LEGACY_URL (ranked-system paths need --token-file)
  matchmaker  GAME_MATCHMAKER_URL

exit codes: 0 success, 1 usage or parameter rejected by the service, 2 refused locally (no request sent),
            3 not found, 4 unauthorized or forbidden, 5 rate limited, 6 upstream error or timeout,
            7 reply failed validation`;

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export interface MatchedRoute {
  readonly name: RouteName;
  readonly params: Record<string, unknown>;
}

/** Finds the route a raw path belongs to; literal segments win over placeholders (`/players/search`). */
export function matchRoute(host: Host, tiers: readonly Tier[], path: string): MatchedRoute | undefined {
  const candidates = (Object.entries(routes) as Array<[RouteName, RouteDef]>)
    .filter(([, route]) => route.host === host && tiers.includes(route.tier))
    .map(([name, route]) => ({ name, route, holes: (route.path.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.holes - b.holes);
  const cleanPath = path.replace(/\/+$/, '') || '/';
  for (const { name, route } of candidates) {
    const keys: string[] = [];
    const pattern = route.path
      .split(/(\{\w+\})/)
      .map((part) => {
        const hole = /^\{(\w+)\}$/.exec(part);
        if (!hole?.[1]) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        keys.push(hole[1]);
        return '([^/]+)';
      })
      .join('');
    const found = new RegExp(`^${pattern}$`).exec(cleanPath);
    if (!found) continue;
    const params: Record<string, unknown> = {};
    keys.forEach((key, index) => (params[key] = decodeURIComponent(found[index + 1] ?? '')));
    return { name, params };
  }
  return undefined;
}

/**
 * Command-line values are text; the route's parameter schema decides their types. A value that fails
 * as text is tried as a number, a boolean, then a comma-separated list, one field at a time.
 */
export function coerceParams(route: RouteDef, raw: Record<string, unknown>): Record<string, unknown> {
  const params = { ...raw };
  for (let round = 0; round < 4; round += 1) {
    const result = route.params.safeParse(params);
    if (result.success) return params;
    const failing = new Set(result.error.issues.map((issue) => String(issue.path[0] ?? '')));
    let changed = false;
    for (const field of failing) {
      const value = raw[field];
      if (typeof value !== 'string') continue;
      for (const candidate of candidatesFor(value)) {
        const trial = route.params.safeParse({ ...params, [field]: candidate });
        const stillFailing = !trial.success && trial.error.issues.some((issue) => issue.path[0] === field);
        if (!stillFailing) {
          params[field] = candidate;
          changed = true;
          break;
        }
      }
    }
    if (!changed) break;
  }
  return params;
}

function candidatesFor(value: string): unknown[] {
  const out: unknown[] = [];
  if (/^-?\d+(\.\d+)?$/.test(value)) out.push(Number(value));
  if (value === 'true' || value === 'false') out.push(value === 'true');
  const items = value.split(',');
  out.push(items.every((item) => /^-?\d+$/.test(item)) ? items.map(Number) : items);
  return out;
}

export interface CliContext {
  readonly client: TierClient;
  readonly io: CliIo;
}

export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const { io } = context;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        query: { type: 'string', multiple: true, short: 'q' },
        'token-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const [tierName, path] = parsed.positionals;
  if (parsed.values.help || !tierName || !path || parsed.positionals.length > 2) {
    io.err(USAGE);
    return parsed.values.help ? EXIT.ok : EXIT.usage;
  }
  const target = TIERS[tierName];
  if (!target) {
    io.err(`unknown tier "${tierName}"\n${USAGE}`);
    return EXIT.usage;
  }

  const [pathOnly = '', inlineQuery = ''] = path.split('?', 2);
  const matched = matchRoute(target.host, target.tiers, pathOnly);
  if (!matched) {
    io.err(`refused locally: no ${tierName} route matches ${pathOnly}`);
    return EXIT.refusedLocally;
  }
  const route: RouteDef = routes[matched.name];

  const wireToParam = new Map(Object.entries(route.query ?? {}).map(([param, wire]) => [wire, param]));
  const pairs = [...new URLSearchParams(inlineQuery)].concat(
    (parsed.values.query ?? []).map((pair): [string, string] => {
      const at = pair.indexOf('=');
      return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const raw: Record<string, unknown> = { ...matched.params };
  for (const [wire, value] of pairs) {
    const param = wireToParam.get(wire) ?? (route.query && wire in route.query ? wire : undefined);
    if (param === undefined) {
      io.err(`refused locally: ${matched.name} takes no query parameter "${wire}"`);
      return EXIT.refusedLocally;
    }
    raw[param] = value;
  }

  let token: string | undefined;
  const tokenFile = parsed.values['token-file'];
  if (tokenFile !== undefined) {
    try {
      token = (await readFile(tokenFile, 'utf8')).trim();
    } catch {
      io.err(`cannot read the token file ${tokenFile}`);
      return EXIT.usage;
    }
  }

  try {
    const reply = await context.client.call(matched.name, coerceParams(route, raw), token ? { token } : {});
    io.out(JSON.stringify(reply, null, 2));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ApiError) {
      const fields = error instanceof LocalRefusalError ? ` (${error.fields.join(', ')})` : '';
      io.err(`${error.kind}${fields}: ${error.message}`);
      return EXIT_BY_KIND[error.kind];
    }
    throw error;
  }
}
