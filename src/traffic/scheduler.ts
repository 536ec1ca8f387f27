/**
 * The background scheduler: every background reader of the game API (the events feed, turf, the players
 * feed's refreshes and tracking) takes its turn here. Commands never do: they go straight to the tier
 * client, whose limits (`src/limits`) serve interactive requests first and keep a reserve of the key's
 * window that background requests leave free. What is left is shared here in a fair rotation: each owner
 * (a source, a server's tracked players, the linked players) has a queue of its own, and turns go round
 * the owners, so one server's fifty tracked players wait behind another's two no longer than one turn.
 *
 * At most `concurrency` background calls are under way at once; each still waits in the tier client for
 * its slot of the window, so this decides the order of background work, and the limits its pace.
 */
export interface SchedulerOptions {
  /** Background calls under way at once; default 2. */
  readonly concurrency?: number;
}

interface Turn {
  readonly start: () => void;
  readonly onAbort: () => void;
}

export class BackgroundScheduler {
  readonly #concurrency: number;
  /**
   * Waiting turns per owner, in arrival order. The map's order is the ring: the first owner has the next
   * turn, and an owner that had one goes to the end (a new owner joins at the end).
   */
  readonly #queues = new Map<string, Turn[]>();
  #running = 0;
  #served = 0;

  constructor(options: SchedulerOptions = {}) {
    this.#concurrency = Math.max(1, options.concurrency ?? 2);
  }

  /** Turns waiting now. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.#queues.values()) count += queue.length;
    return count;
  }

  /** Turns given since start. */
  get served(): number {
    return this.#served;
  }

  /**
   * Runs `work` when its owner's turn comes and resolves with its result. Rejects with the signal's reason
   * when aborted while waiting (a started work sees the same signal).
   */
  async run<T>(owner: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const queue = this.#queues.get(owner) ?? [];
      this.#queues.set(owner, queue);
      const turn: Turn = {
        start: () => {
          signal?.removeEventListener('abort', turn.onAbort);
          resolve();
        },
        onAbort: () => {
          const index = queue.indexOf(turn);
          if (index >= 0) queue.splice(index, 1);
          if (queue.length === 0 && this.#queues.get(owner) === queue) this.#queues.delete(owner);
          const reason: unknown = signal?.reason;
          reject(reason instanceof Error ? reason : new Error('the wait for a turn was aborted'));
        },
      };
      signal?.addEventListener('abort', turn.onAbort, { once: true });
      queue.push(turn);
      this.#pump();
    });
    try {
      return await work();
    } finally {
      this.#running -= 1;
      this.#pump();
    }
  }

  /** Gives turns while there is room: the owner first in the ring goes, then to the ring's end. */
  #pump(): void {
    while (this.#running < this.#concurrency) {
      const next = this.#queues.entries().next();
      if (next.done) return;
      const [owner, queue] = next.value;
      const turn = queue.shift();
      this.#queues.delete(owner);
      if (queue.length > 0) this.#queues.set(owner, queue);
      if (!turn) continue;
      this.#running += 1;
      this.#served += 1;
      turn.start();
    }
  }
}

/**
 * What the background can count on per minute: the key's window less the reserve kept for commands and
 * what the fixed-rate feeds take (the events feed's own budget, the turf poll).
 */
export function backgroundCapacity(parts: {
  readonly limit: number;
  readonly reserve: number;
  readonly windowMs: number;
  /** Requests a minute the fixed-rate feeds use at most. */
  readonly feedsPerMinute: number;
}): number {
  const perMinute = ((parts.limit - parts.reserve) * 60_000) / parts.windowMs;
  return Math.max(1, perMinute - parts.feedsPerMinute);
}
