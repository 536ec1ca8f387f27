import { z } from 'zod';
import { fingerprint } from '../../api/auth.ts';
import { ForbiddenError } from '../../api/errors.ts';
import type { KpdCall, KpdLatestCalls } from '../../api/schemas/index.ts';
import { isUpstreamId, type Subscription } from '../../announcements/model.ts';
import type { Source, SourceDeps, SourceFactory, SourceRun } from '../../announcements/sources.ts';
import type { Services } from '../../services.ts';
import type { Database } from '../../db/index.ts';
import { diffCalls, KPD_KEY_REASON, KPD_KIND, KPD_SOURCE } from './events.ts';
import type { KpdKeyRepository } from './keys.ts';

/** Status and verdict of each call seen in the last poll of a guild. */
const FeedStateSchema = z.object({
  at: z.number(),
  calls: z.record(z.string(), z.tuple([z.number().int().nullable(), z.number().int().nullable()])),
});
type FeedState = z.output<typeof FeedStateSchema>;

/** The `kpd_feed_state` table: what the last poll of each guild saw. */
export class KpdFeedState {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async get(guildId: string): Promise<FeedState | undefined> {
    const row = await this.#db.kysely
      .selectFrom('kpd_feed_state')
      .selectAll()
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    if (!row) return undefined;
    let calls: unknown;
    try {
      calls = JSON.parse(row.calls);
    } catch {
      return undefined;
    }
    const parsed = FeedStateSchema.safeParse({ at: row.at, calls });
    return parsed.success ? parsed.data : undefined;
  }

  async set(guildId: string, state: FeedState): Promise<void> {
    const values = { at: state.at, calls: JSON.stringify(state.calls) };
    await this.#db.kysely
      .insertInto('kpd_feed_state')
      .values({ guild_id: guildId, ...values })
      .onConflict((c) => c.column('guild_id').doUpdateSet(values))
      .execute();
  }
}

function stateOf(calls: readonly KpdCall[], at: number): FeedState {
  return {
    at,
    calls: Object.fromEntries(
      calls
        .filter((call) => isUpstreamId(call.id))
        .map((call) => [String(call.id), [call.status ?? null, call.rating ?? null]]),
    ),
  };
}

/**
 * The KPD feed of `/subscribe kpd`: each poll reads the latest calls of every guild with a kpd
 * subscription, with that guild's own linked key (one request per key per poll, whatever the number
 * of guilds sharing it), and compares them with what it saw last time. A call not seen before becomes
 * a `kpd.call` event, a call whose status or verdict changed a `kpd.change` event. The first poll of a
 * guild only records what exists. When a guild's key stops working (refused, unlinked, sealed under an
 * old secret), its kpd subscriptions are disabled with the reason `kpdKey`.
 *
 * Events keep only what the announcement shows (`events.ts`): never the game server's host and port, nor
 * the call's internal token.
 */
export class KpdFeed implements Source {
  readonly name = KPD_SOURCE;
  readonly #deps: SourceDeps;
  readonly #keys: KpdKeyRepository;
  readonly #state: KpdFeedState;

  readonly #concurrency: number;

  constructor(deps: SourceDeps, keys: KpdKeyRepository, db: Database, concurrency = KPD_POLL_CONCURRENCY) {
    this.#deps = deps;
    this.#keys = keys;
    this.#state = new KpdFeedState(db);
    this.#concurrency = concurrency;
  }

  wanted(subscriptions: readonly Subscription[]): boolean {
    return subscriptions.some((subscription) => subscription.kind === KPD_KIND);
  }

  async poll(run: SourceRun): Promise<void> {
    await run.deliver();
    const byGuild = new Map<string, Subscription[]>();
    for (const subscription of run.subscriptions) {
      if (subscription.kind !== KPD_KIND) continue;
      byGuild.set(subscription.guildId, [...(byGuild.get(subscription.guildId) ?? []), subscription]);
    }
    const perKey = new Map<string, Promise<KpdLatestCalls>>();
    // Guilds are polled a few at a time (each with its own key, so each within its own limit); with many
    // guilds, their starts are spread over half the interval rather than bunched at its beginning.
    const guilds = [...byGuild];
    const spacingMs = guilds.length > this.#concurrency ? run.spreadMs / guilds.length : 0;
    const started = this.#deps.clock.now();
    let next = 0;
    const worker = async () => {
      while (next < guilds.length) {
        const index = next++;
        const [guildId, subscriptions] = guilds[index] as [string, Subscription[]];
        run.signal.throwIfAborted();
        const wait = started + index * spacingMs - this.#deps.clock.now();
        if (wait > 0) await this.#deps.clock.sleep(wait, run.signal);
        await this.#pollGuild(guildId, subscriptions, perKey, run);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, guilds.length) }, worker));
    await run.deliver();
  }

  async #pollGuild(
    guildId: string,
    subscriptions: readonly Subscription[],
    perKey: Map<string, Promise<KpdLatestCalls>>,
    run: SourceRun,
  ): Promise<void> {
    const { api, clock, log, hook } = this.#deps;
    let result;
    try {
      result = await this.#keys.withKey(guildId, (key) => {
        const id = fingerprint(key.apiKey);
        let calls = perKey.get(id);
        if (calls === undefined) {
          calls = api.call(
            'kpdLatestCalls',
            {},
            { apiKey: key.apiKey, priority: 'background', signal: run.signal },
          );
          perKey.set(id, calls);
        }
        return calls;
      });
    } catch (error) {
      if (error instanceof ForbiddenError) {
        await this.#disable(subscriptions, 403, 'refused');
        return;
      }
      log.warn({ err: error, guildId }, 'could not read the latest KPD calls; trying again next poll');
      return;
    }
    if (result.status !== 'ok') {
      await this.#disable(subscriptions, 0, result.status);
      return;
    }
    const now = clock.now();
    const calls = result.value;
    const state = await this.#state.get(guildId);
    if (state !== undefined) {
      let stored = 0;
      for (const event of diffCalls(guildId, state.calls, calls, now)) {
        if (await this.#deps.inbox.offer(event, subscriptions)) stored += 1;
      }
      await hook?.('stored', { eventKey: `kpd:${guildId}` });
      log.debug({ guildId, calls: calls.length, stored }, 'kpd calls polled');
    }
    await this.#state.set(guildId, stateOf(calls, now));
    await hook?.('cursor', { eventKey: `kpd:${guildId}` });
  }

  async #disable(subscriptions: readonly Subscription[], code: number, why: string): Promise<void> {
    const { repos, clock, log } = this.#deps;
    for (const subscription of subscriptions) {
      if (await repos.subscriptions.disable(subscription.id, KPD_KEY_REASON, code, clock.now())) {
        log.warn(
          { guildId: subscription.guildId, subscription: subscription.id, why },
          'kpd subscription disabled: the guild key does not work',
        );
      }
    }
  }
}

/** The KPD feed as the composition root hands it to the pipeline, with the guilds' linked keys. */
export function kpdSource(services: Pick<Services, 'db' | 'records'>): SourceFactory {
  return (deps) => new KpdFeed(deps, services.records.kpdKeys, services.db);
}

/** Guilds whose latest calls are read at once. */
export const KPD_POLL_CONCURRENCY = 8;
