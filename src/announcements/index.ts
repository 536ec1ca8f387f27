import { Events, type Client, type REST } from 'discord.js';
import type { Delivery } from './model.ts';
import type { BudgetRule } from '../traffic/budget.ts';
import type { DeliveryOptions, StepHook } from './delivery.ts';
import type { ReceiverOptions } from './ingress.ts';
import type { BackgroundScheduler } from '../traffic/scheduler.ts';

export type { AnnouncementKind, DeliveryPlan } from './kinds/kind.ts';
export type { SourceFactory } from './sources.ts';
export type { Subscription, AnnouncementEvent } from './model.ts';
export type { LeaderState } from './leadership.ts';
export type { Announcements } from './pipeline.ts';
export { openRepositories, type Repositories } from './repositories.ts';
export type { Step, StepHook } from './delivery.ts';

/**
 * Announcements: what the game does, posted to the channels subscribed to it. The pipeline is made of
 * named parts, each in a file of its own here, and built once by the composition root (`src/worker.ts`;
 * a shard of role `all` builds the same in-process): every source runs in a loop of its own
 * (`source-loop.ts`: polling under the worker lease, `leadership.ts`, with back-off); what a poll finds,
 * or the signed webhook pushes (`webhook.ts`, `ingress.ts`), is written to the inbox (`inbox.ts`); the
 * outbox (`outbox.ts`) has it delivered in passes of its own by the deliverer (`delivery.ts`), so a long
 * fan-out never delays a poll. The records behind them (`repositories.ts`) are opened once and handed in.
 * docs/adr/011-announcement-pipeline.md says why.
 *
 * "From now on": a subscription announces only events that happened at or after its `since` (when it
 * was made, or made again). So the first poll of a feed with no cursor pages through the history the
 * game keeps (30 days), stores none of it (no subscription is that old) and leaves the cursor at the
 * newest event; nothing is replayed into new channels.
 */

/** What announcements report, when the composition root hands metrics in (src/metrics). */
export interface AnnouncementMetrics {
  pollCycle(source: string, seconds: number): void;
  delivery(outcome: Delivery['outcome']): void;
  setOutboxDepth(read: () => Promise<number>): void;
}

/** Tuning, mainly for tests and benchmarks; every field has a production default. */
export interface AnnouncementOptions extends ReceiverOptions {
  /** Default `config.events.pollSeconds`. */
  readonly pollIntervalMs?: number;
  /** A schedule of its own for some sources, by name (`events`, `turf`, `kpd`); default `pollIntervalMs`. */
  readonly sourceIntervalsMs?: Readonly<Record<string, number>>;
  /** Default `config.events.leaseSeconds`. */
  readonly leaseTtlMs?: number;
  /** The events endpoint's own limit; default 6 per 60 000 ms. */
  readonly budget?: BudgetRule;
  /** Default 100. */
  readonly pageSize?: number;
  /** Pages of the events feed one poll reads at most; default 50. */
  readonly maxPagesPerPoll?: number;
  readonly delivery?: Partial<DeliveryOptions>;
  /** This process's name in leases and claims; default a random UUID. */
  readonly holderId?: string;
  /** Run the loops (default true); tests call `pollOnce()` themselves. */
  readonly autoStart?: boolean;
  /** Called at each step of storing and delivering (tests stop there, as a crash would). */
  readonly hook?: StepHook;
  readonly metrics?: AnnouncementMetrics;
  /** The background scheduler every source takes turns in; default one of its own. */
  readonly scheduler?: BackgroundScheduler;
}

/** Where announcements are posted: Discord's REST API, and what the gateway knows of guilds, if any. */
export interface DiscordTarget {
  readonly rest: REST;
  /** The guild's language when a gateway session knows it (the worker alone does not: it uses the stored one). */
  guildLocale(guildId: string): string | undefined;
  /** Resolves when posting may begin. */
  readonly ready: Promise<void>;
}

/** A logged-in (or logging-in) client as a {@link DiscordTarget}. */
export function discordTarget(client: Client): DiscordTarget {
  return {
    rest: client.rest,
    guildLocale: (guildId) => client.guilds.cache.get(guildId)?.preferredLocale,
    ready: client.isReady()
      ? Promise.resolve()
      : new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve())),
  };
}

/** The game's events endpoint allows 6 requests a minute per key. */
export const DEFAULT_EVENTS_BUDGET: BudgetRule = { limit: 6, windowMs: 60_000 };
