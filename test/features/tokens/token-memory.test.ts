import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.ts';
import {
  AccessTokenMemory,
  TOKEN_KEEP_MS,
  accessTokenMemory,
  dropAccessTokens,
  tokenExpiry,
} from '../../../src/features/tokens/token-memory.ts';
import { ManualClock } from '../../support/clock.ts';
import { makeJwt } from '../../support/jwt.ts';

const TOKEN = makeJwt({ alg: 'RS256' }, { sub: '42', exp: 4_000_000_000 });
const OTHER = makeJwt({ alg: 'RS256' }, { sub: '43', exp: 4_000_000_000 });

describe('AccessTokenMemory', () => {
  it('keeps a token for 15 minutes at most, by the clock, even when the token says longer', () => {
    const clock = new ManualClock();
    const memory = new AccessTokenMemory(clock);
    const until = memory.remember('u1', TOKEN, clock.now() + 24 * 3_600_000);
    expect(until).toBe(clock.now() + TOKEN_KEEP_MS);
    clock.set(clock.now() + TOKEN_KEEP_MS - 1);
    expect(memory.get('u1')).toEqual({ token: TOKEN, until });
    clock.set(clock.now() + 1);
    expect(memory.get('u1')).toBeUndefined();
    expect(memory.size).toBe(0);
  });

  it("keeps it only until the token's own expiry when that is sooner; not at all once past", () => {
    const clock = new ManualClock();
    const memory = new AccessTokenMemory(clock);
    expect(memory.remember('u1', TOKEN, clock.now() + 60_000)).toBe(clock.now() + 60_000);
    expect(memory.remember('u2', OTHER, clock.now())).toBeUndefined();
    expect(memory.size).toBe(1);
    clock.set(clock.now() + 60_000);
    expect(memory.get('u1')).toBeUndefined();
  });

  it('is per user: forgetting one leaves the other', () => {
    const clock = new ManualClock();
    const memory = new AccessTokenMemory(clock);
    memory.remember('u1', TOKEN, undefined);
    memory.remember('u2', OTHER, undefined);
    expect(memory.forget('u1')).toBe(true);
    expect(memory.forget('u1')).toBe(false);
    expect(memory.get('u1')).toBeUndefined();
    expect(memory.get('u2')?.token).toBe(OTHER);
  });

  it('sweeps entries past their time without anyone asking for them', () => {
    const clock = new ManualClock();
    const memory = new AccessTokenMemory(clock);
    memory.remember('u1', TOKEN, clock.now() + 1_000);
    memory.remember('u2', OTHER, undefined);
    clock.set(clock.now() + 1_000);
    expect(memory.sweep()).toBe(1);
    expect(memory.size).toBe(1);
    clock.set(clock.now() + TOKEN_KEEP_MS);
    expect(memory.sweep()).toBe(1);
    expect(memory.size).toBe(0);
  });

  it('is bounded: when full, the token kept longest ago goes first', () => {
    const clock = new ManualClock();
    const memory = new AccessTokenMemory(clock, { maxEntries: 3 });
    for (const user of ['a', 'b', 'c']) memory.remember(user, `${TOKEN}${user}`, undefined);
    // Remembering again moves a user to the young end.
    memory.remember('a', `${TOKEN}a2`, undefined);
    memory.remember('d', `${TOKEN}d`, undefined);
    expect(memory.size).toBe(3);
    expect(memory.get('b')).toBeUndefined();
    expect(memory.get('a')?.token).toBe(`${TOKEN}a2`);
    expect(memory.get('c')).toBeDefined();
    expect(memory.get('d')).toBeDefined();
  });

  it('is scrubbed from log lines while kept, and no longer needed once dropped', () => {
    const clock = new ManualClock();
    const memory = new AccessTokenMemory(clock);
    // Not JWT-shaped, so only the registration can scrub it.
    const opaque = 'opaque-player-token-0123456789abcdef';
    const lines: string[] = [];
    const log = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    log.info({ note: `value ${opaque}` }, 'before');
    memory.remember('u1', opaque, undefined);
    log.info({ note: `value ${opaque}` }, 'while kept');
    memory.forget('u1');
    log.info({ note: `value ${opaque}` }, 'after');
    expect(lines[0]).toContain(opaque);
    expect(lines[1]).not.toContain(opaque);
    expect(lines[2]).toContain(opaque);
  });

  it('clear drops everything', () => {
    const clock = new ManualClock();
    const memory = new AccessTokenMemory(clock);
    memory.remember('u1', TOKEN, undefined);
    memory.remember('u2', OTHER, undefined);
    memory.clear();
    expect(memory.size).toBe(0);
    expect(memory.get('u2')).toBeUndefined();
  });
});

describe('one memory per services instance', () => {
  it('a new instance (a new process) has none; dropping one leaves the other', () => {
    const clock = new ManualClock();
    const first = { clock };
    const second = { clock };
    accessTokenMemory(first).remember('u1', TOKEN, undefined);
    expect(accessTokenMemory(first)).toBe(accessTokenMemory(first));
    expect(accessTokenMemory(second).get('u1')).toBeUndefined();
    accessTokenMemory(second).remember('u2', OTHER, undefined);
    dropAccessTokens(first);
    expect(accessTokenMemory(first).size).toBe(0);
    expect(accessTokenMemory(second).size).toBe(1);
  });
});

describe('tokenExpiry', () => {
  it('reads exp in ms, and nothing from what is not a JWT with a numeric exp', () => {
    expect(tokenExpiry(makeJwt({ alg: 'RS256' }, { exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
    expect(tokenExpiry(makeJwt({ alg: 'RS256' }, { exp: '1800000000' }))).toBeUndefined();
    expect(tokenExpiry(makeJwt({ alg: 'RS256' }, {}))).toBeUndefined();
    expect(tokenExpiry('not-a-jwt')).toBeUndefined();
    expect(tokenExpiry('a.!!!.c')).toBeUndefined();
    expect(tokenExpiry(`a.${'A'.repeat(9_000)}.c`)).toBeUndefined();
  });
});
