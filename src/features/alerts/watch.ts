import { randomUUID } from 'node:crypto';
import { Routes, type APIChannel, type REST } from 'discord.js';
import type { Logger } from 'pino';
import { ApiError, NotFoundError, RateLimitedError } from '../../api/errors.ts';
import type { TierClient } from '../../api/client.ts';
import type { Clock } from '../../core/clock.ts';
import { pickLocale, type Translations } from '../../i18n/index.ts';
import { classifyFailure, deliveryNonce } from '../../announcements/delivery.ts';
import type { Source, SourceFactory, SourceRun } from '../../announcements/sources.ts';
import type { BackgroundScheduler } from '../../traffic/scheduler.ts';
import { planBackground } from '../../traffic/planner.ts';
import { renderAlertFired } from './render.ts';
import type { Database } from '../../db/index.ts';
import type { Config } from '../../config/index.ts';
import { followCapacity, type DemandReader } from '../../traffic/capacity.ts';
import { backgroundPlan, planTargets, type FollowSettings } from '../../players/follow-plan.ts';
import { transition } from './crossing.ts';
import { AlertRepository, type AlertDisableReason, type PriceAlert } from './store.ts';

/** The source's name, and its single owner in the background scheduler's rotation. */
export const ALERTS_SOURCE = 'alerts';
export { ALERT_TARGET_MS } from '../../traffic/capacity.ts';
/** Discord: "Cannot send messages to this user" (DMs closed, or the bot blocked). */
export const DM_BLOCKED_CODE = 50007;
/** Skins looked at per poll, at most (the next poll goes on). */
const MAX_SKINS_PER_POLL = 200;
/** Passes a delivery may fail (5xx, the network) before its alert is given up on (left fired, not sent). */
const MAX_ATTEMPTS = 5;

const DEAD: Readonly<Record<number, AlertDisableReason>> = {
  [DM_BLOCKED_CODE]: 'dmBlocked',
  // Unknown User: the account is gone.
  10013: 'failed',
  10003: 'unknownChannel',
  50001: 'missingAccess',
  50013: 'missingPermissions',
};

/** A skin's price now: the lowest ask on the market; undefined when nothing is listed. */
export type PriceReader = (skinIndex: number, signal: AbortSignal) => Promise<number | undefined>;

/** The price from the game: `/market/items/{id}/sales`, its lowest ask (absent while nothing is listed). */
export function marketPriceReader(api: TierClient): PriceReader {
  return async (skinIndex, signal) => {
    const sales = await api.call(
      'marketItemSales',
      { skinIndex },
      { priority: 'background', fresh: true, signal, deadlineMs: 30_000 },
    );
    return sales.ask_low;
  };
}

export type AlertStep = 'fired' | 'claimed' | 'sent';
export type AlertHook = (step: AlertStep, alertId: string) => void | Promise<void>;

export interface AlertWatchDeps {
  readonly db: Database;
  readonly read: PriceReader;
  readonly scheduler: BackgroundScheduler;
  readonly clock: Clock;
  readonly log: Logger;
  readonly rest: REST;
  readonly translations: Translations;
  /**
   * What the background may count on per minute (`followCapacity`): the alerts plan their share of it
   * together with the players feed (`backgroundPlan`), never beside it.
   */
  readonly capacityPerMinute: number;
  /** What the background has to refresh now (the composition root's `demandReader`). */
  readonly demand: DemandReader;
  /** The players feed's targets, which the one plan weighs against the alerts'; default 5 min and 24 h. */
  readonly settings?: FollowSettings;
  readonly targetMs?: number;
  /** How long a claim keeps other processes off a delivery. */
  readonly claimTtlMs?: number;
  /** How long after a first send a resend is trusted to be de-duplicated by its nonce (Discord: 5 min). */
  readonly nonceTrustMs?: number;
  readonly holder?: string;
  /** Called at each step (tests stop there, as a crash would). */
  readonly hook?: AlertHook;
}

/**
 * The price alerts' poller and their delivery. One poll per watched skin serves every alert on it: the
 * skins are looked at in turn, through the background scheduler (owner `alerts`), each at most every
 * `targetMs` (stretched evenly when the skins want more than the alerts' share of the budget). A poll's
 * price moves each alert's state in SQL with one conditional statement (`crossing.ts`), and the alerts
 * that fired are delivered exactly once: claimed in their row, sent with a nonce per alert and crossing
 * (a resend after a crash returns the first message), then recorded. A resend later than the nonce's
 * window is not made (at most once). A DM the user does not accept (50007), or a channel gone, disables
 * the alert: `/alert list` says why.
 */
export class AlertWatch implements Source {
  readonly name = ALERTS_SOURCE;
  readonly #deps: AlertWatchDeps;
  readonly #repo: AlertRepository;
  readonly #holder: string;
  readonly #settings: FollowSettings;
  /** DM channels opened by this process, per user. */
  readonly #dms = new Map<string, string>();

  constructor(deps: AlertWatchDeps) {
    this.#deps = deps;
    this.#repo = new AlertRepository(deps.db);
    this.#holder = deps.holder ?? randomUUID();
    this.#settings = deps.settings ?? { trackMinutes: 5, linkedHours: 24 };
  }

  wanted(): boolean {
    return true;
  }

  /** The interval each of `count` watched skins would be looked at with nothing else in the background. */
  intervalMs(count: number): number {
    const targets = planTargets({ settings: this.#settings, alertTargetMs: this.#deps.targetMs });
    const demand = { trackedByServer: new Map<string, number>(), linked: 0, skins: count };
    return planBackground(demand, targets, this.#deps.capacityPerMinute).alertMs;
  }

  /** The interval planned now for the watched skins, in the background's one plan. */
  async plannedMs(run: Pick<SourceRun, 'subscriptions'>): Promise<number> {
    const plan = backgroundPlan(await this.#deps.demand(run.subscriptions), {
      settings: this.#settings,
      capacityPerMinute: this.#deps.capacityPerMinute,
      alertTargetMs: this.#deps.targetMs,
    });
    return plan.alertMs;
  }

  async poll(run: SourceRun): Promise<void> {
    const { clock, log, scheduler, read } = this.#deps;
    const signal = run.signal;
    // Whatever a crash left claimed but not sent goes first.
    await this.deliverPending(signal);
    const skins = await this.#repo.watchedSkins();
    if (skins.length === 0) return;
    const now = clock.now();
    const interval = await this.plannedMs(run);
    const checked = await this.#repo.checkedAt(skins);
    const due = skins
      .filter((skin) => (checked.get(skin) ?? -Infinity) <= now - interval)
      .sort((a, b) => (checked.get(a) ?? -Infinity) - (checked.get(b) ?? -Infinity) || a - b)
      .slice(0, MAX_SKINS_PER_POLL);
    const deadline = now + Math.max(1_000, run.spreadMs);
    let fired = 0;
    for (const skin of due) {
      if (signal.aborted || clock.now() >= deadline) break;
      let price: number | undefined;
      try {
        price = await scheduler.run(ALERTS_SOURCE, () => read(skin, signal), signal);
      } catch (error) {
        if (error instanceof NotFoundError) price = undefined;
        else if (error instanceof RateLimitedError) break;
        else if (error instanceof ApiError) {
          log.warn({ err: error, skin }, 'could not read a watched skin’s price');
          continue;
        } else throw error;
      }
      fired += await this.observe(skin, price);
    }
    if (fired > 0) await this.deliverPending(signal);
  }

  /** A price seen for a skin: every alert on it moves; returns how many fired. */
  async observe(skinIndex: number, price: number | undefined): Promise<number> {
    const { clock, hook } = this.#deps;
    const now = clock.now();
    await this.#repo.setSkinPrice(skinIndex, price, now);
    let fired = 0;
    // Each move is one conditional statement (`store.ts`): the hysteresis' state lives in the row.
    for (const alert of await this.#repo.forSkin(skinIndex)) {
      const move = transition(alert, price, now);
      if (move === 'fire' && price !== undefined && (await this.#repo.fire(alert.id, price, now))) {
        fired += 1;
        await hook?.('fired', alert.id);
      } else if (move === 'pend') await this.#repo.pend(alert.id, now);
      else if (move === 'unpend') await this.#repo.unpend(alert.id);
      else if (move === 'rearm') await this.#repo.rearm(alert.id);
    }
    return fired;
  }

  /** Delivers every alert that fired and is not delivered yet. */
  async deliverPending(signal?: AbortSignal): Promise<void> {
    for (const alert of await this.#repo.pending()) {
      signal?.throwIfAborted();
      await this.#deliver(alert);
    }
  }

  async #deliver(alert: PriceAlert): Promise<void> {
    const { clock, log, hook, rest } = this.#deps;
    const count = alert.firedCount;
    const claimTtl = this.#deps.claimTtlMs ?? 60_000;
    if (!(await this.#repo.claim(alert.id, count, this.#holder, clock.now(), claimTtl))) return;
    await hook?.('claimed', alert.id);
    const context = { alert: alert.id, crossing: count };
    const trust = this.#deps.nonceTrustMs ?? 4 * 60_000;
    if (
      alert.intentCount === count &&
      alert.intentAt !== undefined &&
      clock.now() - alert.intentAt >= trust
    ) {
      log.warn(
        context,
        'price alert may have been sent already, past the nonce window: not sending it again',
      );
      await this.#repo.delivered(alert.id, count);
      return;
    }
    if (alert.intentCount !== count) await this.#repo.intend(alert.id, count, clock.now());
    const t = this.#deps.translations.for(pickLocale(alert.locale, undefined));
    const payload = renderAlertFired(
      t,
      alert,
      alert.firedPrice ?? alert.threshold,
      alert.firedAt ?? clock.now(),
    );
    try {
      const channelId = alert.channelId ?? (await this.#dmChannel(alert.userId));
      const body = {
        content: '',
        embeds: [...(payload.embeds ?? [])],
        allowed_mentions: { parse: [] },
        nonce: deliveryNonce(`alert:${alert.id}:${count}`, channelId),
        enforce_nonce: true,
      };
      await rest.post(Routes.channelMessages(channelId), { body });
    } catch (error) {
      const failure = classifyFailure(error);
      const code =
        failure.kind === 'permanent' && typeof failure.code === 'number'
          ? failure.code
          : failure.kind === 'dead'
            ? failure.code
            : undefined;
      const reason = code === undefined ? undefined : DEAD[code];
      if (reason !== undefined && code !== undefined) {
        await this.#repo.disable(alert.id, reason, code, clock.now());
        log.info({ ...context, reason, code }, 'price alert disabled: its target does not accept it');
        return;
      }
      if (alert.attempts + 1 >= MAX_ATTEMPTS) {
        await this.#repo.delivered(alert.id, count);
        log.error({ ...context, err: error }, 'price alert not delivered after every attempt; given up');
        return;
      }
      await this.#repo.release(alert.id, this.#holder);
      log.debug({ ...context, err: error }, 'price alert not delivered; tried again next poll');
      return;
    }
    await hook?.('sent', alert.id);
    await this.#repo.delivered(alert.id, count);
    log.debug(context, 'price alert delivered');
  }

  async #dmChannel(userId: string): Promise<string> {
    const known = this.#dms.get(userId);
    if (known !== undefined) return known;
    const channel = (await this.#deps.rest.post(Routes.userChannels(), {
      body: { recipient_id: userId },
    })) as APIChannel;
    this.#dms.set(userId, channel.id);
    return channel.id;
  }
}

/**
 * The alerts' source for the worker: the background's capacity, planned with the players feed, and
 * Discord's REST API.
 */
export function alertsSource(
  services: {
    readonly translations: Translations;
    readonly config: Pick<Config, 'game' | 'events' | 'follow'>;
  },
  rest: REST,
  demand: DemandReader,
): SourceFactory {
  const capacityPerMinute = followCapacity(services.config);
  return (deps) =>
    new AlertWatch({
      db: deps.db,
      read: marketPriceReader(deps.api),
      scheduler: deps.scheduler,
      clock: deps.clock,
      log: deps.log.child({ part: 'alerts' }),
      rest,
      translations: services.translations,
      capacityPerMinute,
      demand,
      settings: services.config.follow,
    });
}
