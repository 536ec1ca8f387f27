import {
  STATUS_CODES,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { ActivityLog, type ActivityOptions, type SandboxActivity } from './activity.ts';
import { RosterLog, type RosterOptions, type SandboxRosters } from './clans-roster.ts';
import { KpdLog, type SandboxKpd } from './kpd-live.ts';
import { MarketLog, type SandboxMarket } from './market-live.ts';
import { FeaturedMaps, type Latencies, type SandboxContext } from './context.ts';
import { developerRoutes } from './developer.ts';
import { EventStore } from './events.ts';
import { FaultController, addExtraFields, breakFieldType, type Fault } from './faults.ts';
import { gameRoutes } from './game/index.ts';
import { HttpError, Router, type HostName, type Route, type RouteRequest } from './http.ts';
import { toJson } from './json.ts';
import { TokenSigner, type Role, type TokenClaims } from './jwt.ts';
import { KeyRing, type ApiKey, type SandboxKeys } from './keys.ts';
import { legacyRoutes } from './legacy.ts';
import { WorldIndex, addPost } from './lookup.ts';
import { matchmakerRoutes } from './matchmaker.ts';
import { FixedWindows, rateHeaders, retryAfterSec, type WindowRule, type WindowState } from './rate-limit.ts';
import { rankedRoutes } from './ranked.ts';
import { RequestLog } from './request-log.ts';
import { tokenRoutes } from './token.ts';
import { staffRoutes } from './staff.ts';
import { TurfModel } from './turf.ts';
import { generateWorld } from './world/index.ts';
import type { ApiEvent, ApiEventType, World } from './world/types.ts';

export interface SandboxOptions {
  /** Seed of the world and of every random choice; default 1. */
  readonly seed?: number;
  /** General per-key window of the developer API; default 60 per 60 000 ms. */
  readonly rateLimit?: WindowRule;
  /** The events endpoint's own window, on top of the general one; default 6 per 60 000 ms. */
  readonly eventsRateLimit?: WindowRule;
  /** Clock in ms (default `Date.now`): dates, rate windows, token expiry, event retention, turf days. */
  readonly now?: () => number;
  /** Real-time delays of slow endpoints; all 0 by default (`npm run sandbox` sets realistic ones). */
  readonly latency?: Partial<Latencies>;
  /** What waits out those delays and the `delay` fault (default real time): a test gives a manual clock's. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How many players the world has; default 320 (benchmarks ask for more). */
  readonly players?: number;
  /** Address to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Base port (legacy is port + 1, matchmaker port + 2); default 0: three ephemeral ports. */
  readonly port?: number;
  /** Scheduled players finish a ranked match every `everyMs` of the clock (`npm run demo`); default off. */
  readonly activity?: ActivityOptions;
  /** A clan's roster changes every `everyMs` of the clock (`npm run demo`'s clan log); default off. */
  readonly rosters?: RosterOptions;
}

export interface SandboxUrls {
  readonly base: string;
  readonly legacy: string;
  readonly matchmaker: string;
}

export interface IssueTokenOptions {
  readonly playerName: string;
  /** Seconds until expiry, default 86 400; 0 or less makes an already expired token. */
  readonly expiresInSec?: number;
  readonly roles?: readonly Role[];
}

export interface Sandbox {
  readonly urls: SandboxUrls;
  readonly keys: SandboxKeys;
  /** Signs an access token for a player of the world (throws for an unknown name). */
  issueToken(options: IssueTokenOptions): string;
  /** The live world: the activity log swaps the records it changes (players, clans, matches, ranked). */
  readonly world: World;
  readonly events: {
    /** Appends an event (and features or unfeatures the map); throws for an unknown or hidden map id. */
    publish(type: ApiEventType, mapId: number): ApiEvent;
    all(): readonly ApiEvent[];
  };
  readonly posts: {
    /** A player posts on their profile now (how `/link verify` finds its code); throws for an unknown name. */
    add(playerName: string, text: string): void;
  };
  /** Ranked matches, level-ups and clan changes, visible at once through every route. */
  readonly activity: SandboxActivity;
  /** Roles, owners, scores and names of clan members, visible at once through every route. */
  readonly rosters: SandboxRosters;
  /** New listings: a skin's lowest price moves (what price alerts watch). */
  readonly market: SandboxMarket;
  /** New KPD calls and their reviews, as `/api/kpd/latest-calls` lists them. */
  readonly kpd: SandboxKpd;
  readonly faults: FaultController;
  readonly requests: RequestLog;
  close(): Promise<void>;
}

const DEFAULT_RULE: WindowRule = { limit: 60, windowMs: 60_000 };
const DEFAULT_EVENTS_RULE: WindowRule = { limit: 6, windowMs: 60_000 };
const DAY_SECONDS = 86_400;

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function errorBody(host: HostName, error: HttpError): unknown {
  return host === 'base'
    ? { data: null, error: error.message, ...error.extra }
    : { error: error.message, ...error.extra };
}

function successBody(host: HostName, data: unknown): unknown {
  return host === 'base' ? { data, error: null } : host === 'legacy' ? { data } : data;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const world = generateWorld(seed, now(), options.players);
  const index = new WorldIndex(world);
  const activity = new ActivityLog(world, index, now, options.activity);
  const rosters = new RosterLog(world, index, activity, now, options.rosters);
  const featured = new FeaturedMaps(world.maps);
  const eventStore = new EventStore(world.events, seed);
  const keyRing = new KeyRing(seed);
  const faults = new FaultController();
  const requests = new RequestLog();
  const general = new FixedWindows(options.rateLimit ?? DEFAULT_RULE);
  const eventsWindows = new FixedWindows(options.eventsRateLimit ?? DEFAULT_EVENTS_RULE);
  const closing = new AbortController();

  const sleep = (ms: number): Promise<void> => {
    if (closing.signal.aborted) return Promise.reject(new Error('sandbox closed'));
    if (ms <= 0) return Promise.resolve();
    if (options.sleep) return options.sleep(ms, closing.signal);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new Error('sandbox closed'));
      };
      const timer = setTimeout(() => {
        closing.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      closing.signal.addEventListener('abort', onAbort, { once: true });
    });
  };

  const ctx: SandboxContext = {
    world,
    index,
    turf: new TurfModel(world, index, now),
    events: eventStore,
    featured,
    latency: {
      marketSkinColdMs: options.latency?.marketSkinColdMs ?? 0,
      marketSkinWarmMs: options.latency?.marketSkinWarmMs ?? 0,
      topPlayersMs: options.latency?.topPlayersMs ?? 0,
    },
    sleep,
    warmSkins: new Set(),
  };
  const routers: Record<HostName, Router> = {
    base: new Router([...developerRoutes(ctx), ...gameRoutes(ctx), ...tokenRoutes(ctx), ...staffRoutes(ctx)]),
    legacy: new Router([...legacyRoutes(world, index, featured), ...rankedRoutes(ctx)]),
    matchmaker: new Router(matchmakerRoutes(world)),
  };
  const signer = new TokenSigner();

  /** Counts the request in the key's windows, or refuses it with a 429; returns the reply's headers. */
  const rateLimit = (key: ApiKey, route: Route, nowMs: number): Record<string, string> => {
    const refuse = (state: WindowState): HttpError =>
      new HttpError(
        429,
        'Rate limit exceeded',
        { retry_after: retryAfterSec(state, nowMs) },
        rateHeaders(state),
      );
    const generalState = general.peek(key.value, nowMs);
    if (generalState.exhausted) throw refuse(generalState);
    if (route.eventsWindow === true) {
      const eventsState = eventsWindows.peek(key.value, nowMs);
      if (eventsState.exhausted) throw refuse(eventsState);
      general.take(key.value, nowMs);
      return rateHeaders(eventsWindows.take(key.value, nowMs));
    }
    return rateHeaders(general.take(key.value, nowMs));
  };

  const authenticate = (bearer: string | undefined, nowMs: number): TokenClaims => {
    if (bearer === undefined) {
      throw new HttpError(401, 'Access token required');
    }
    const verified = signer.verify(bearer, Math.floor(nowMs / 1000));
    if (!verified.ok) {
      throw new HttpError(401, verified.reason === 'expired' ? 'Token expired' : 'Invalid token');
    }
    return verified.claims;
  };

  const handle = async (host: HostName, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = now();
    activity.advance(at);
    rosters.advance(at);
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    const query = url.searchParams;
    const keyHeader = header(req, 'x-developer-api-key');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '')?.[1];
    const method = req.method ?? 'GET';
    const log = (status: number): void => {
      requests.record({
        host,
        method,
        path,
        query: Object.fromEntries(query),
        keyPresent: keyHeader !== undefined && keyHeader !== '',
        bearerPresent: bearer !== undefined,
        status,
        at,
      });
    };
    const send = (status: number, body: string, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      res.end(body);
      log(status);
    };
    const refuse = (error: HttpError, headers: Record<string, string> = {}): void =>
      send(error.status, toJson(errorBody(host, error)), headers);

    if (method !== 'GET') {
      refuse(new HttpError(405, 'Method not allowed'), { Allow: 'GET' });
      return;
    }

    let dataFault: Fault | undefined;
    const fault = faults.take(path);
    switch (fault?.kind) {
      case 'reset':
        req.socket.destroy();
        log(0);
        return;
      case 'status':
        refuse(new HttpError(fault.status, STATUS_CODES[fault.status] ?? 'Error'));
        return;
      case 'rateLimit': {
        const rule = path === '/api/events' ? eventsWindows.rule : general.rule;
        refuse(new HttpError(429, 'Rate limit exceeded', { retry_after: fault.retryAfterSec }), {
          'X-RateLimit-Limit': String(rule.limit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Math.ceil(at / 1000) + fault.retryAfterSec),
        });
        return;
      }
      case 'malformed':
        send(200, host === 'matchmaker' ? '{"games": [["' : '{"data": {"truncat');
        return;
      case 'delay':
        await sleep(fault.ms);
        break;
      case 'extraFields':
      case 'wrongType':
        dataFault = fault;
        break;
      case undefined:
        break;
    }

    const matched = routers[host].match(path);
    if (!matched) {
      refuse(new HttpError(404, 'Not found'));
      return;
    }
    const { route, params } = matched;
    const nowMs = now();
    let headers: Record<string, string> = {};
    try {
      let key: ApiKey | undefined;
      let claims: TokenClaims | undefined;
      if (route.tier === 'developer') {
        key = keyRing.find(keyHeader);
        if (!key) throw new HttpError(403, 'Not allowed.');
        headers = rateLimit(key, route, nowMs);
      } else if (route.tier === 'token' || route.tier === 'ranked') {
        claims = authenticate(bearer, nowMs);
      }
      const request: RouteRequest = { params, query, nowMs, key, claims };
      let data = await route.handler(request);
      if (dataFault?.kind === 'extraFields') data = addExtraFields(data);
      if (dataFault?.kind === 'wrongType') data = breakFieldType(data, dataFault.field);
      send(200, toJson(successBody(host, data)), headers);
    } catch (error) {
      if (closing.signal.aborted) {
        req.socket.destroy();
        return;
      }
      if (error instanceof HttpError) {
        refuse(error, { ...headers, ...error.headers });
      } else {
        refuse(new HttpError(500, 'Internal server error'), headers);
      }
    }
  };

  const host = options.host ?? '127.0.0.1';
  const servers = {} as Record<HostName, Server>;
  const hosts: readonly HostName[] = ['base', 'legacy', 'matchmaker'];
  const ports = {} as Record<HostName, number>;
  try {
    for (const [offset, name] of hosts.entries()) {
      const server = createServer((req, res) => {
        res.on('error', () => undefined);
        handle(name, req, res).catch(() => {
          if (!res.headersSent) res.destroy();
        });
      });
      servers[name] = server;
      ports[name] = await listen(
        server,
        host,
        options.port === undefined || options.port === 0 ? 0 : options.port + offset,
      );
    }
  } catch (error) {
    closing.abort();
    await Promise.all(Object.values(servers).map(closeServer));
    throw error;
  }
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const urls: SandboxUrls = {
    base: `http://${urlHost}:${ports.base}`,
    legacy: `http://${urlHost}:${ports.legacy}`,
    matchmaker: `http://${urlHost}:${ports.matchmaker}`,
  };

  let closed: Promise<void> | undefined;
  return {
    urls,
    keys: keyRing.values,
    world,
    activity,
    rosters,
    market: new MarketLog(world, index, now),
    kpd: new KpdLog(world, index, now),
    faults,
    requests,
    issueToken({ playerName, expiresInSec = DAY_SECONDS, roles = [] }: IssueTokenOptions): string {
      const player = index.player(playerName);
      if (!player) throw new Error(`the sandbox world has no player named ${JSON.stringify(playerName)}`);
      const iat = Math.floor(now() / 1000);
      return signer.sign({
        sub: String(player.id),
        name: player.name,
        roles: [...roles],
        iat,
        exp: iat + expiresInSec,
      });
    },
    events: {
      publish(type: ApiEventType, mapId: number): ApiEvent {
        const map = index.mapById(mapId);
        if (!map) throw new Error(`the sandbox world has no visible map with id ${mapId}`);
        const atMs = now();
        featured.set(map.id, type === 'map.featured', atMs);
        return eventStore.publish(type, map, atMs);
      },
      all: () => eventStore.all(),
    },
    posts: { add: (playerName: string, text: string) => addPost(index, now(), playerName, text) },
    close(): Promise<void> {
      closed ??= (async () => {
        closing.abort();
        await Promise.all(hosts.map((name) => closeServer(servers[name])));
      })();
      return closed;
    },
  };
}
