import { setTimeout as delay } from 'node:timers/promises';

/** Time, injectable so that benchmarks can run an hour of traffic in seconds. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    await delay(Math.max(0, ms), undefined, signal ? { signal } : {});
  },
};

/** `systemClock.sleep` that does not keep the process alive: for timeouts and watchdogs. */
export const unrefSleep: Clock['sleep'] = (ms, signal) =>
  delay(Math.max(0, ms), undefined, { ref: false, ...(signal ? { signal } : {}) });
