import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import { FairQueue } from './fair.ts';
import type { QueuePlace, SharedLimits, Slot, TakeRequest, WindowState } from './limits.ts';
import { StoreBlocks, WindowView } from './view.ts';
import { WakeTimer } from './wake.ts';
import {
  claimOf,
  LimitsClosedError,
  LimitWaitError,
  windowKey,
  type Claim,
  type LimitWindow,
  type Priority,
  type WindowStore,
} from './window.ts';

interface Waiter {
  /** Granted, refused or aborted: no longer waiting. */
  done: boolean;
  readonly keys: readonly string[];
  readonly views: readonly WindowView[];
  /** The windows the store counts (those of a finite limit). */
  readonly claims: readonly Claim[];
  readonly priority: Priority;
  readonly deadline: number;
  readonly onQueued: ((place: QueuePlace) => void) | undefined;
  readonly resolve: (slot: Slot) => void;
  readonly reject: (error: unknown) => void;
  readonly detach: () => void;
}

/** Per window key, the waiters of the running pass still waiting on it: those ahead of the next one. */
type Ahead = Map<string, number>;

/**
 * THE request gate: every request the bot makes against a budget (the game API key's 60 a minute, the
 * events route's 6, Discord's 50 a second, a background planner's share) waits here, in one queue served
 * by one pump. A take names the windows the request belongs to; it is granted once each has a slot:
 *
 * - in this process's **view** of the window: a fixed window counted here and corrected by what the other
 *   side says (`learn`: the `X-RateLimit-*` headers of a reply; `exhaust`: a 429), so that a key already
 *   spent elsewhere is not asked again before its reset;
 * - in the **store**'s sliding window (memory, or Redis shared by every process of the bot), where
 *   background requests leave the window's `reserve` to interactive ones.
 *
 * Order: interactive waiters first, in a fair queue (servers in turn, then users in turn within a server,
 * each user's own in arrival order), then background ones in arrival order; a waiter never overtakes an
 * earlier one on a window the earlier one waits for. Only the waiters that may go now ask the store, so a
 * hundred waiters cost no round trips while their window is full. Each pass projects when every waiter's
 * slot comes (from the views and the waiters ahead of it) and refuses at once, with LimitWaitError, the
 * ones whose slot would come after their deadline; the others are told their place (`onQueued`). A refusal
 * of the store says exactly when room comes back; the pump sleeps until then, on the clock, so a manual
 * clock drives it.
 */
export class LimitGate implements SharedLimits {
  readonly #store: WindowStore;
  readonly #clock: Clock;
  readonly #prefix: string;
  /** Request ids are unique across processes: this process's tag, then a counter. */
  readonly #tag = randomUUID().slice(0, 8);
  #ids = 0;
  readonly #views = new Map<string, WindowView>();
  /** Interactive waiters, in turns by server then user. */
  readonly #fair = new FairQueue<Waiter>();
  /** Background waiters, in arrival order, after every interactive one. */
  #background: Waiter[] = [];
  #count = 0;
  readonly #blocked = new StoreBlocks();
  #pumping = false;
  #again = false;
  #idlers: Array<() => void> = [];
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

  idle(): Promise<void> {
    if (!this.#pumping) return Promise.resolve();
    return new Promise((resolve) => this.#idlers.push(resolve));
  }

  take(request: TakeRequest): Promise<Slot> {
    let claims: Claim[];
    try {
      claims = request.windows.filter(isCounted).map((window) => claimOf(window, this.#prefix));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return new Promise<Slot>((resolve, reject) => {
      if (this.#closed) return reject(new LimitsClosedError());
      const signal = request.signal;
      if (signal?.aborted) return reject(reasonOf(signal));
      const onAbort = () => {
        if (!this.#dequeue(waiter, false) || !signal) return;
        reject(reasonOf(signal));
        // The waiters it held back may go now.
        void this.#pump();
      };
      const keys = request.windows.map((window) => windowKey(window, this.#prefix));
      const waiter: Waiter = {
        done: false,
        keys,
        views: request.windows.map((window, i) => this.#viewOf(keys[i] ?? '', window)),
        claims,
        priority: request.priority,
        deadline: request.deadline ?? Infinity,
        onQueued: request.onQueued,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (waiter.priority === 'interactive') this.#fair.push(waiter, request.owner);
      else this.#background.push(waiter);
      this.#count += 1;
      void this.#pump();
    });
  }

  async record(windows: readonly LimitWindow[], count: number): Promise<void> {
    if (count <= 0) return;
    const claims = windows.filter(isCounted).map((window) => claimOf(window, this.#prefix));
    if (claims.length === 0) return;
    const members = Array.from({ length: count }, () => this.#nextId());
    await this.#store.record(claims, members, this.#clock.now());
  }

  recent(window: LimitWindow): Promise<number[]> {
    return this.#store.recent(claimOf(window, this.#prefix), this.#clock.now());
  }

  learn(window: LimitWindow, seen: WindowState): void {
    this.#viewOf(windowKey(window, this.#prefix), window).learn(seen, this.#clock.now());
    void this.#pump();
  }

  exhaust(window: LimitWindow, until: number): void {
    this.#viewOf(windowKey(window, this.#prefix), window).exhaust(until);
    void this.#pump();
  }

  view(window: LimitWindow): WindowState | undefined {
    return this.#views.get(windowKey(window, this.#prefix))?.state;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake.cancel();
    for (const waiter of this.#order()) {
      if (this.#dequeue(waiter, false)) waiter.reject(new LimitsClosedError());
    }
    await this.#store.close();
  }

  #viewOf(key: string, window: LimitWindow): WindowView {
    let view = this.#views.get(key);
    if (!view) {
      view = new WindowView(window.limit, window.windowMs);
      this.#views.set(key, view);
    }
    return view;
  }

  #nextId(): string {
    return `${this.#tag}:${(this.#ids++).toString(36)}`;
  }

  /** Every waiter in the order it is served: the fair queue, then background ones. */
  #order(): Waiter[] {
    return [...this.#fair.order(), ...this.#background];
  }

  /** Takes a waiter out of the queue (false when it was already): `served` when its slot came. */
  #dequeue(waiter: Waiter, served: boolean): boolean {
    if (waiter.done) return false;
    waiter.done = true;
    this.#count -= 1;
    waiter.detach();
    if (waiter.priority === 'interactive') {
      if (served) this.#fair.served(waiter);
      else this.#fair.remove(waiter);
    } else {
      const index = this.#background.indexOf(waiter);
      if (index >= 0) this.#background.splice(index, 1);
    }
    return true;
  }

  /** One pass at a time; a change during a pass (a new waiter, a reply, an abort) runs another after it. */
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

  /** Whether something changed during the last pass (read after an await, so not narrowed away). */
  #passAgain(): boolean {
    return this.#again && !this.#closed;
  }

  async #pass(): Promise<void> {
    let wakeAt = Infinity;
    // Windows an earlier waiter of this pass waits for: later ones do not overtake it there.
    const held = new Set<string>();
    const ahead: Ahead = new Map();
    this.#blocked.sweep(this.#clock.now());
    for (const waiter of this.#order()) {
      if (this.#closed) return;
      if (waiter.done) continue;
      const now = this.#clock.now();
      for (const view of waiter.views) view.refill(now);
      const stored = Math.max(
        -Infinity,
        ...waiter.claims.map((claim) => this.#blocked.until(claim.key, waiter.priority, now)),
      );
      const free =
        waiter.keys.every((key) => !held.has(key)) &&
        !waiter.views.some((view) => view.full) &&
        stored <= now;
      let freeAt = now;
      if (free && now <= waiter.deadline) {
        const outcome = await this.#try(waiter, now);
        if (outcome === 'granted') continue;
        freeAt = outcome;
      }
      const place = this.#project(waiter, ahead, Math.max(stored, freeAt), now);
      if (place.startsAt > waiter.deadline) {
        // One that gives up holds nothing back: the next waiter is judged on its own.
        if (this.#dequeue(waiter, false))
          waiter.reject(new LimitWaitError(place.startsAt - now, place.startsAt - waiter.deadline));
        continue;
      }
      for (const key of waiter.keys) ahead.set(key, (ahead.get(key) ?? 0) + 1);
      // Only what is full is held for this waiter: later waiters on its other windows may go on.
      waiter.keys.forEach((key, i) => {
        const view = waiter.views[i];
        if (view?.full || this.#blocked.until(key, waiter.priority, now) > now) held.add(key);
      });
      const readyAt = Math.max(
        stored,
        freeAt,
        ...waiter.views.filter((view) => view.full).map((view) => view.resetAt),
      );
      if (readyAt > now) wakeAt = Math.min(wakeAt, readyAt);
      waiter.onQueued?.(place);
    }
    this.#schedule(wakeAt);
  }

  /**
   * Takes the waiter's slot in its views, then in the store: `granted`, or when the store has room again
   * (the views' slots given back).
   */
  async #try(waiter: Waiter, now: number): Promise<'granted' | number> {
    for (const view of waiter.views) view.take(now);
    const member = this.#nextId();
    let outcome;
    try {
      outcome =
        waiter.claims.length === 0
          ? ({ granted: true } as const)
          : await this.#store.take(waiter.claims, member, now, waiter.priority);
    } catch (error) {
      for (const view of waiter.views) view.giveBack();
      if (this.#dequeue(waiter, false)) waiter.reject(error);
      return 'granted';
    }
    if (outcome.granted) {
      // Aborted while its take was on the way: the slot stays counted, which errs on the safe side.
      if (this.#dequeue(waiter, true)) waiter.resolve(this.#slot(waiter, member, now));
      return 'granted';
    }
    // Nothing goes out: the views' slots are given back (a refused background take must not use up the
    // room kept for commands).
    for (const view of waiter.views) view.giveBack();
    let freeAt = now;
    for (const { index, freeAt: at } of outcome.refusals) {
      const claim = waiter.claims[index];
      if (!claim) continue;
      this.#blocked.block(claim.key, waiter.priority, at);
      freeAt = Math.max(freeAt, at);
    }
    return freeAt;
  }

  #slot(waiter: Waiter, member: string, at: number): Slot {
    let released = false;
    return {
      at,
      retime: (when) =>
        waiter.claims.length === 0 ? Promise.resolve() : this.#store.record(waiter.claims, [member], when),
      release: () => {
        if (released) return;
        released = true;
        for (const view of waiter.views) view.done();
      },
    };
  }

  /**
   * Where `waiter` stands, and when its slot is expected: on each of its windows, the waiters ahead of it
   * take what is left of the view, then whole windows one after another; it goes once every window has a
   * slot for it, and not before the store has room (`storeAt`).
   */
  #project(waiter: Waiter, ahead: Ahead, storeAt: number, now: number): QueuePlace {
    let startsAt = Math.max(now, storeAt);
    let position = 1;
    waiter.keys.forEach((key, i) => {
      const view = waiter.views[i];
      if (!view) return;
      const before = ahead.get(key) ?? 0;
      position = Math.max(position, before + 1);
      startsAt = Math.max(startsAt, view.startFor(before, now));
    });
    return { position, startsAt };
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

/** Whether the store counts `window`: a window without a finite limit is only this process's view. */
function isCounted(window: LimitWindow): boolean {
  return Number.isFinite(window.limit);
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
