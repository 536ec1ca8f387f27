/**
 * What the instrumented code tells the metrics, as plain types: the interaction router, the tier client
 * and the announcements depend on these small interfaces, never on prom-client. `Metrics` (index.ts)
 * implements them; a test may pass its own.
 *
 * Every label value the metrics keep comes from a closed set: command and route names from our own
 * tables, outcomes and states from the unions below. User or game text never becomes a label.
 */

/** How an interaction reached the bot. */
export type CommandKind = 'command' | 'component' | 'modal' | 'autocomplete';

/**
 * How the router finished with an interaction (src/discord/interactions.ts):
 * - `ok`: the handler answered;
 * - `user_error`: refused with a `UserError` (bad input, expired button, restarting...);
 * - `api_error`: the game API said no or failed (not found, rate limited, timeout, 5xx...), shown as such;
 * - `store_down`: the store did not answer;
 * - `failed`: an unexpected error, answered with an incident id;
 * - `timeout`: an autocomplete slower than Discord's window, answered with no choices.
 */
export type CommandOutcome = 'ok' | 'user_error' | 'api_error' | 'store_down' | 'failed' | 'timeout';

export interface CommandRecorder {
  /** One interaction handled: the command's name (from our command table), its kind, outcome and time. */
  command(name: string, kind: CommandKind, outcome: CommandOutcome, seconds: number): void;
}

/** Why a request sent upstream has no status: aborted (its time budget or the caller), no connection, too large. */
export type UpstreamFailure = 'aborted' | 'network' | 'too_large';

/** A rate window as a reply's `X-RateLimit-*` headers describe it (`resetAt` in epoch ms). */
export interface RateWindow {
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: number;
}

export interface UpstreamRecorder {
  /** One request sent to the game API: the route's name in the routes table, and its HTTP status. */
  upstream(route: string, status: number | UpstreamFailure): void;
  /**
   * A reply described a window of the process's own API key: `general` for the key's window, or the name
   * of a route with a window of its own (`events`).
   */
  budgetSeen(window: string, seen: RateWindow): void;
}

/** What is left of one rate window, for the budget gauge. */
export interface BudgetReading {
  readonly window: string;
  readonly limit: number;
  readonly remaining: number;
}

/** The outcomes of a delivery record (`Delivery['outcome']` in src/announcements/model.ts). */
export type DeliveryOutcome = 'sent' | 'edited' | 'skipped' | 'disabled' | 'failed' | 'unconfirmed';

/** A gateway shard's state as the shard manager sees it. */
export type ShardState = 'starting' | 'ready' | 'reconnecting' | 'disconnected' | 'dead';

export const SHARD_STATES: readonly ShardState[] = [
  'starting',
  'ready',
  'reconnecting',
  'disconnected',
  'dead',
];
