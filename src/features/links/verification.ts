import { randomInt } from 'node:crypto';
import type { PlayerPost } from '../../api/schemas/index.ts';
import type { Services } from '../../services.ts';
import type { Namespace } from '../../store/index.ts';

/**
 * Proof that a Discord user controls a game account: the bot hands out a short one-time code, the
 * player posts it on their game profile, and `/link verify` finds it among the latest posts. A code
 * lives 10 minutes and allows a few checks; a user may start a few codes an hour. The code proves
 * nothing by itself (anyone can read it once posted), so it is stored as is.
 */
export const CODE_LIFETIME_MS = 10 * 60_000;
export const MAX_CHECKS_PER_CODE = 5;
export const MAX_CODES_PER_HOUR = 5;
const HOUR_MS = 60 * 60_000;

/** No 0/O, 1/I/L: easy to copy by hand. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CODE_LENGTH = 6;
export const CODE_PREFIX = 'KF-';
export const CODE_PATTERN = new RegExp(`^${CODE_PREFIX}[${ALPHABET}]{${CODE_LENGTH}}$`);

export interface PendingLink {
  readonly playerName: string;
  readonly code: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export type StartResult =
  | { readonly ok: true; readonly pending: PendingLink }
  | { readonly ok: false; readonly reason: 'too_many_codes'; readonly retryAt: number };

export type CheckSlot =
  | { readonly ok: true; readonly pending: PendingLink; readonly check: number; readonly checksLeft: number }
  | { readonly ok: false; readonly reason: 'none' | 'expired' | 'no_checks_left' };

export function generateCode(pick: (max: number) => number = randomInt): string {
  let code = CODE_PREFIX;
  for (let i = 0; i < CODE_LENGTH; i += 1) code += ALPHABET[pick(ALPHABET.length)] ?? '';
  return code;
}

/** Whether one of the posts carries the code (case and spacing as a player might type it). */
export function postsCarryCode(posts: readonly Pick<PlayerPost, 'text'>[], code: string): boolean {
  const wanted = normalise(code);
  return posts.some((post) => normalise(post.text).includes(wanted));
}

function normalise(text: string): string {
  return text.toUpperCase().replace(/[\s\u200B-\u200D\uFEFF]+/g, '');
}

export class LinkVerifications {
  readonly #pending: Namespace<PendingLink>;
  /** Counters built from `add`, so that concurrent checks or starts cannot pass the limits. */
  readonly #slots: Namespace<number>;

  constructor(pending: Namespace<PendingLink>, slots: Namespace<number>) {
    this.#pending = pending;
    this.#slots = slots;
  }

  /** Starts a verification for `userId`, replacing any code they had. */
  async start(
    userId: string,
    playerName: string,
    now: number,
    code: string = generateCode(),
  ): Promise<StartResult> {
    const hour = Math.floor(now / HOUR_MS);
    let taken = false;
    for (let n = 1; n <= MAX_CODES_PER_HOUR && !taken; n += 1) {
      taken = await this.#slots.add(`start:${userId}:${hour}:${n}`, n, HOUR_MS);
    }
    if (!taken) return { ok: false, reason: 'too_many_codes', retryAt: (hour + 1) * HOUR_MS };
    const pending: PendingLink = { playerName, code, issuedAt: now, expiresAt: now + CODE_LIFETIME_MS };
    await this.#pending.set(userId, pending, CODE_LIFETIME_MS);
    return { ok: true, pending };
  }

  async current(userId: string, now: number): Promise<PendingLink | undefined> {
    const pending = await this.#pending.get(userId);
    return pending && pending.expiresAt > now ? pending : undefined;
  }

  /** Takes one of the code's checks; each call counts, whatever the check then finds. */
  async takeCheck(userId: string, now: number): Promise<CheckSlot> {
    const pending = await this.#pending.get(userId);
    if (pending === undefined) return { ok: false, reason: 'none' };
    if (pending.expiresAt <= now) {
      await this.#pending.delete(userId);
      return { ok: false, reason: 'expired' };
    }
    const ttl = Math.max(1, pending.expiresAt - now);
    for (let n = 1; n <= MAX_CHECKS_PER_CODE; n += 1) {
      if (await this.#slots.add(`check:${userId}:${pending.code}:${n}`, n, ttl)) {
        return { ok: true, pending, check: n, checksLeft: MAX_CHECKS_PER_CODE - n };
      }
    }
    await this.#pending.delete(userId);
    return { ok: false, reason: 'no_checks_left' };
  }

  /** Ends the verification (linked, or cancelled by /unlink). */
  async finish(userId: string): Promise<void> {
    await this.#pending.delete(userId);
  }
}

export function linkVerifications(services: Pick<Services, 'store'>): LinkVerifications {
  return new LinkVerifications(
    services.store.namespace<PendingLink>('link-codes'),
    services.store.namespace<number>('link-slots'),
  );
}
