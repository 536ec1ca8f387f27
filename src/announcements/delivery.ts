import { createHash } from 'node:crypto';
import { DiscordAPIError, HTTPError, Routes, type APIMessage, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { asBackground } from '../traffic/discord-global.ts';
import { pastTimes } from '../render/common.ts';
import { pickLocale, type Translations, type Translator } from '../i18n/index.ts';
import type { ReplyPayload } from '../render/payload.ts';
import type { DeliveryPlan } from './kinds/kind.ts';
import type { KindRegistry } from './kinds/registry.ts';
import {
  DEAD_TARGET_CODES,
  type AnnouncementEvent,
  type Delivery,
  type DisableReason,
  type Pending,
  type Subscription,
} from './model.ts';
import { pool } from './pool.ts';
import { DeliveryRepository, type Repositories } from './repositories.ts';

/**
 * Delivery to Discord: every (subscription, event) pair is claimed, sent with a nonce derived from the
 * event and the channel (`enforce_nonce`, so a resend after a crash returns the first message instead
 * of posting again), then recorded. Before a post goes out, an intent with the time is written: Discord
 * honours a nonce for 5 minutes only, so a resend later than that (the store was down between the send
 * and its record, or the process was) could post a second message. Such a delivery is recorded
 * `unconfirmed` and not sent again: at most once. Looking for the message in the channel instead is not
 * possible in general: fetched messages carry no nonce, and reading history needs a permission the bot
 * does not ask for. Sends go a few at a time through discord.js's REST queue, as background requests of
 * the bot's one global limiter (`src/traffic/discord-global.ts`, in front of discord.js's REST): they take
 * every slot of Discord's 50 a second that commands leave, and commands' requests go first.
 */

/** The steps at which a test can stop delivery, as a crash would. */
export type Step = 'stored' | 'cursor' | 'sent' | 'recorded';
export type StepHook = (
  step: Step,
  info: { readonly eventKey: string; readonly subscriptionId?: string },
) => void | Promise<void>;

export interface DeliveryOptions {
  /** How long a claim keeps other processes off a delivery if its holder dies mid-way. */
  readonly claimTtlMs: number;
  /**
   * Deliveries under way at once. Each spends most of its time in the store (claim, intent, record) and
   * in the global limiter's queue; a second's worth (50) keeps the limiter fed even when the store
   * answers slowly, so the fan-out never leaves a slot unused for want of a delivery ready to send.
   */
  readonly concurrency: number;
  /** Attempts of one send against 5xx and network failures, with exponential backoff from `backoffMs`. */
  readonly attempts: number;
  readonly backoffMs: number;
  /**
   * Delivery passes (one per poll) before an event whose delivery keeps failing (Discord, the network, or
   * the announcement failing to render) is given up: recorded failed and set aside (quarantined).
   */
  readonly maxPasses: number;
  /**
   * How long after its first use a nonce is trusted to make Discord return the earlier message instead of
   * posting again: below Discord's 5 minutes, leaving room for the resend's own queueing and retries.
   */
  readonly nonceTrustMs: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  claimTtlMs: 60_000,
  concurrency: 50,
  attempts: 3,
  backoffMs: 500,
  maxPasses: 5,
  nonceTrustMs: 4 * 60_000,
};

type Outcome = 'done' | 'retry' | 'busy';

/** Discord's nonce: at most 25 characters, the same for the same event in the same channel. */
export function deliveryNonce(eventKey: string, channelId: string): string {
  return createHash('sha256').update(`${eventKey}|${channelId}`).digest('base64url').slice(0, 25);
}

type Failure =
  | { readonly kind: 'dead'; readonly reason: DisableReason; readonly code: number }
  | { readonly kind: 'unknownMessage' }
  | { readonly kind: 'transient' }
  | { readonly kind: 'permanent'; readonly code: number | string | undefined };

export function classifyFailure(error: unknown): Failure {
  if (error instanceof DiscordAPIError) {
    const code = typeof error.code === 'number' ? error.code : undefined;
    const reason = code === undefined ? undefined : DEAD_TARGET_CODES[code];
    if (reason !== undefined && code !== undefined) return { kind: 'dead', reason, code };
    if (code === 10008) return { kind: 'unknownMessage' };
    if (error.status >= 500) return { kind: 'transient' };
    return { kind: 'permanent', code: error.code };
  }
  if (error instanceof HTTPError)
    return error.status >= 500 ? { kind: 'transient' } : { kind: 'permanent', code: error.status };
  // Network failures, timeouts (AbortError) and connection resets: the request may be retried.
  return { kind: 'transient' };
}

function messageBody(payload: ReplyPayload, pingRoles: readonly string[]) {
  return {
    content: payload.content ?? '',
    embeds: [...(payload.embeds ?? [])],
    components: [...(payload.components ?? [])],
    allowed_mentions: { parse: [], roles: [...pingRoles] },
  };
}

export interface DelivererDeps {
  /** Discord's REST API, and the guild's language when a gateway session knows it. */
  readonly discord: { readonly rest: REST; guildLocale(guildId: string): string | undefined };
  readonly repos: Repositories;
  readonly translations: Translations;
  readonly clock: Clock;
  readonly log: Logger;
  /** This process, in claims. */
  readonly holder: string;
  readonly options: DeliveryOptions;
  readonly hook?: StepHook | undefined;
  /** The kinds the bot runs with: which subscriptions an event goes to, and what it posts there. */
  readonly kinds: KindRegistry;
  /** The active subscriptions, when the caller keeps them (the worker does); read from the table otherwise. */
  readonly activeSubscriptions?: () => Promise<readonly Subscription[]>;
  /** Told the outcome of every delivery recorded (metrics). */
  readonly onOutcome?: (outcome: Delivery['outcome']) => void;
}

interface Applied {
  readonly outcome: Delivery['outcome'];
  readonly messageId?: string;
}

export class Deliverer {
  readonly #deps: DelivererDeps;
  /** Subscriptions this process disabled (`id@since`: subscribing again re-enables with a new `since`). */
  readonly #disabled = new Set<string>();
  /** Serialises passes over the inbox within this process (the poller and webhook deliveries). */
  #pass: Promise<unknown> = Promise.resolve();
  #quarantined = 0;

  constructor(deps: DelivererDeps) {
    this.#deps = deps;
  }

  /** Delivers every pending event, oldest first. */
  deliverPending(signal?: AbortSignal): Promise<void> {
    const pass = this.#pass.then(async () => {
      const { repos } = this.#deps;
      const pending = await repos.inbox.pending();
      if (pending.length === 0) return;
      const subscriptions = await (this.#deps.activeSubscriptions?.() ?? repos.subscriptions.active());
      for (const item of pending) {
        signal?.throwIfAborted();
        await this.deliver(item, subscriptions);
      }
    });
    this.#pass = pass.catch(() => undefined);
    return pass;
  }

  /** Delivers one pending event to every subscription it is for; 'done' once every delivery is recorded. */
  async deliver(pending: Pending, subscriptions: readonly Subscription[]): Promise<Outcome> {
    const { repos, clock, options } = this.#deps;
    const event = pending.event;
    const targeted = subscriptions.filter((subscription) => this.#deps.kinds.targets(event, subscription));
    const problems = new Map<string, string>();
    const outcomes = await pool(targeted, options.concurrency, (subscription) =>
      this.#deliverOne(event, subscription, problems),
    );
    if (outcomes.every((outcome) => outcome === 'done')) {
      await repos.inbox.finish(event.key, clock.now());
      return 'done';
    }
    if (!outcomes.includes('retry')) return 'busy';
    if (pending.attempts + 1 < options.maxPasses) {
      await repos.inbox.retryLater(pending);
      return 'retry';
    }
    const failed = targeted.filter((_, index) => outcomes[index] === 'retry');
    for (const subscription of failed) {
      await this.#record(repos, DeliveryRepository.key(subscription.id, event.key), {
        outcome: 'failed',
        at: clock.now(),
      });
    }
    await this.#quarantine(pending, failed, problems);
    return 'done';
  }

  /** Sets an event that keeps failing aside, so that it no longer holds up the others: logged once, counted. */
  async #quarantine(
    pending: Pending,
    failed: readonly Subscription[],
    problems: ReadonlyMap<string, string>,
  ): Promise<void> {
    const { repos, clock, log } = this.#deps;
    const reason = [...new Set(failed.map((s) => problems.get(s.id) ?? 'not delivered'))].join('; ');
    await repos.inbox.quarantine(pending, reason, clock.now());
    this.#quarantined += 1;
    log.error(
      {
        event: pending.event.key,
        subscriptions: failed.map((s) => s.id),
        reason,
        passes: pending.attempts + 1,
      },
      'announcement set aside after failing every pass',
    );
  }

  async #record(repos: Repositories, key: string, delivery: Delivery): Promise<void> {
    await repos.deliveries.record(key, delivery);
    this.#deps.onOutcome?.(delivery.outcome);
  }

  /** Events set aside by this process since it started. */
  get quarantined(): number {
    return this.#quarantined;
  }

  #translator(subscription: Subscription): Translator {
    const guildLocale = this.#deps.discord.guildLocale(subscription.guildId);
    return this.#deps.translations.for(pickLocale(guildLocale, subscription.locale));
  }

  async #deliverOne(
    event: AnnouncementEvent,
    subscription: Subscription,
    problems: Map<string, string>,
  ): Promise<Outcome> {
    const { repos, clock, options, holder, hook, log } = this.#deps;
    const key = DeliveryRepository.key(subscription.id, event.key);
    if (this.#disabled.has(`${subscription.id}@${subscription.since}`)) return 'done';
    if (await repos.deliveries.get(key)) return 'done';
    if (!(await repos.deliveries.claim(key, holder, options.claimTtlMs))) return 'busy';
    // Someone may have recorded it and let go of the claim between the two reads above.
    if (await repos.deliveries.get(key)) {
      await repos.deliveries.release(key);
      return 'done';
    }
    const context = { event: event.key, subscription: subscription.id };
    let plan: DeliveryPlan | undefined;
    try {
      plan = this.#deps.kinds
        .named(subscription.kind)
        ?.plan(event, subscription, this.#translator(subscription), pastTimes(this.#deps.clock.now(), log));
    } catch (error) {
      // Not Discord's fault: the event cannot be rendered. Tried again next pass, then set aside.
      log.debug({ ...context, err: error }, 'announcement could not be prepared');
      problems.set(subscription.id, `plan: ${error instanceof Error ? error.name : 'error'}`);
      await repos.deliveries.release(key);
      return 'retry';
    }
    if (plan?.action === 'post') {
      const intent = await repos.deliveries.intent(key);
      if (intent !== undefined && clock.now() - intent.at >= options.nonceTrustMs) {
        log.warn(
          { ...context, channel: subscription.channelId, intentAt: intent.at },
          'announcement may have been posted already, past the nonce window: not posting it again',
        );
        await this.#record(repos, key, { outcome: 'unconfirmed', at: clock.now() });
        await repos.deliveries.release(key);
        return 'done';
      }
      if (intent === undefined) await repos.deliveries.intend(key, clock.now());
    }
    let applied: Applied;
    try {
      applied = plan === undefined ? { outcome: 'skipped' } : await this.#apply(event, subscription, plan);
    } catch (error) {
      problems.set(subscription.id, 'send');
      return this.#failed(error, event, subscription, key);
    }
    const info = { eventKey: event.key, subscriptionId: subscription.id };
    if (applied.outcome === 'sent' || applied.outcome === 'edited') await hook?.('sent', info);
    if (plan?.action === 'post' && plan.remember !== undefined && applied.messageId !== undefined) {
      await repos.refs.set(subscription.id, plan.remember, {
        messageId: applied.messageId,
        channelId: subscription.channelId,
        eventKey: event.key,
        at: event.at,
      });
    }
    if (plan?.action === 'edit' && plan.forget === true) await repos.refs.delete(subscription.id, plan.ref);
    await this.#record(repos, key, {
      outcome: applied.outcome,
      ...(applied.messageId === undefined ? {} : { messageId: applied.messageId }),
      at: clock.now(),
    });
    await hook?.('recorded', info);
    await repos.deliveries.release(key);
    log.debug({ ...context, outcome: applied.outcome }, 'delivered');
    return 'done';
  }

  async #apply(event: AnnouncementEvent, subscription: Subscription, plan: DeliveryPlan): Promise<Applied> {
    const { discord, repos } = this.#deps;
    if (plan.action === 'post') {
      const body = {
        ...messageBody(plan.payload, plan.pingRoles ?? []),
        nonce: deliveryNonce(event.key, subscription.channelId),
        enforce_nonce: true,
      };
      const message = (await this.#withRetry(() =>
        discord.rest.post(Routes.channelMessages(subscription.channelId), { body }),
      )) as APIMessage;
      return { outcome: 'sent', messageId: message.id };
    }
    const earlier = await repos.refs.get(subscription.id, plan.ref);
    if (!earlier) return { outcome: 'skipped' };
    const body = messageBody(plan.render(earlier), []);
    try {
      await this.#withRetry(() =>
        discord.rest.patch(Routes.channelMessage(earlier.channelId, earlier.messageId), { body }),
      );
    } catch (error) {
      // The announcement was deleted by someone: nothing left to edit.
      if (classifyFailure(error).kind === 'unknownMessage') return { outcome: 'skipped' };
      throw error;
    }
    return { outcome: 'edited', messageId: earlier.messageId };
  }

  async #withRetry<T>(send: () => Promise<T>): Promise<T> {
    const { attempts, backoffMs } = this.#deps.options;
    for (let attempt = 1; ; attempt += 1) {
      try {
        // Background on the bot's one global limiter: commands' requests go first (docs/adr/013).
        return await asBackground(send);
      } catch (error) {
        if (attempt >= attempts || classifyFailure(error).kind !== 'transient') throw error;
        const wait = backoffMs * 2 ** (attempt - 1);
        await this.#deps.clock.sleep(wait + Math.floor(Math.random() * (wait / 2)));
      }
    }
  }

  async #failed(
    error: unknown,
    event: AnnouncementEvent,
    subscription: Subscription,
    key: string,
  ): Promise<Outcome> {
    const { repos, clock, log } = this.#deps;
    const failure = classifyFailure(error);
    const context = { event: event.key, subscription: subscription.id, channel: subscription.channelId };
    if (failure.kind === 'transient') {
      log.warn({ ...context, err: error }, 'announcement not delivered yet; will retry');
      await repos.deliveries.release(key);
      return 'retry';
    }
    if (failure.kind === 'dead') {
      // Not retried: the channel is gone or closed to the bot, and every further try is an invalid request.
      this.#disabled.add(`${subscription.id}@${subscription.since}`);
      await repos.subscriptions.disable(subscription.id, failure.reason, failure.code, clock.now());
      log.warn({ ...context, code: failure.code, reason: failure.reason }, 'subscription disabled');
      await this.#record(repos, key, { outcome: 'disabled', at: clock.now() });
    } else {
      log.error({ ...context, err: error }, 'announcement refused by Discord');
      await this.#record(repos, key, { outcome: 'failed', at: clock.now() });
    }
    await repos.deliveries.release(key);
    return 'done';
  }
}
