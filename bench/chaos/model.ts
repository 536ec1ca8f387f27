import type { LoadedCommand } from '../../src/discord/command.ts';
import type { CommunityMap, Sandbox } from '../../src/dev/sandbox/index.ts';
import type { DiscordStandin } from '../../src/dev/standin/index.ts';
import type { BotHandle } from './bot-handle.ts';
import type { AnnouncementCount, CommandSpec } from './measure.ts';
import type { PrivateRedis } from './redis.ts';
import type { TcpGate } from './tcp-gate.ts';
import type { UpstreamProxy } from './upstream-proxy.ts';

/**
 * The same timeline in every scenario: commands at a steady pace, featured maps announced, the fault on
 * between `faultOnMs` and `faultOffMs` of the window, then time to settle.
 */
export const TIMELINE = {
  commands: 12,
  firstCommandMs: 300,
  commandEveryMs: 600,
  publishAtMs: [500, 3_500, 6_500],
  faultOnMs: 1_000,
  faultOffMs: 6_000,
  windowMs: 8_000,
  /** After the window: until every command has its reply and every announcement is out, at most this. */
  settleMs: 8_000,
  finalTimeoutMs: 8_000,
  announcementChannels: 3,
} as const;

/** The bot process's descriptor limit, what `ulimit -n` is on most Linux hosts. */
export const BOT_FD_LIMIT = 1_024;

export interface ScenarioContext {
  readonly sandbox: Sandbox;
  readonly discord: DiscordStandin;
  readonly upstream: UpstreamProxy;
  readonly bot: BotHandle;
  readonly redis: PrivateRedis | undefined;
  readonly gate: TcpGate | undefined;
  readonly webhookPort: number;
  readonly note: (text: string) => void;
}

export interface PrepareContext {
  readonly sandbox: Sandbox;
  readonly upstream: UpstreamProxy;
  /** The maps the run features, in order. */
  readonly maps: readonly CommunityMap[];
  /** A map whose announcements show another name than the sandbox's (for counting them). */
  readonly showMapAs: (mapId: number, name: string) => void;
}

/** Turns a fault off again. */
export type Undo = (() => unknown) | undefined;

export interface Scenario {
  readonly name: string;
  readonly store: 'sqlite' | 'redis';
  /** Before the bot starts (upstream rewrites that hold for the whole run). */
  prepare?(ctx: PrepareContext): void;
  /** Subscribes one more channel to turf announcements for a clan. */
  readonly turf?: boolean;
  /** The poller's interval, when the scenario needs polls within the run. */
  readonly pollIntervalMs?: number;
  /** The run's commands, from the standard ones. */
  commands?(standard: readonly CommandSpec[], sandbox: Sandbox): CommandSpec[];
  /**
   * Turns the fault on (at `faultOnMs`); what it returns turns it off again, at `faultOffMs` or, when
   * the run fails first, before the stack stops. A fault that returns nothing stays on (bounded faults).
   */
  fault?(ctx: ScenarioContext): Undo | Promise<Undo>;
  /** A run of its own instead of the timeline (no bot process, no commands): it fills the row. */
  standalone?(row: Row, shared: Shared, index: number): Promise<void>;
}

export interface Row {
  readonly name: string;
  commands?: {
    readonly total: number;
    readonly inTime: number;
    /** Got a final reply of any kind; `errors` and `wentWrong` of them are error messages. */
    readonly replied: number;
    readonly errors: number;
    readonly wentWrong: number;
  };
  announcements?: AnnouncementCount;
  delay?: { readonly maxMs: number; readonly exact: boolean };
  peakRssMb?: number;
  /** Members still holding a role the bot gave once its rule was removed (role sync rows; goal 0). */
  rolesLeftBehind?: number;
  readonly notes: string[];
  error?: string;
  seconds?: number;
}

/** What every scenario of a run shares. */
export interface Shared {
  readonly commands: readonly LoadedCommand[];
  readonly dir: string;
  readonly redisServer: string | undefined;
}
