import { ApiError, NotFoundError, RateLimitedError } from '../../api/errors.ts';
import type { PlayerMatch, PlayerProfile } from '../../api/schemas/index.ts';
import { isSaneTime, type AnnouncementEvent, type Subscription } from '../../announcements/model.ts';
import type { Source, SourceDeps, SourceFactory, SourceRun } from '../../announcements/sources.ts';
import type { Config } from '../../config/index.ts';
import { forEachPage } from '../../core/batches.ts';
import { followCapacity, type DemandReader } from '../../traffic/capacity.ts';
import { trackedIntervalOf, type BackgroundPlan } from '../../traffic/planner.ts';
import { HOUR_MS, SnapshotStore } from '../../players/snapshots.ts';
import { rankedMatches, statsOf, type SnapshotStats } from '../../players/stats.ts';
import { FollowedPlayers, type FollowedPlayer, type RefreshHook } from '../../players/followed.ts';
import {
  backgroundPlan,
  fairOrder,
  trackedPlayers,
  type FollowSettings,
  type Task,
} from '../../players/follow-plan.ts';

export { fairOrder, trackedPlayers, TRACK_KIND, type FollowSettings } from '../../players/follow-plan.ts';
import {
  PLAYERS_SOURCE,
  TRACK_CLAN_EVENT,
  TRACK_LEVEL_EVENT,
  TRACK_MATCH_EVENT,
  type TrackMatch,
} from './events.ts';

/** The owner of the linked players' refreshes in the scheduler's rotation. */
export const LINKED_OWNER = 'linked';
/** The most refreshes one poll starts (the next poll goes on). */
const MAX_PER_POLL = 200;
/** The most new matches one refresh announces (a player back from a long session gets the newest). */
const MAX_MATCHES_PER_REFRESH = 10;

export interface PlayersFeedDeps extends SourceDeps {
  /** False without the developer API key: nothing to read then. */
  readonly enabled: boolean;
  /**
   * What the background may count on per minute (`followCapacity`): the players feed and the price alerts
   * plan from it together (`backgroundPlan`).
   */
  readonly capacityPerMinute: number;
  /** What the background has to refresh now (the composition root's `demandReader`). */
  readonly demand: DemandReader;
  readonly settings: FollowSettings;
  /** Told each profile refreshed in the background (roles follow it), and each name no longer found. */
  readonly onRefreshed?: RefreshHook | undefined;
}

function matchTime(match: PlayerMatch, now: number): number | undefined {
  const at = match.date === undefined ? Number.NaN : Date.parse(match.date);
  return isSaneTime(at, now) ? Math.min(at, now) : undefined;
}

function compareIds(a: string, b: string): number {
  const [x, y] = [BigInt(a), BigInt(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The players feed: refreshes followed players in the background, through the scheduler, within what the
 * budget leaves. Linked players are refreshed at least every `linkedHours` (their snapshots, and the roles
 * that follow them); tracked players every `trackMinutes`, and what changed since the last look becomes
 * events: ranked matches finished (one `playerMatches` request, only when the season profile says matches
 * were played), a level up, a clan change. The intervals come from the background's one plan
 * (`backgroundPlan`, shared with the price alerts): each server's tracked players have a share of their
 * own, so a server that tracks many stretches alone, and linked players have a guaranteed part; `/track
 * list` shows the same plan.
 *
 * The first look at a player stores what it saw and announces nothing: tracking starts from now.
 */
export class PlayersFeed implements Source {
  readonly name = PLAYERS_SOURCE;
  readonly #deps: PlayersFeedDeps;
  readonly #followed: FollowedPlayers;
  readonly #snapshots: SnapshotStore;
  /** Names this process has made sure are in the table. */
  readonly #known = new Set<string>();
  #linkedSynced = false;
  #prunedAt = -Infinity;

  constructor(deps: PlayersFeedDeps) {
    this.#deps = deps;
    this.#followed = new FollowedPlayers(deps.db);
    this.#snapshots = new SnapshotStore(deps.db);
  }

  wanted(): boolean {
    return this.#deps.enabled;
  }

  /** The background's plan for these (active) subscriptions, as the price alerts see it too. */
  async plan(subscriptions: readonly Subscription[]): Promise<BackgroundPlan> {
    return backgroundPlan(await this.#deps.demand(subscriptions), {
      settings: this.#deps.settings,
      capacityPerMinute: this.#deps.capacityPerMinute,
    });
  }

  async poll(run: SourceRun): Promise<void> {
    const { clock, log } = this.#deps;
    await run.deliver();
    await this.#syncLinked();
    await this.#prune();
    const tracked = trackedPlayers(run.subscriptions);
    const fresh = [...tracked].filter(([key]) => !this.#known.has(key));
    if (fresh.length > 0) {
      await this.#followed.follow(fresh.map(([, entry]) => entry.name));
      for (const [key] of fresh) this.#known.add(key);
    }
    const now = clock.now();
    const plan = await this.plan(run.subscriptions);
    const target = this.#deps.settings.trackMinutes * 60_000;
    const linkedMs = plan.linkedMs;
    const tasks: Task[] = [];
    for (const player of await this.#followed.many([...tracked.keys()])) {
      const owners = [...(tracked.get(player.key)?.owners ?? [])];
      // Refreshed as often as the least stretched of the servers tracking it wants (each counted it whole).
      const trackedMs = Math.min(...owners.map((owner) => trackedIntervalOf(plan, owner, target)));
      if (player.refreshedAt !== undefined && player.refreshedAt > now - trackedMs) continue;
      tasks.push({ player, owners, tracked: true });
    }
    for (const player of await this.#followed.due(now - linkedMs, MAX_PER_POLL)) {
      if (tracked.has(player.key)) continue;
      tasks.push({ player, owners: [LINKED_OWNER], tracked: false });
    }
    const deadline = now + Math.max(1_000, run.spreadMs);
    let stored = 0;
    for (const task of fairOrder(tasks).slice(0, MAX_PER_POLL)) {
      if (run.signal.aborted || clock.now() >= deadline) break;
      const owner = task.owners[0] ?? LINKED_OWNER;
      try {
        stored += await this.#deps.scheduler.run(owner, () => this.#refresh(task, run), run.signal);
      } catch (error) {
        // The game API failing for one player leaves the others to do; anything else (the store) ends
        // the poll, which the source loop retries with backoff.
        if (!(error instanceof ApiError)) throw error;
        // The budget is spent for now (commands come first): the rest waits for the next poll rather
        // than each failing at once.
        if (error instanceof RateLimitedError) break;
        log.warn({ err: error, player: task.player.playerName }, 'could not refresh a followed player');
      }
    }
    if (stored > 0) await run.deliver();
  }

  /** Old snapshots go, once an hour (hourly points after 48 hours, daily ones after 400 days). */
  async #prune(): Promise<void> {
    const now = this.#deps.clock.now();
    if (now - this.#prunedAt < HOUR_MS) return;
    this.#prunedAt = now;
    const removed = await this.#snapshots.prune(now);
    if (removed > 0) this.#deps.log.debug({ removed }, 'pruned old snapshots');
  }

  /** Links made before this feed existed (or by another version) join the schedule once per process. */
  async #syncLinked(): Promise<void> {
    if (this.#linkedSynced) return;
    // Every link, a page at a time with a turn of the event loop between pages (no long block at 100k).
    await forEachPage<{ user_id: string; player_name: string }, string>(
      (after, size) => {
        let query = this.#deps.db.kysely.selectFrom('account_links').select(['user_id', 'player_name']);
        if (after !== undefined) query = query.where('user_id', '>', after);
        return query.orderBy('user_id').limit(size).execute();
      },
      (row) => row.user_id,
      (rows) => this.#followed.follow(rows.map((row) => row.player_name)),
    );
    this.#linkedSynced = true;
  }

  /** One refresh; returns how many events it stored. */
  async #refresh(task: Task, run: SourceRun): Promise<number> {
    const { api, clock } = this.#deps;
    const { player } = task;
    if (!task.tracked && !(await this.#stillLinked(player))) {
      await this.#followed.unfollow(player.key);
      return 0;
    }
    let profile: PlayerProfile;
    try {
      profile = await api.call(
        'player',
        { playerName: player.playerName },
        { priority: 'background', fresh: true, signal: run.signal, deadlineMs: 30_000 },
      );
    } catch (error) {
      // A name that no longer exists is looked at again after an interval, not at every poll; the links
      // to it learn where their player went (a rename), or that it is gone.
      if (error instanceof NotFoundError) {
        await this.#followed.refreshed(player, clock.now());
        await this.#deps.onRefreshed?.missing?.(player.playerName);
      }
      throw error;
    }
    const stats = statsOf(profile);
    const base = { playerId: profile.player_id, playerName: profile.player_name };
    if (!task.tracked) {
      await this.#followed.refreshed(player, clock.now(), base);
      await this.#deps.onRefreshed?.(profile, player.playerName);
      return 0;
    }
    const events = player.seen ? await this.#changes(player, player.seen, stats, profile, run) : [];
    const stored = await this.#store(events, run);
    const lastMatch =
      events
        .filter((event) => event.type === TRACK_MATCH_EVENT)
        .map((event) => (event.data as TrackMatch).matchId)
        .sort(compareIds)
        .at(-1) ??
      (player.lastMatchId === undefined ? await this.#newestMatch(player, stats, run) : undefined);
    await this.#followed.refreshed(player, clock.now(), {
      ...base,
      seen: stats,
      ...(lastMatch === undefined ? {} : { lastMatchId: lastMatch }),
    });
    await this.#deps.onRefreshed?.(profile, player.playerName);
    return stored;
  }

  async #stillLinked(player: FollowedPlayer): Promise<boolean> {
    const row = await this.#deps.db.kysely
      .selectFrom('account_links')
      .select('user_id')
      .where('player_name', '=', player.playerName)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async #store(events: readonly AnnouncementEvent[], run: SourceRun): Promise<number> {
    const { inbox, hook } = this.#deps;
    let stored = 0;
    for (const event of events) if (await inbox.offer(event, run.subscriptions)) stored += 1;
    if (events.length > 0) await hook?.('stored', { eventKey: events[0]?.key ?? '' });
    return stored;
  }

  /** What changed between two looks, as events (new ranked matches need one more request). */
  async #changes(
    player: FollowedPlayer,
    before: SnapshotStats,
    after: SnapshotStats,
    profile: PlayerProfile,
    run: SourceRun,
  ): Promise<AnnouncementEvent[]> {
    const now = this.#deps.clock.now();
    const ref = { playerId: profile.player_id, playerName: profile.player_name };
    const events: AnnouncementEvent[] = [];
    const played = rankedMatches(after) - rankedMatches(before);
    if (played > 0)
      events.push(...(await this.#matchEvents(player, profile, before, after, played, run, now)));
    if (after.level > before.level) {
      events.push({
        key: `track:l:${profile.player_id}:${after.level}`,
        source: PLAYERS_SOURCE,
        type: TRACK_LEVEL_EVENT,
        // After the matches that got there, before a clan change seen by the same look.
        at: now + 1,
        data: { ...ref, from: before.level, to: after.level },
      });
    }
    if (after.clan !== before.clan) {
      events.push({
        key: `track:c:${profile.player_id}:${now}`,
        source: PLAYERS_SOURCE,
        type: TRACK_CLAN_EVENT,
        at: now + 2,
        data: { ...ref, from: before.clan, to: after.clan },
      });
    }
    return events;
  }

  async #matchEvents(
    player: FollowedPlayer,
    profile: PlayerProfile,
    before: SnapshotStats,
    after: SnapshotStats,
    played: number,
    run: SourceRun,
    now: number,
  ): Promise<AnnouncementEvent[]> {
    const { api, log } = this.#deps;
    const page = await api.call(
      'playerMatches',
      { playerName: player.playerName, page: 1 },
      { priority: 'background', fresh: true, signal: run.signal, deadlineMs: 30_000 },
    );
    // Matches newer than the last one announced (all of them: one may have ended since the profile was
    // read, and is announced now rather than lost); without one yet, as many as the profile says.
    const known = player.lastMatchId;
    const newest = page.matches
      .filter((match) => known === undefined || compareIds(match.match_id, known) > 0)
      .sort((a, b) => compareIds(b.match_id, a.match_id))
      .slice(0, known === undefined ? Math.min(played, MAX_MATCHES_PER_REFRESH) : MAX_MATCHES_PER_REFRESH);
    const mapNames = await this.#mapNames(newest.length > 0);
    // A region's MMR change belongs to its newest new match when that is the only one there; with more,
    // the reply cannot tell how it split, so none is claimed.
    const perRegion = new Map<number, number>();
    for (const match of newest)
      if (match.region !== undefined) perRegion.set(match.region, (perRegion.get(match.region) ?? 0) + 1);
    const events: AnnouncementEvent[] = [];
    for (const match of newest.reverse()) {
      const region = match.region;
      const was = before.ranked.find((standing) => standing.region === region);
      const is = after.ranked.find((standing) => standing.region === region);
      const single = region !== undefined && perRegion.get(region) === 1;
      const data: TrackMatch = {
        playerId: profile.player_id,
        playerName: profile.player_name,
        matchId: match.match_id,
        ...(match.map === undefined ? {} : { map: match.map }),
        ...(match.map !== undefined && mapNames.has(match.map)
          ? { mapName: mapNames.get(match.map) ?? '' }
          : {}),
        ...(region === undefined ? {} : { region }),
        ...(match.kills === undefined ? {} : { kills: match.kills }),
        ...(match.deaths === undefined ? {} : { deaths: match.deaths }),
        ...(match.assists === undefined ? {} : { assists: match.assists }),
        ...(match.score === undefined ? {} : { score: match.score }),
        ...(match.victory === undefined || match.victory < -1 || match.victory > 1
          ? {}
          : { victory: match.victory }),
        ...(single && was && is ? { mmrChange: is.mmr - was.mmr } : {}),
        ...(is ? { mmr: is.mmr } : {}),
        ...(matchTime(match, now) === undefined ? {} : { playedAt: matchTime(match, now) ?? now }),
      };
      events.push({
        key: `track:m:${data.playerId}:${data.matchId}`,
        source: PLAYERS_SOURCE,
        type: TRACK_MATCH_EVENT,
        at: now,
        data: { ...data },
      });
    }
    if (newest.length === 0)
      log.debug({ player: player.playerName, played }, 'matches played, none new on page 1');
    return events;
  }

  /**
   * The newest ranked match a player has now (one request, once per tracked player that has ranked
   * matches): what later looks count from, so that a match never hides behind an older one.
   */
  async #newestMatch(
    player: FollowedPlayer,
    stats: SnapshotStats,
    run: SourceRun,
  ): Promise<string | undefined> {
    if (rankedMatches(stats) === 0) return undefined;
    const page = await this.#deps.api.call(
      'playerMatches',
      { playerName: player.playerName, page: 1 },
      { priority: 'background', fresh: true, signal: run.signal, deadlineMs: 30_000 },
    );
    return page.matches
      .map((match) => match.match_id)
      .sort(compareIds)
      .at(-1);
  }

  /** The official maps' names (a cached game-tier list, outside the key's budget); none when it fails. */
  async #mapNames(needed: boolean): Promise<Map<number, string>> {
    if (!needed) return new Map();
    try {
      const maps = await this.#deps.api.call('officialMaps', {}, { priority: 'background' });
      return new Map(maps.map((map) => [map.id, map.name]));
    } catch {
      return new Map();
    }
  }
}

/**
 * The players feed as a source of the announcement pipeline (the composition root hands it in). Without the
 * developer API key there is nothing it could read, and it stays idle.
 */
export function playersSource(
  config: Pick<Config, 'follow' | 'game' | 'events'>,
  demand: DemandReader,
  onRefreshed?: RefreshHook,
): SourceFactory {
  const capacityPerMinute = followCapacity(config);
  return (deps) =>
    new PlayersFeed({
      ...deps,
      capacityPerMinute,
      demand,
      settings: config.follow,
      enabled: config.game.apiKey !== undefined,
      onRefreshed,
    });
}
