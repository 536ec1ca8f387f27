import type { Owner } from './fair.ts';
import type { WindowState } from './view.ts';
import type { LimitWindow, Priority } from './window.ts';

export type { WindowState } from './view.ts';

/** What the traffic room offers its callers: a take in the one gate (`gate.ts`), and what it counted. */
export interface TakeRequest {
  readonly windows: readonly LimitWindow[];
  readonly priority: Priority;
  /** The latest clock time the request may start: a take whose slot comes later fails with LimitWaitError. */
  readonly deadline?: number;
  /** Aborts the wait; the take then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Whose request it is: interactive waiters take turns by server, then by user. */
  readonly owner?: Owner | undefined;
  /** Called on every move of the queue while it waits (cheap: the listener bounds what it does). */
  readonly onQueued?: ((place: QueuePlace) => void) | undefined;
}

/** Where a waiter stands in the queue, told to it as the queue moves (`onQueued`). */
export interface QueuePlace {
  /** 1 for the next to go; counts the waiters ahead on the same windows. */
  readonly position: number;
  /** When its slot is expected (clock time), at the present rate. */
  readonly startsAt: number;
}

/** A slot taken. */
export interface Slot {
  /** When it was taken (clock time). */
  readonly at: number;
  /** Counts the request from `at` instead (when it really went out or ended). */
  retime(at: number): Promise<void>;
  /** The request is over (its reply came or it failed): it is no longer in flight in the views. */
  release(): void;
}

export interface SharedLimits {
  /** `redis` when the windows are shared through Redis, `memory` when they are this process's alone. */
  readonly kind: 'memory' | 'redis';
  /** Whether requests are counted with the other processes' right now: false in memory, and while Redis is down. */
  readonly shared: boolean;
  take(request: TakeRequest): Promise<Slot>;
  /** Counts `count` more requests now, past any limit: requests that went out already (retries). */
  record(windows: readonly LimitWindow[], count: number): Promise<void>;
  /** Times of the requests counted in `window` within its last `windowMs`, oldest first. */
  recent(window: LimitWindow): Promise<number[]>;
  /** What a reply said of `window` (its headers): the view counts from it. */
  learn(window: LimitWindow, seen: WindowState): void;
  /** After a 429: nothing more goes out on `window` until `until`. */
  exhaust(window: LimitWindow, until: number): void;
  /** The view of `window`, if a request or a reply made one. */
  view(window: LimitWindow): WindowState | undefined;
  /** Takes waiting now. */
  readonly waiting: number;
  /** Resolves once no pass over the waiters is running (a test's manual clock moves only then). */
  idle(): Promise<void>;
  /** Fails every waiter with LimitsClosedError and closes the store (and its connection). */
  close(): Promise<void>;
}
