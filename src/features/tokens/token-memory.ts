import type { Clock } from '../../core/clock.ts';
import { registerSecret } from '../../log/index.ts';

/**
 * Player access tokens that their owners asked `/me` to remember: in this process's memory only, by
 * Discord user id, never in the store, never logged. An entry lives until the earlier of the token's own
 * expiry and {@link TOKEN_KEEP_MS} after it was given; `forget` drops it at once, and a restart drops
 * everything (there is nothing to reload). Expiry is judged by the services clock: `get` never returns
 * an entry past its time, and a sweep removes such entries even when nobody asks again.
 *
 * The token's `exp` claim is read without verifying the signature (the bot has no key to verify it
 * with), so it is only ever used to keep a token for *less* time than the bound, never for more.
 */
export const TOKEN_KEEP_MS = 15 * 60_000;
export const TOKEN_MEMORY_MAX_ENTRIES = 10_000;
/** How often (real time) a sweep runs while anything is kept. */
const SWEEP_EVERY_MS = 30_000;

interface Entry {
  readonly token: string;
  readonly until: number;
  /** Takes the token off the log redaction's list. */
  readonly unregister: () => void;
}

export interface KeptToken {
  readonly token: string;
  /** Epoch ms (services clock) at which it is dropped. */
  readonly until: number;
}

export interface TokenMemoryOptions {
  readonly keepMs?: number;
  readonly maxEntries?: number;
}

export class AccessTokenMemory {
  readonly #clock: Clock;
  readonly #keepMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Entry>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(clock: Clock, options: TokenMemoryOptions = {}) {
    this.#clock = clock;
    this.#keepMs = options.keepMs ?? TOKEN_KEEP_MS;
    this.#maxEntries = Math.max(1, options.maxEntries ?? TOKEN_MEMORY_MAX_ENTRIES);
  }

  /**
   * Keeps `token` for `userId` until the earlier of `tokenExpiresAt` and the bound; returns that time,
   * or undefined when it would not be kept at all (already past its expiry).
   */
  remember(userId: string, token: string, tokenExpiresAt: number | undefined): number | undefined {
    const now = this.#clock.now();
    const bound = now + this.#keepMs;
    const until =
      tokenExpiresAt === undefined || !Number.isFinite(tokenExpiresAt)
        ? bound
        : Math.min(bound, tokenExpiresAt);
    if (until <= now) return undefined;
    this.#drop(userId);
    this.sweep();
    // Full of live entries: the one kept longest ago goes (insertion order is age order).
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#drop(oldest.value);
    }
    this.#entries.set(userId, { token, until, unregister: registerSecret(token) });
    this.#timer ??= setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();
    return until;
  }

  /** The token kept for `userId`, if any and not yet past its time. */
  get(userId: string): KeptToken | undefined {
    const entry = this.#entries.get(userId);
    if (!entry) return undefined;
    if (entry.until <= this.#clock.now()) {
      this.#drop(userId);
      return undefined;
    }
    return { token: entry.token, until: entry.until };
  }

  /**
   * Drops the token of `userId`, here and, through the relay {@link relayTokenForgets} installed, in
   * every other shard process (DMs are handled by shard 0); true when this process kept one.
   */
  forget(userId: string): boolean {
    const kept = this.forgetHere(userId);
    relay?.(userId);
    return kept;
  }

  /** Drops the token of `userId` in this process only (a forget another shard process relayed). */
  forgetHere(userId: string): boolean {
    const kept = this.get(userId) !== undefined;
    this.#drop(userId);
    return kept;
  }

  /** Removes every entry past its time; returns how many went. */
  sweep(): number {
    const now = this.#clock.now();
    let removed = 0;
    for (const [userId, entry] of this.#entries) {
      if (entry.until <= now) {
        this.#drop(userId);
        removed += 1;
      }
    }
    return removed;
  }

  /** Drops everything (the process stops). */
  clear(): void {
    for (const userId of [...this.#entries.keys()]) this.#drop(userId);
  }

  /** How many tokens are held, including any past their time that no sweep has reached yet. */
  get size(): number {
    return this.#entries.size;
  }

  #drop(userId: string): void {
    const entry = this.#entries.get(userId);
    if (!entry) return;
    this.#entries.delete(userId);
    entry.unregister();
    if (this.#entries.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}

/**
 * One memory per services instance, that is per bot process: a new process (or a test's new services)
 * starts with none. Keyed weakly, so services that are let go take their tokens with them.
 */
const memories = new WeakMap<object, AccessTokenMemory>();
/** The same memories, for a forget relayed from another shard process; held weakly too. */
const inProcess = new Set<WeakRef<AccessTokenMemory>>();
/** Tells the other shard processes of a forget; none outside a shard process. */
let relay: ((userId: string) => void) | undefined;

export function accessTokenMemory(services: { readonly clock: Clock }): AccessTokenMemory {
  let memory = memories.get(services);
  if (!memory) {
    memory = new AccessTokenMemory(services.clock);
    memories.set(services, memory);
    inProcess.add(new WeakRef(memory));
  }
  return memory;
}

/**
 * In a shard process: forgets made here are also told to the other shard processes through `announce`
 * (`shareForgets` of src/processes/ipc.ts carries them); `undefined` stops telling.
 */
export function relayTokenForgets(announce: ((userId: string) => void) | undefined): void {
  relay = announce;
}

/** A forget another shard process told: the user's token goes from every memory of this process. */
export function forgetKeptTokens(userId: string): void {
  for (const ref of inProcess) {
    const memory = ref.deref();
    if (memory === undefined) inProcess.delete(ref);
    else memory.forgetHere(userId);
  }
}

/** Drops every token the services' process keeps (called when it stops). */
export function dropAccessTokens(services: { readonly clock: Clock }): void {
  memories.get(services)?.clear();
}

/**
 * The `exp` claim of a JWT in epoch ms, unverified; undefined when it is missing or unreadable. Only
 * ever used to shorten how long a token is kept.
 */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || payload.length > 8_000) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    if (typeof claims !== 'object' || claims === null) return undefined;
    const exp = (claims as Record<string, unknown>)['exp'];
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
