import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { pino } from 'pino';
import { ANNOUNCEMENT_KINDS, KindRegistry } from '../src/kinds.ts';
import type { AnnouncementEvent } from '../src/announcements/model.ts';
import { InboxRepository, openRepositories } from '../src/announcements/repositories.ts';
import { Inbox } from '../src/announcements/inbox.ts';
import type { SourceRun } from '../src/announcements/sources.ts';
import { TierClient } from '../src/api/client.ts';
import { defaultRetryPolicy } from '../src/api/retry.ts';
import {
  TransportFailure,
  type HttpRequest,
  type HttpResponse,
  type Transport,
} from '../src/api/transport.ts';
import type { Config } from '../src/config/index.ts';
import type { Clock } from '../src/core/clock.ts';
import { openDatabase, type Database } from '../src/db/index.ts';
import { mulberry32 } from '../src/dev/sandbox/prng.ts';
import { followCapacity } from '../src/traffic/capacity.ts';
import { PlayersFeed, type FollowSettings } from '../src/features/tracking/feed.ts';
import { planTargets } from '../src/players/follow-plan.ts';
import { planBackground, type BackgroundPlan } from '../src/traffic/planner.ts';
import { TRACK_CLAN_EVENT, TRACK_LEVEL_EVENT, TRACK_MATCH_EVENT } from '../src/features/tracking/events.ts';
import { captureSnapshots } from '../src/players/capture.ts';
import { createMemoryLimits } from '../src/traffic/index.ts';
import { BackgroundScheduler } from '../src/traffic/scheduler.ts';
import { createStore } from '../src/store/index.ts';
import type { Figures } from './client.ts';
import { demandReader } from '../src/demand.ts';

/**
 * The players feed tracking 1,000 players for 300 servers through one developer key (60 requests in any
 * 60 s), in simulated time: the feed polled as the worker's source loop polls it (every 30 s, spreading
 * over 15 s), a steady load of `player` commands meanwhile, and an in-memory game API behind the real tier
 * client and shared limits, which answers each request after 120 simulated ms and refuses (429) what
 * passes its window. Players play ranked matches at seeded random times. The same command load runs once
 * more without tracking, for the commands' latency with and without the feed.
 *
 * The clock moves only when every actor waits on it: database queries (SQLite runs them on its own
 * thread) are counted in flight, and time jumps to the next sleeper only when none is.
 */
const PLAYERS = 1_000;
const SERVERS = 300;
/** Simulated time of each run. */
const RUN_MS = 3 * 3_600_000;
const POLL_MS = 30_000;
const COMMANDS_PER_MINUTE = 10;
const API_LATENCY_MS = 120;
/** A ranked match every 30 to 90 minutes per player. */
const MATCH_GAP_MS = { min: 30 * 60_000, max: 90 * 60_000 };
const KEY_LIMIT = 60;
const WINDOW_MS = 60_000;
const API_KEY = 'kr_bench_follow';
const API_KEY_HEADER = 'X-Developer-API-Key';
const START = Date.UTC(2026, 10, 21, 12, 0, 0);
const SETTINGS: FollowSettings = { trackMinutes: 5, linkedHours: 24 };
const URLS = {
  base: 'https://api.bench.invalid',
  legacy: 'https://legacy.bench.invalid',
  matchmaker: 'https://mm.bench.invalid',
} as const;
const MAPS = [
  { id: 1, name: 'Burg' },
  { id: 2, name: 'Sandstorm' },
  { id: 3, name: 'Site' },
  { id: 4, name: 'Industry' },
];
/** Matches kept per player (page 1 shows the newest of them). */
const KEPT_MATCHES = 20;
/** Bounds on the driving loop: clock steps, and real time waiting for the database to go quiet. */
const MAX_STEPS = 2_000_000;
/** The feed's warning when one refresh fails (the poll goes on with the next player). */
const FAILED_REFRESH = 'could not refresh a followed player';
const QUIET_TIMEOUT_MS = 10_000;
/** The first look at 1,000 new players takes about this long: figures before and after it are apart. */
const FIRST_PASS_MS = 30 * 60_000;

// ---------------------------------------------------------------------------------------------------
// The world: players and their ranked matches

interface Standing {
  region: number;
  mmr: number;
  wins: number;
  losses: number;
  kills: number;
  deaths: number;
  assists: number;
  score: number;
}

interface Match {
  readonly id: string;
  readonly at: number;
  readonly map: number;
  readonly region: number;
  readonly kills: number;
  readonly deaths: number;
  readonly assists: number;
  readonly score: number;
  readonly victory: number;
}

interface Player {
  readonly id: number;
  readonly name: string;
  level: number;
  kills: number;
  deaths: number;
  score: number;
  games: number;
  wins: number;
  clan: string;
  readonly ranked: Standing[];
  /** Played, oldest first (the newest `KEPT_MATCHES`). */
  readonly matches: Match[];
  /** When its next matches are played, ascending. */
  readonly schedule: readonly number[];
  next: number;
}

const CLANS = ['', 'VOID', 'NOVA', 'ACE', 'LYNX', 'ORCA'];

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

class World {
  readonly players: Player[] = [];
  readonly #byName = new Map<string, Player>();
  readonly #random: () => number;
  /** When each match was played, by id (what an announcement's delay is measured from). */
  readonly playedAt = new Map<string, number>();
  /** Matches played, with their player (for what was never announced). */
  readonly played: Array<{ readonly player: Player; readonly at: number; readonly id: string }> = [];
  #matchSeq = 0;

  constructor(seed: number) {
    this.#random = mulberry32(seed);
    const random = this.#random;
    for (let index = 0; index < PLAYERS; index += 1) {
      const regions = random() < 0.3 ? [2, 3] : [pick([2, 3, 4], random)];
      const schedule: number[] = [];
      // The first match falls anywhere in the first gap: players are not in step.
      let at = START + random() * MATCH_GAP_MS.max;
      while (at < START + RUN_MS * 2) {
        schedule.push(Math.round(at));
        at += MATCH_GAP_MS.min + random() * (MATCH_GAP_MS.max - MATCH_GAP_MS.min);
      }
      const player: Player = {
        id: 100_000 + index,
        name: `Tracked${String(index).padStart(4, '0')}`,
        level: 10 + Math.floor(random() * 80),
        kills: 1_000 + Math.floor(random() * 50_000),
        deaths: 1_000 + Math.floor(random() * 40_000),
        score: Math.floor(random() * 5_000_000),
        games: 100 + Math.floor(random() * 3_000),
        wins: 50 + Math.floor(random() * 1_500),
        clan: pick(CLANS, random),
        ranked: regions.map((region) => ({
          region,
          mmr: 800 + Math.floor(random() * 1_400),
          wins: Math.floor(random() * 60),
          losses: Math.floor(random() * 60),
          kills: Math.floor(random() * 3_000),
          deaths: Math.floor(random() * 3_000),
          assists: Math.floor(random() * 1_000),
          score: Math.floor(random() * 200_000),
        })),
        matches: [],
        schedule,
        next: 0,
      };
      this.players.push(player);
      this.#byName.set(player.name.toLowerCase(), player);
    }
  }

  /** The player as it stands at `now` (matches played since the last look are played now, in order). */
  at(name: string, now: number): Player | undefined {
    const player = this.#byName.get(name.toLowerCase());
    if (!player) return undefined;
    for (let at = player.schedule[player.next]; at !== undefined && at <= now;) {
      this.#play(player, at);
      player.next += 1;
      at = player.schedule[player.next];
    }
    return player;
  }

  #play(player: Player, at: number): void {
    const random = this.#random;
    const standing = pick(player.ranked, random);
    const victory = random() < 0.5 ? 1 : 0;
    const kills = Math.floor(random() * 30);
    const deaths = Math.floor(random() * 25);
    const assists = Math.floor(random() * 10);
    const score = 500 + Math.floor(random() * 4_000);
    this.#matchSeq += 1;
    // Ids past 2^53, as the game's are: they travel as digit strings.
    const id = String(9_007_199_254_740_993n + BigInt(this.#matchSeq) * 7n);
    const match = {
      id,
      at,
      map: pick(MAPS, random).id,
      region: standing.region,
      kills,
      deaths,
      assists,
      score,
      victory,
    };
    player.matches.push(match);
    if (player.matches.length > KEPT_MATCHES) player.matches.shift();
    if (victory === 1) standing.wins += 1;
    else standing.losses += 1;
    standing.mmr += victory === 1 ? 10 + Math.floor(random() * 15) : -(10 + Math.floor(random() * 15));
    standing.kills += kills;
    standing.deaths += deaths;
    standing.assists += assists;
    standing.score += score;
    player.kills += kills;
    player.deaths += deaths;
    player.score += score;
    player.games += 1;
    player.wins += victory;
    if (random() < 0.25) player.level += 1;
    if (random() < 0.03) player.clan = pick(CLANS, random);
    this.playedAt.set(id, at);
    this.played.push({ player, at, id });
  }
}

function profileOf(player: Player): unknown {
  return {
    player_id: player.id,
    player_name: player.name,
    level: player.level,
    kills: player.kills,
    deaths: player.deaths,
    score: player.score,
    games: player.games,
    wins: player.wins,
    losses: player.games - player.wins,
    clan: player.clan,
    ranked: player.ranked.map((standing) => ({ ...standing, damage_done: standing.score * 3 })),
  };
}

function matchesOf(player: Player): unknown {
  return {
    page: 1,
    per_page: KEPT_MATCHES,
    matches: [...player.matches].reverse().map((match) => ({
      match_id: match.id,
      date: new Date(match.at).toISOString(),
      map: match.map,
      season: 7,
      region: match.region,
      kills: match.kills,
      deaths: match.deaths,
      assists: match.assists,
      score: match.score,
      victory: match.victory,
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// The game API, in memory

/**
 * The game API as a transport: developer paths count in the key's sliding window (60 in any 60 s, an
 * entry counting until 60 s after it, as the shared limits count) and are refused with the service's 429
 * past it; replies come after `API_LATENCY_MS` of clock time.
 */
class FakeGameApi implements Transport {
  /** When each developer request was accepted, in order. */
  readonly accepted: number[] = [];
  refused = 0;
  mapRequests = 0;
  readonly #clock: Clock;
  readonly #world: World;
  #windowStart = 0;

  constructor(clock: Clock, world: World) {
    this.#clock = clock;
    this.#world = world;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const reply = this.#answer(request);
    // The tier client's per-attempt timeout runs on real time, which races the simulated reply time: only
    // the caller's own abort (the end of the run) stops a request here. Replies come long before a timeout.
    const stopped = new AbortController();
    const onAbort = () => {
      const reason: unknown = request.signal.reason;
      if (!(reason instanceof Error && reason.name === 'TimeoutError')) stopped.abort(reason);
    };
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.#clock.sleep(API_LATENCY_MS, stopped.signal);
    } catch (error) {
      throw new TransportFailure('aborted', 'request aborted', { cause: error });
    } finally {
      request.signal.removeEventListener('abort', onAbort);
    }
    return reply;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #answer(request: HttpRequest): HttpResponse {
    const now = this.#clock.now();
    const path = request.url.pathname;
    if (path === '/maps') {
      this.mapRequests += 1;
      return json(200, { data: MAPS, error: null });
    }
    if (!path.startsWith('/api/')) return json(404, { data: null, error: 'Not found' });
    if (request.headers[API_KEY_HEADER] !== API_KEY)
      return json(401, { data: null, error: 'Invalid API key' });
    const window = this.#window(now);
    if (window.count >= KEY_LIMIT) {
      this.refused += 1;
      const retryAfter = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      return json(
        429,
        { data: null, error: 'Rate limit exceeded', retry_after: retryAfter },
        rateHeaders(0, window.resetAt),
      );
    }
    this.accepted.push(now);
    // Accepted replies carry no X-RateLimit-* headers: a sliding window has no reset time that the tier
    // client's fixed-window reading would take rightly, and these figures are about the shared limits.
    const match = /^\/api\/player\/([^/]+)(\/matches)?$/.exec(path);
    const player = match ? this.#world.at(decodeURIComponent(match[1] ?? ''), now) : undefined;
    if (!match || !player) return json(404, { data: null, error: 'Player not found' });
    if (match[2] === undefined) return json(200, { data: profileOf(player), error: null });
    // Page 1 only: the feed never reads further.
    const page = Number(request.url.searchParams.get('page') ?? '1');
    const data = page === 1 ? matchesOf(player) : { page, per_page: KEPT_MATCHES, matches: [] };
    return json(200, { data, error: null });
  }

  /** Requests within the window ending now, and when the oldest of them leaves it. */
  #window(now: number): { count: number; resetAt: number } {
    while (
      this.#windowStart < this.accepted.length &&
      (this.accepted[this.#windowStart] ?? 0) <= now - WINDOW_MS
    )
      this.#windowStart += 1;
    const oldest = this.accepted[this.#windowStart];
    return { count: this.accepted.length - this.#windowStart, resetAt: (oldest ?? now) + WINDOW_MS };
  }
}

function rateHeaders(remaining: number, resetAt: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(KEY_LIMIT),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
  };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, text: JSON.stringify(body) };
}

// ---------------------------------------------------------------------------------------------------
// Driving the clock

/** Database queries under way: the clock may move only when there are none. */
class QueriesInFlight implements KyselyPlugin {
  count = 0;

  transformQuery(args: PluginTransformQueryArgs) {
    this.count += 1;
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs) {
    this.count = Math.max(0, this.count - 1);
    return Promise.resolve(args.result);
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Resolves once no query is under way through two turns of the event loop in a row: every promise chain
 * has then run as far as it can, and whatever still waits, waits on the clock. A failed query is never
 * reported back to the plugin; after `QUIET_TIMEOUT_MS` of real time the wait gives up and says so.
 */
async function quiet(queries: QueriesInFlight): Promise<boolean> {
  const started = Date.now();
  for (let quietTurns = 0; quietTurns < 2;) {
    await nextTurn();
    quietTurns = queries.count === 0 ? quietTurns + 1 : 0;
    if (Date.now() - started > QUIET_TIMEOUT_MS) {
      queries.count = 0;
      return false;
    }
  }
  return true;
}

interface Sleeper {
  readonly at: number;
  readonly seq: number;
  readonly wake: () => void;
}

/**
 * Time that moves only when the driver wakes a sleeper: one at a time, earliest first (ties in the order
 * they fell asleep), so that a run comes out the same every time.
 */
class StepClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  constructor(start: number) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const reason = () => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (signal?.aborted) {
        reject(reason());
        return;
      }
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((sleeper) => sleeper !== entry);
        reject(reason());
      };
      const entry = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#sleepers.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Wakes the earliest sleeper (moving time to it); false when nobody sleeps. */
  wakeNext(): boolean {
    let next: Sleeper | undefined;
    for (const sleeper of this.#sleepers)
      if (!next || sleeper.at < next.at || (sleeper.at === next.at && sleeper.seq < next.seq)) next = sleeper;
    if (!next) return false;
    const woken = next;
    this.#sleepers = this.#sleepers.filter((sleeper) => sleeper !== woken);
    this.#now = Math.max(this.#now, woken.at);
    woken.wake();
    return true;
  }
}

/** Wakes sleeper after sleeper, each once all else is quiet, until `done()` or nobody sleeps. */
async function drive(clock: StepClock, queries: QueriesInFlight, done: () => boolean): Promise<number> {
  let stalls = 0;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (!(await quiet(queries))) stalls += 1;
    if (done() || !clock.wakeNext()) break;
  }
  return stalls;
}

// ---------------------------------------------------------------------------------------------------
// One run

/** Servers and how many players each tracks: a few large ones, some middling, many with one to three. */
function serverSizes(random: () => number): number[] {
  const sizes = [...Array<number>(6).fill(50), ...Array<number>(20).fill(10)];
  const small = SERVERS - sizes.length;
  let left = PLAYERS - sizes.reduce((sum, size) => sum + size, 0);
  for (let index = 0; index < small; index += 1) {
    const room = left - (small - index - 1);
    const size = index === small - 1 ? left : Math.max(1, Math.min(room, 1 + Math.floor(random() * 3)));
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/** `track` subscriptions: every player tracked by one server, and one in ten by a second, small one. */
async function subscribe(repos: ReturnType<typeof openRepositories>, world: World): Promise<number> {
  const random = mulberry32(7);
  const sizes = serverSizes(random);
  const since = START - 60_000;
  const base = { locale: 'en-US', createdBy: '1', since, state: { status: 'active' as const } };
  let next = 0;
  let count = 0;
  const track = async (server: number, player: Player) => {
    // Distinct creation times keep the subscriptions' order (and so the run) the same every time.
    await repos.subscriptions.create({
      ...base,
      createdAt: since - 60_000 + count,
      guildId: `9${String(server).padStart(5, '0')}`,
      channelId: `8${String(server).padStart(5, '0')}`,
      kind: 'track',
      options: { playerId: player.id, playerName: player.name },
    });
    count += 1;
  };
  for (const [server, size] of sizes.entries()) {
    for (let index = 0; index < size; index += 1) {
      const player = world.players[next];
      next += 1;
      if (player) await track(server, player);
    }
  }
  for (let index = 0; index < PLAYERS / 10; index += 1) {
    await track(26 + Math.floor(random() * (SERVERS - 26)), pick(world.players, random));
  }
  return count;
}

/** The inbox, telling `onStored` of each event it stores. */
class TimedInbox extends InboxRepository {
  readonly #onStored: (event: AnnouncementEvent) => void;

  constructor(db: Database, onStored: (event: AnnouncementEvent) => void) {
    super(db);
    this.#onStored = onStored;
  }

  override async accept(event: AnnouncementEvent): Promise<boolean> {
    const accepted = await super.accept(event);
    if (accepted) this.#onStored(event);
    return accepted;
  }
}

/** Every refresh of the followed players, read back from `followed_players` after each poll. */
class Refreshes {
  readonly gaps: number[] = [];
  readonly gapsByKey = new Map<string, number[]>();
  readonly first = new Map<string, number>();
  readonly last = new Map<string, number>();

  async sample(db: Database): Promise<void> {
    const rows = await db.kysely
      .selectFrom('followed_players')
      .select(['name_key', 'refreshed_at', 'gap_ms'])
      .execute();
    for (const row of rows) {
      if (row.refreshed_at === null || this.last.get(row.name_key) === row.refreshed_at) continue;
      this.last.set(row.name_key, row.refreshed_at);
      if (!this.first.has(row.name_key)) this.first.set(row.name_key, row.refreshed_at);
      if (row.gap_ms === null) continue;
      this.gaps.push(row.gap_ms);
      this.gapsByKey.set(row.name_key, [...(this.gapsByKey.get(row.name_key) ?? []), row.gap_ms]);
    }
  }
}

interface Command {
  readonly at: number;
  /** Clock time to its reply; undefined when it failed. */
  readonly ms: number | undefined;
}

interface RunResult {
  readonly commands: readonly Command[];
  readonly commandUpstream: number;
  /** When each refresh failed (the feed's warning), and how many other warnings there were. */
  readonly failedRefreshes: readonly number[];
  readonly otherWarnings: number;
  readonly accepted: readonly number[];
  readonly refused: number;
  readonly mapRequests: number;
  readonly refreshes: Refreshes;
  readonly stored: ReadonlyMap<string, number>;
  /** Clock delay from a match being played to its event being stored, per announced match. */
  readonly matchDelays: readonly number[];
  /** Matches played after their player's first look, and those of them no event announced by the end. */
  readonly playedAfterFirstLook: number;
  readonly unannounced: readonly number[];
  readonly subscriptions: number;
  readonly capacity: number;
  /** The background's plan for the run's subscriptions (the one the feed keeps). */
  readonly plan: BackgroundPlan | undefined;
  /** Each tracked player's size class: the players tracked by the smallest server tracking it. */
  readonly sizeOfKey: ReadonlyMap<string, number>;
  /** Tracked players per server. */
  readonly serverSizes: ReadonlyMap<string, number>;
  readonly polls: number;
  readonly pollErrors: number;
  readonly stalls: number;
  readonly steps: number;
}

function capacityPerMinute(): number {
  const config: Pick<Config, 'game' | 'events'> = {
    game: {
      baseUrl: URLS.base,
      legacyUrl: URLS.legacy,
      matchmakerUrl: URLS.matchmaker,
      apiKey: API_KEY,
      apiKeyHeader: API_KEY_HEADER,
      hostname: 'bench',
    },
    events: { pollSeconds: 30, leaseSeconds: 60 },
  };
  return followCapacity(config);
}

/** A database whose queries are counted in flight (the driver's cue that the clock may move). */
async function countedDatabase(queries: QueriesInFlight): Promise<Database> {
  const opened = await openDatabase('sqlite://:memory:');
  return {
    kind: opened.kind,
    kysely: opened.kysely.withPlugin(queries),
    ping: () => opened.ping(),
    close: () => opened.close(),
  };
}

/** One scenario: commands alone, or commands while the feed tracks every player. */
async function runScenario(tracking: boolean): Promise<RunResult> {
  const clock = new StepClock(START);
  const end = START + RUN_MS;
  const world = new World(42);
  const api = new FakeGameApi(clock, world);
  // The feed's warnings, by message: a refresh that failed is one, and the poll goes on to the next player.
  const failedRefreshes: number[] = [];
  let otherWarnings = 0;
  const log = pino(
    { level: 'warn' },
    {
      write: (line: string) => {
        const { msg } = JSON.parse(line) as { msg?: unknown };
        if (msg === FAILED_REFRESH) failedRefreshes.push(clock.now());
        else otherWarnings += 1;
      },
    },
  );
  const queries = new QueriesInFlight();
  const db = await countedDatabase(queries);
  const store = await createStore('memory://', { purgeIntervalMs: 0 });
  const client = new TierClient({
    urls: URLS,
    apiKey: API_KEY,
    apiKeyHeader: API_KEY_HEADER,
    transport: api,
    clock,
    sharedLimits: createMemoryLimits(clock),
    retryPolicy: { ...defaultRetryPolicy, random: mulberry32(99) },
  });
  const stopCapture = captureSnapshots({ api: client, db, clock, log });

  const stored = new Map<string, number>();
  const matchDelays: number[] = [];
  const announced = new Set<string>();
  const inbox = new TimedInbox(db, (event) => {
    stored.set(event.type, (stored.get(event.type) ?? 0) + 1);
    const matchId =
      event.type === TRACK_MATCH_EVENT ? (event.data as { matchId?: unknown }).matchId : undefined;
    const playedAt = typeof matchId === 'string' ? world.playedAt.get(matchId) : undefined;
    if (typeof matchId !== 'string' || playedAt === undefined) return;
    announced.add(matchId);
    matchDelays.push(clock.now() - playedAt);
  });
  const repos = { ...openRepositories(db, store), inbox };
  const capacity = capacityPerMinute();
  const kinds = new KindRegistry(ANNOUNCEMENT_KINDS);
  const feed = new PlayersFeed({
    api: client,
    inbox: new Inbox(inbox, kinds),
    repos,
    clock,
    log,
    kinds,
    scheduler: new BackgroundScheduler(),
    db,
    demand: demandReader(db),
    enabled: true,
    capacityPerMinute: capacity,
    settings: SETTINGS,
  });
  const subscriptionCount = tracking ? await subscribe(repos, world) : 0;
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;
  const run: SourceRun = {
    subscriptions: tracking ? await repos.subscriptions.active() : [],
    signal: stopping.signal,
    // The events stay in the inbox: this measures reading the game API, not posting.
    deliver: () => Promise.resolve(),
    spreadMs: POLL_MS / 2,
  };
  const plan = tracking ? await feed.plan(run.subscriptions) : undefined;
  const serverSizes = new Map<string, number>();
  for (const subscription of run.subscriptions)
    serverSizes.set(subscription.guildId, (serverSizes.get(subscription.guildId) ?? 0) + 1);
  const sizeOfKey = new Map<string, number>();
  for (const subscription of run.subscriptions) {
    const key = String(subscription.options.playerName).toLowerCase();
    const size = serverSizes.get(subscription.guildId) ?? 0;
    sizeOfKey.set(key, Math.min(sizeOfKey.get(key) ?? Infinity, size));
  }

  // The worker's source loop: a poll every interval (a long one is followed by the next one sooner).
  const refreshes = new Refreshes();
  let polls = 0;
  let pollErrors = 0;
  const sourceLoop = async () => {
    while (!stopped()) {
      const begun = clock.now();
      try {
        await feed.poll(run);
        polls += 1;
      } catch {
        if (!stopped()) pollErrors += 1;
      }
      await refreshes.sample(db);
      const waitMs = Math.max(POLL_MS / 10, POLL_MS - (clock.now() - begun));
      await clock.sleep(waitMs, stopping.signal).catch(() => undefined);
    }
  };

  // Commands: about ten a minute, each on a player drawn at random, timed on the clock.
  const commands: Command[] = [];
  let commandUpstream = 0;
  let commandsRunning = 0;
  const commandRandom = mulberry32(1_234);
  const command = async (playerName: string) => {
    const at = clock.now();
    commandsRunning += 1;
    try {
      await client.call(
        'player',
        { playerName },
        { priority: 'interactive', onAttempt: () => (commandUpstream += 1) },
      );
      commands.push({ at, ms: clock.now() - at });
    } catch {
      commands.push({ at, ms: undefined });
    } finally {
      commandsRunning -= 1;
    }
  };
  const commandLoop = async () => {
    const meanGapMs = 60_000 / COMMANDS_PER_MINUTE;
    while (clock.now() < end) {
      await clock.sleep(Math.round(meanGapMs * (0.5 + commandRandom())));
      if (clock.now() >= end) break;
      void command(pick(world.players, commandRandom).name);
    }
  };

  let loopsRunning = 0;
  const start = (work: () => Promise<void>) => {
    loopsRunning += 1;
    void work().finally(() => (loopsRunning -= 1));
  };
  if (tracking) start(sourceLoop);
  start(commandLoop);
  // The end of the run: the source loop stops (its poll is aborted), commands under way finish.
  const ended = clock.sleep(RUN_MS).then(() => stopping.abort());
  let steps = 0;
  const stalls = await drive(clock, queries, () => {
    steps += 1;
    return stopped() && loopsRunning === 0 && commandsRunning === 0;
  });
  await ended;

  // Matches are played when someone asks; those nobody has asked about yet are played now.
  for (const player of world.players) world.at(player.name, end);
  const playedAfterFirstLook = world.played.filter((match) => {
    const first = refreshes.first.get(match.player.name.toLowerCase());
    return first !== undefined && match.at > first && match.at <= end;
  });
  stopCapture();
  await client.close();
  await db.close();
  await store.close();
  return {
    commands,
    commandUpstream,
    failedRefreshes,
    otherWarnings,
    accepted: api.accepted.filter((at) => at < end),
    refused: api.refused,
    mapRequests: api.mapRequests,
    refreshes,
    stored,
    matchDelays,
    playedAfterFirstLook: playedAfterFirstLook.length,
    unannounced: playedAfterFirstLook.filter((match) => !announced.has(match.id)).map((match) => match.at),
    subscriptions: subscriptionCount,
    capacity,
    plan,
    sizeOfKey,
    serverSizes,
    polls,
    pollErrors,
    stalls,
    steps,
  };
}

// ---------------------------------------------------------------------------------------------------
// Figures

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function busiest(times: readonly number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while ((times[i] ?? 0) - (times[j] ?? 0) >= windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

const minutes = (ms: number) => (ms / 60_000).toFixed(1);
const largest = (values: readonly number[]) => values.reduce((max, value) => Math.max(max, value), 0);

/** Commands of the first pass over the players (all of them due at once), and of the rest of the run. */
function phases<T extends { readonly at: number }>(items: readonly T[]): [T[], T[]] {
  const boundary = START + FIRST_PASS_MS;
  return [items.filter((item) => item.at < boundary), items.filter((item) => item.at >= boundary)];
}

function latency(commands: readonly Command[]): string {
  const times = commands.flatMap((command) => (command.ms === undefined ? [] : [command.ms]));
  return `${quantile(times, 0.5)} / ${quantile(times, 0.99)} / ${largest(times)}`;
}

function failed(commands: readonly Command[]): string {
  return `${commands.filter((command) => command.ms === undefined).length} of ${commands.length}`;
}

function ratio(tracked: readonly Command[], alone: readonly Command[], q: number): string {
  const times = (commands: readonly Command[]) =>
    commands.flatMap((command) => (command.ms === undefined ? [] : [command.ms]));
  const without = quantile(times(alone), q);
  return without > 0 ? (quantile(times(tracked), q) / without).toFixed(2) : 'n/a';
}

/** Server size classes of the run: 50 players, 10, 1 to 3. */
const CLASSES = [
  { label: '50-player servers', min: 50, max: 50 },
  { label: '10-player', min: 10, max: 10 },
  { label: 'small (1 to 6)', min: 1, max: 6 },
] as const;

/** What the one plan gives: requests a minute by part against the capacity, intervals by server size. */
function planFigures(plan: BackgroundPlan, run: RunResult): Figures {
  const planned = (min: number, max: number) => {
    const intervals = [...run.serverSizes]
      .filter(([, size]) => size >= min && size <= max)
      .map(([guildId]) => plan.trackedMs.get(guildId) ?? 0);
    return minutes(quantile(intervals, 0.5));
  };
  const reached = (min: number, max: number) => {
    const gaps = [...run.refreshes.gapsByKey].flatMap(([key, values]) => {
      const size = run.sizeOfKey.get(key) ?? 0;
      return size >= min && size <= max ? values : [];
    });
    return minutes(quantile(gaps, 0.5));
  };
  const { perMinute } = plan;
  return {
    'background plan, requests a minute: tracking / linked / alerts / total (goal: total <= capacity)': `${perMinute.tracked.toFixed(1)} / ${perMinute.linked.toFixed(1)} / ${perMinute.alerts.toFixed(1)} / ${plan.totalPerMinute.toFixed(1)} (capacity ${plan.capacityPerMinute})`,
    [`interval planned per server (median), min: ${CLASSES.map((c) => c.label).join(' / ')} (target ${SETTINGS.trackMinutes})`]:
      CLASSES.map((c) => planned(c.min, c.max)).join(' / '),
    [`interval reached (median gap) by the smallest server tracking a player, min: ${CLASSES.map((c) => c.label).join(' / ')}`]:
      CLASSES.map((c) => reached(c.min, c.max)).join(' / '),
    ...plannerScenarios(plan.capacityPerMinute),
  };
}

/**
 * The planner alone on the 1,000-tracked cases of the issue (the run's capacity, 2,000 linked players,
 * 20 watched skins): one owner's servers of 50 beside light ones, and one heavy server among many light.
 */
function plannerScenarios(capacity: number): Figures {
  const figures: Figures = {};
  const cases = [
    { label: "one owner's 19 servers x 50 + 25 servers x 2", heavy: 19, light: 25 },
    { label: 'one server x 50 + 475 servers x 2', heavy: 1, light: 475 },
    { label: 'one server x 50 + 50 servers x 2 (100 tracked)', heavy: 1, light: 50 },
  ];
  const targets = planTargets({ settings: SETTINGS });
  for (const { label, heavy, light } of cases) {
    const trackedByServer = new Map<string, number>();
    for (let i = 0; i < heavy; i += 1) trackedByServer.set(`h${i}`, 50);
    for (let i = 0; i < light; i += 1) trackedByServer.set(`l${i}`, 2);
    const plan = planBackground({ trackedByServer, linked: 2_000, skins: 20 }, targets, capacity);
    const { perMinute } = plan;
    figures[
      `planner, ${label}: interval heavy / light, min (goal: light ${SETTINGS.trackMinutes}); linked h; alerts s; tracking / linked / alerts / total a minute`
    ] =
      `${minutes(plan.trackedMs.get('h0') ?? 0)} / ${minutes(plan.trackedMs.get('l0') ?? 0)}; ` +
      `${(plan.linkedMs / 3_600_000).toFixed(1)} h; ${Math.round(plan.alertMs / 1000)} s; ` +
      `${perMinute.tracked.toFixed(1)} / ${perMinute.linked.toFixed(1)} / ${perMinute.alerts.toFixed(1)} / ${plan.totalPerMinute.toFixed(1)} of ${capacity}`;
  }
  return figures;
}

export async function benchFollow(): Promise<Figures> {
  const started = performance.now();
  const tracked = await runScenario(true);
  const trackedWall = performance.now() - started;
  const alone = await runScenario(false);
  const aloneWall = performance.now() - started - trackedWall;
  const end = START + RUN_MS;
  const plan = tracked.plan;
  if (!plan) throw new Error('the tracking run has a plan');
  const { gaps, last } = tracked.refreshes;
  const waiting = largest([...last.values()].map((at) => end - at));
  const [firstWith, laterWith] = phases(tracked.commands);
  const [firstAlone, laterAlone] = phases(alone.commands);
  const [firstFailed, laterFailed] = phases(tracked.failedRefreshes.map((at) => ({ at })));
  const first = `first ${minutes(FIRST_PASS_MS)} min`;
  const count = (type: string) => tracked.stored.get(type) ?? 0;
  return {
    'simulated time per scenario, hours (one developer key, in-memory game API)': RUN_MS / 3_600_000,
    'tracked players / servers / track subscriptions': `${PLAYERS} / ${SERVERS} / ${tracked.subscriptions}`,
    'reply time of the game API, simulated ms / a ranked match per player every, min': `${API_LATENCY_MS} / ${MATCH_GAP_MS.min / 60_000}-${MATCH_GAP_MS.max / 60_000}`,
    'developer requests a minute: mean / busiest 60 s window (limit 60)': `${(
      tracked.accepted.length /
      (RUN_MS / 60_000)
    ).toFixed(1)} / ${busiest(tracked.accepted, WINDOW_MS)}`,
    '  of them by commands; official maps requests (game tier)': `${tracked.commandUpstream}; ${tracked.mapRequests}`,
    '429s received (goal 0)': tracked.refused,
    [`refreshes that failed at once, no request sent (${first} / after)`]: `${firstFailed.length} / ${laterFailed.length}`,
    'other warnings of the feed': tracked.otherWarnings,
    'capacity a minute for the feed (followCapacity: API key, events poll 30 s)': tracked.capacity,
    ...planFigures(plan, tracked),
    'refresh interval reached (gap_ms of every refresh): median / p95 / max, min': `${minutes(
      quantile(gaps, 0.5),
    )} / ${minutes(quantile(gaps, 0.95))} / ${minutes(largest(gaps))}`,
    '  refreshes with a gap / players looked at / longest wait at the end, min': `${gaps.length} / ${
      tracked.refreshes.first.size
    } / ${minutes(waiting)}`,
    'match played -> event stored: median / worst, min': `${minutes(quantile(tracked.matchDelays, 0.5))} / ${minutes(
      largest(tracked.matchDelays),
    )}`,
    'events stored: matches / level ups / clan changes': `${count(TRACK_MATCH_EVENT)} / ${count(
      TRACK_LEVEL_EVENT,
    )} / ${count(TRACK_CLAN_EVENT)}`,
    'matches played since their player’s first look / not announced by the end (oldest, min)': `${
      tracked.playedAfterFirstLook
    } / ${tracked.unannounced.length} (${minutes(largest(tracked.unannounced.map((at) => end - at)))})`,
    'polls / polls that failed': `${tracked.polls} / ${tracked.pollErrors}`,
    'commands a minute (interactive player calls on random tracked players)': COMMANDS_PER_MINUTE,
    [`command latency with tracking, ${first}: p50 / p99 / max, simulated ms`]: latency(firstWith),
    'command latency with tracking, after: p50 / p99 / max, simulated ms': latency(laterWith),
    'command latency without tracking: p50 / p99 / max, simulated ms': latency(alone.commands),
    [`command latency with / without tracking, ${first}: p50 / p99`]: `${ratio(firstWith, firstAlone, 0.5)} / ${ratio(
      firstWith,
      firstAlone,
      0.99,
    )}`,
    'command latency with / without tracking, after: p50 / p99': `${ratio(laterWith, laterAlone, 0.5)} / ${ratio(
      laterWith,
      laterAlone,
      0.99,
    )}`,
    [`commands that failed with tracking (${first} / after)`]: `${failed(firstWith)} / ${failed(laterWith)}`,
    'commands that failed without tracking': failed(alone.commands),
    'wall time: with tracking / without, s': `${(trackedWall / 1000).toFixed(1)} / ${(aloneWall / 1000).toFixed(1)}`,
    'clock steps / waits for the database that gave up (goal 0)': `${tracked.steps + alone.steps} / ${
      tracked.stalls + alone.stalls
    }`,
  };
}
