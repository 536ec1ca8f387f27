import type { Logger } from 'pino';
import type { Event } from '../api/schemas/index.ts';
import type { Config } from '../config/index.ts';
import type { Clock } from '../core/clock.ts';
import type { Inbox } from './inbox.ts';
import type { Leadership } from './leadership.ts';
import type { AnnouncementEvent, Subscription } from './model.ts';
import type { Outbox } from './outbox.ts';
import { fromApiEvent } from './sources.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook.ts';

/** How long a featured map's webhook delivery waits for the map's details (then stored without). */
const WEBHOOK_DETAILS_MS = 5_000;

/** Adds a featured map's votes, plays and creator to its event (the events feed: `EventsFeed`). */
export interface MapDetails {
  withMapDetails(event: AnnouncementEvent, signal: AbortSignal): Promise<AnnouncementEvent>;
}

export interface WebhookIngressDeps {
  readonly inbox: Inbox;
  readonly outbox: Outbox;
  /** Only the worker delivers: the outbox is kicked under its term, when this process has one. */
  readonly leadership: Leadership;
  readonly subscriptions: () => Promise<readonly Subscription[]>;
  /** Absent without an API key (no events feed): pushed featured maps are then stored without details. */
  readonly details?: MapDetails | undefined;
  readonly clock: Clock;
  /** Aborted when the pipeline stops. */
  readonly stopping: AbortSignal;
}

/**
 * The webhook's way into the pipeline: a verified event the game pushed (`webhook.ts` checks the
 * signature) goes to the inbox like a polled one, and the outbox is kicked. Any process may receive;
 * only the worker delivers, so a standby's event waits in the inbox for it. The sender is answered once
 * the event is stored: an event already pending or done (polled, or pushed twice) is acknowledged and
 * not repeated.
 */
export class WebhookIngress {
  readonly #deps: WebhookIngressDeps;

  constructor(deps: WebhookIngressDeps) {
    this.#deps = deps;
  }

  /** Stores a pushed event; resolves once it is safely stored (or not wanted). */
  readonly receive = async (pushed: Event): Promise<void> => {
    const { inbox, outbox, leadership, clock, stopping } = this.#deps;
    let event = fromApiEvent(pushed, clock.now());
    const subscriptions = await this.#deps.subscriptions();
    if (!inbox.wants(event, subscriptions)) return;
    event = await this.#withDetails(event);
    if (!(await inbox.offer(event, subscriptions))) return;
    const term = leadership.term;
    if (term) outbox.kick(AbortSignal.any([stopping, term]));
  };

  /**
   * A featured map's votes, plays and creator, as the poller adds them: within a bound, so that the
   * sender is answered in time; without them when they do not come.
   */
  async #withDetails(event: AnnouncementEvent): Promise<AnnouncementEvent> {
    const { details, stopping } = this.#deps;
    if (!details || (event.type !== 'map.featured' && event.type !== 'map.unfeatured')) return event;
    const bound = AbortSignal.any([stopping, AbortSignal.timeout(WEBHOOK_DETAILS_MS)]);
    return details.withMapDetails(event, bound).catch(() => event);
  }
}

/** Tuning of the receiver, mainly for tests. */
export interface ReceiverOptions {
  readonly webhookHost?: string | undefined;
  readonly webhookTimeoutMs?: number | undefined;
  readonly webhookMaxBodyBytes?: number | undefined;
  /** Connections the receiver holds at once; default 256. */
  readonly webhookMaxConnections?: number | undefined;
}

/** The receiver listening, or why it is not. */
export interface Listening {
  readonly receiver: WebhookReceiver | undefined;
  /** Why a configured receiver is not listening (e.g. `EADDRINUSE`). */
  readonly error: string | undefined;
}

/**
 * Starts the signed webhook receiver in front of the ingress, when the configuration asks for one. A
 * receiver that cannot listen loses only itself (the sender retries; the poller still finds every event):
 * said loudly, and polling goes on.
 */
export async function listenForWebhooks(
  webhook: Config['webhook'],
  ingress: WebhookIngress,
  options: ReceiverOptions & { readonly clock: Clock; readonly log: Logger },
): Promise<Listening> {
  if (!webhook) return { receiver: undefined, error: undefined };
  const { clock, log } = options;
  try {
    const receiver = await startWebhookReceiver({
      port: webhook.port,
      host: options.webhookHost,
      path: webhook.path,
      secret: webhook.secret,
      service: webhook.service,
      toleranceSeconds: webhook.toleranceSeconds,
      clock,
      log: log.child({ part: 'webhook' }),
      ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
      ...(options.webhookMaxBodyBytes === undefined ? {} : { maxBodyBytes: options.webhookMaxBodyBytes }),
      ...(options.webhookMaxConnections === undefined
        ? {}
        : { maxConnections: options.webhookMaxConnections }),
      onEvent: ingress.receive,
    });
    log.info({ url: receiver.url }, 'webhook receiver listening');
    return { receiver, error: undefined };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'failed';
    log.error(
      { port: webhook.port, code, err: error },
      'webhook receiver could not start; announcements go on by polling only',
    );
    return { receiver: undefined, error: code };
  }
}
