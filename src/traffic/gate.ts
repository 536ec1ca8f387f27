import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import { WakeTimer } from './wake.ts';
import {
  claimOf,
  LimitsClosedError,
  LimitWaitError,
  type Claim,
  type LimitWindow,
  type Priority,
  type WindowStore,
} from './window.ts';

/**
 * The request limits as callers use them: `take` waits for a slot in every window a request belongs to and
 * resolves once it is taken. Waiters of this process queue here, interactive before background, then in
 * arrival order, and a waiter never overtakes an earlier one on a window that the earlier one waits for;
 * only the waiters that may go now ask the store, so a hundred background waiters cost no round trips
 * while their window is full. A refusal tells exactly when room comes back, and the queue sleeps until
 * then (on the clock, so a manual clock drives it). Across processes, the store's reserve is what puts
 * interactive requests first: background ones leave it free.
 */
export interface TakeRequest {
  readonly windows: readonly LimitWindow[];
  readonly priority: Priority;
  /** Clock time past which waiting is pointless: a take whose slot frees later fails with LimitWaitError. */
  readonly deadline?: number;
  /** Aborts the wait; the take then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** A slot taken. */
export interface Slot {
  /** When it was taken (clock time). */
  readonly at: number;
  /** Counts the request from `at` instead (when it really went out or ended). */
  retime(at: number): Promise<void>;
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
  /** Takes waiting now. */
  readonly waiting: number;
  /** Resolves once no pass over the waiters is running (a test's manual clock moves only then). */
  idle(): Promise<void>;
  /** Fails every waiter with LimitsClosedError and closes the store (and its connection). */
  close(): Promise<void>;
}

interface Waiter {
  /** Granted, refused or aborted: no longer waiting (dropped from the queue at the next pass). */
  done: boolean;
  readonly claims: readonly Claim[];
  readonly priority: Priority;
  readonly seq: number;
  readonly deadline: number;
  readonly resolve: (slot: Slot) => void;
  readonly reject: (error: unknown) => void;
  readonly detach: () => void;
}

interface Blocked {
  /** Until when the window is full for everyone. */
  interactive: number;
  /** Until when it is full for background requests. */
  background: number;
}

export class LimitGate implements SharedLimits {
  readonly #store: WindowStore;
  readonly #clock: Clock;
  readonly #prefix: string;
  /** Request ids are unique across processes: this process's tag, then a counter. */
  readonly #tag = randomUUID().slice(0, 8);
  #ids = 0;
  #seq = 0;
  /** Interactive first, then background; each in arrival order. Done ones are dropped at each pass. */
  #waiters: Waiter[] = [];
  #count = 0;
  /**
   * When each window has room again, as refusals said: nothing frees a slot earlier (other processes only
   * add requests), so a waiter on a window blocked until later is not tried before then.
   */
  readonly #blocked = new Map<string, Blocked>();
  #pumping = false;
  #idlers: Array<() => void> = [];
  #again = false;
  readonly #wake: WakeTimer;
  #closed = false;

  constructor(store: WindowStore, clock: Clock, prefix: string) {
    this.#store = store;
    this.#clock = clock;
    this.#prefix = prefix;
    this.#wake = new WakeTimer(clock, () => void this.#pump());
  }

  get kind(): 'memory' | 'redis' {
    return this.#store.kind;
  }

  get shared(): boolean {
    return this.#store.shared ?? false;
  }

  get waiting(): number {
    return this.#count;
  }

  /** Resolves once no pass over the waiters is running (a test's manual clock moves only then). */
  idle(): Promise<void> {
    if (!this.#pumping) return Promise.resolve();
    return new Promise((resolve) => this.#idlers.push(resolve));
  }

  take(request: TakeRequest): Promise<Slot> {
    let claims: Claim[];
    try {
      claims = request.windows.map((window) => claimOf(window, this.#prefix));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return new Promise<Slot>((resolve, reject) => {
      if (this.#closed) return reject(new LimitsClosedError());
      const signal = request.signal;
      if (signal?.aborted) return reject(reasonOf(signal));
      const onAbort = () => {
        if (!this.#remove(waiter) || !signal) return;
        reject(reasonOf(signal));
        // The waiters it held back may go now.
        void this.#pump();
      };
      const waiter: Waiter = {
        done: false,
        claims,
        priority: request.priority,
        seq: this.#seq++,
        deadline: request.deadline ?? Infinity,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#enqueue(waiter);
      void this.#pump();
    });
  }

  async record(windows: readonly LimitWindow[], count: number): Promise<void> {
    if (count <= 0) return;
    const claims = windows.map((window) => claimOf(window, this.#prefix));
    const members = Array.from({ length: count }, () => this.#nextId());
    await this.#store.record(claims, members, this.#clock.now());
  }

  recent(window: LimitWindow): Promise<number[]> {
    return this.#store.recent(claimOf(window, this.#prefix), this.#clock.now());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake.cancel();
    for (const waiter of this.#waiters.splice(0)) {
      if (this.#remove(waiter)) waiter.reject(new LimitsClosedError());
    }
    await this.#store.close();
  }

  /** Whether something changed during the last pass (read after an await, so not narrowed away). */
  #passAgain(): boolean {
    return this.#again && !this.#closed;
  }

  #nextId(): string {
    return `${this.#tag}:${(this.#ids++).toString(36)}`;
  }

  /** After the last waiter of its priority (a binary search: the queue is sorted). */
  #enqueue(waiter: Waiter): void {
    let low = 0;
    let high = this.#waiters.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const other = this.#waiters[middle];
      if (other && byPriority(other, waiter) < 0) low = middle + 1;
      else high = middle;
    }
    this.#waiters.splice(low, 0, waiter);
    this.#count += 1;
  }

  /** Marks a waiter done (false when it was already); the queue drops it at the next pass. */
  #remove(waiter: Waiter): boolean {
    if (waiter.done) return false;
    waiter.done = true;
    this.#count -= 1;
    waiter.detach();
    return true;
  }

  /** One pass at a time; a change during a pass (a new waiter, an abort) runs another right after it. */
  async #pump(): Promise<void> {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        await this.#pass();
      } while (this.#passAgain());
    } finally {
      this.#pumping = false;
      for (const idle of this.#idlers.splice(0)) idle();
    }
  }

  async #pass(): Promise<void> {
    let wakeAt = Infinity;
    // Windows an earlier waiter of this pass waits for: later ones do not overtake it there.
    const held = new Set<string>();
    this.#sweepBlocked();
    this.#waiters = this.#waiters.filter((waiter) => !waiter.done);
    for (const waiter of [...this.#waiters]) {
      if (this.#closed) return;
      if (waiter.done) continue;
      const now = this.#clock.now();
      const known = this.#blockedUntil(waiter);
      if (waiter.claims.some((claim) => held.has(claim.key))) {
        // Behind an earlier waiter: it goes after it at the soonest, which may already be too late.
        this.#refuseIfLate(waiter, known.at, now);
        continue;
      }
      if (known.at > now) {
        if (this.#refuseIfLate(waiter, known.at, now)) continue;
        for (const key of known.keys) held.add(key);
        wakeAt = Math.min(wakeAt, known.at);
        continue;
      }
      const member = this.#nextId();
      let outcome;
      try {
        outcome = await this.#store.take(waiter.claims, member, now, waiter.priority);
      } catch (error) {
        if (this.#remove(waiter)) waiter.reject(error);
        continue;
      }
      // Aborted while its take was on the way: the slot stays counted, which errs on the safe side.
      if (isDone(waiter)) continue;
      if (outcome.granted) {
        this.#remove(waiter);
        waiter.resolve(this.#slot(waiter.claims, member, now));
        continue;
      }
      let freeAt = now;
      const refused: string[] = [];
      for (const { index, freeAt: at } of outcome.refusals) {
        const claim = waiter.claims[index];
        if (!claim) continue;
        this.#block(claim.key, waiter.priority, at);
        refused.push(claim.key);
        freeAt = Math.max(freeAt, at);
      }
      // One that gives up holds nothing back: the next waiter is judged on its own (deadline included).
      if (this.#refuseIfLate(waiter, freeAt, now)) continue;
      for (const key of refused) held.add(key);
      wakeAt = Math.min(wakeAt, freeAt);
    }
    this.#schedule(wakeAt);
  }

  #refuseIfLate(waiter: Waiter, freeAt: number, now: number): boolean {
    if (freeAt <= waiter.deadline) return false;
    this.#remove(waiter);
    waiter.reject(new LimitWaitError(freeAt - now));
    return true;
  }

  #slot(claims: readonly Claim[], member: string, at: number): Slot {
    return { at, retime: (when) => this.#store.record(claims, [member], when) };
  }

  #block(key: string, priority: Priority, until: number): void {
    const blocked = this.#blocked.get(key) ?? { interactive: -Infinity, background: -Infinity };
    if (priority === 'interactive') blocked.interactive = Math.max(blocked.interactive, until);
    // Full for interactive requests is full for background ones too.
    blocked.background = Math.max(blocked.background, until);
    this.#blocked.set(key, blocked);
  }

  #blockedUntil(waiter: Waiter): { at: number; keys: string[] } {
    let at = -Infinity;
    const keys: string[] = [];
    const now = this.#clock.now();
    for (const claim of waiter.claims) {
      const blocked = this.#blocked.get(claim.key);
      if (!blocked) continue;
      const until = waiter.priority === 'interactive' ? blocked.interactive : blocked.background;
      if (until > now) keys.push(claim.key);
      at = Math.max(at, until);
    }
    return { at, keys };
  }

  #sweepBlocked(): void {
    const now = this.#clock.now();
    for (const [key, blocked] of this.#blocked) {
      if (blocked.background <= now && blocked.interactive <= now) this.#blocked.delete(key);
    }
  }

  #schedule(at: number): void {
    if (this.#closed) return;
    if (at === Infinity) {
      if (this.#count === 0) this.#wake.cancel();
      return;
    }
    this.#wake.at(at);
  }
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** Read after an await: a waiter may have been aborted meanwhile. */
function isDone(waiter: Waiter): boolean {
  return waiter.done;
}

function byPriority(a: Waiter, b: Waiter): number {
  if (a.priority !== b.priority) return a.priority === 'interactive' ? -1 : 1;
  return a.seq - b.seq;
}
