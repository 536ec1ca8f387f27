import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CODE_LIFETIME_MS,
  CODE_PATTERN,
  generateCode,
  LinkVerifications,
  linkVerifications,
  MAX_CHECKS_PER_CODE,
  MAX_CODES_PER_HOUR,
  postsCarryCode,
} from '../../../src/features/links/verification.ts';
import { createStore, type Store } from '../../../src/store/index.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
let store: Store;
let links: LinkVerifications;

beforeEach(async () => {
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  links = linkVerifications({ store });
});
afterEach(async () => store.close());

describe('codes', () => {
  it('are short, prefixed and easy to copy', () => {
    const codes = new Set(Array.from({ length: 500 }, () => generateCode()));
    for (const code of codes) expect(code).toMatch(CODE_PATTERN);
    expect(codes.size).toBeGreaterThan(490);
    expect(generateCode(() => 0)).toBe('KF-222222');
  });

  it('are found in a post whatever the case and spacing the player typed', () => {
    const posts = [{ text: 'gg' }, { text: 'my discord code: kf- abc 234 thanks' }];
    expect(postsCarryCode(posts, 'KF-ABC234')).toBe(true);
    expect(postsCarryCode(posts, 'KF-ABC235')).toBe(false);
    expect(postsCarryCode([], 'KF-ABC234')).toBe(false);
  });
});

describe('a verification', () => {
  it('starts with a code valid for 10 minutes, and replaces an earlier one', async () => {
    const first = await links.start('u1', 'Ghost', NOW, 'KF-AAAAAA');
    expect(first).toEqual({
      ok: true,
      pending: { playerName: 'Ghost', code: 'KF-AAAAAA', issuedAt: NOW, expiresAt: NOW + CODE_LIFETIME_MS },
    });
    await links.start('u1', 'Other', NOW + 1000, 'KF-BBBBBB');
    expect((await links.current('u1', NOW + 2000))?.code).toBe('KF-BBBBBB');
    expect(await links.current('u2', NOW)).toBeUndefined();
  });

  it('allows a limited number of checks per code, then ends', async () => {
    await links.start('u1', 'Ghost', NOW, 'KF-AAAAAA');
    for (let n = 1; n <= MAX_CHECKS_PER_CODE; n += 1) {
      expect(await links.takeCheck('u1', NOW + n)).toMatchObject({
        ok: true,
        check: n,
        checksLeft: MAX_CHECKS_PER_CODE - n,
      });
    }
    expect(await links.takeCheck('u1', NOW + 10)).toEqual({ ok: false, reason: 'no_checks_left' });
    expect(await links.takeCheck('u1', NOW + 11)).toEqual({ ok: false, reason: 'none' });
  });

  it('counts concurrent checks exactly', async () => {
    await links.start('u1', 'Ghost', NOW, 'KF-AAAAAA');
    const results = await Promise.all(Array.from({ length: 12 }, () => links.takeCheck('u1', NOW)));
    expect(results.filter((r) => r.ok)).toHaveLength(MAX_CHECKS_PER_CODE);
  });

  it('gives a new code fresh checks', async () => {
    await links.start('u1', 'Ghost', NOW, 'KF-AAAAAA');
    for (let n = 0; n <= MAX_CHECKS_PER_CODE; n += 1) await links.takeCheck('u1', NOW);
    await links.start('u1', 'Ghost', NOW, 'KF-BBBBBB');
    expect(await links.takeCheck('u1', NOW)).toMatchObject({ ok: true, check: 1 });
  });

  it('expires after 10 minutes', async () => {
    await links.start('u1', 'Ghost', NOW, 'KF-AAAAAA');
    expect((await links.takeCheck('u1', NOW + CODE_LIFETIME_MS - 1)).ok).toBe(true);
    expect(await links.current('u1', NOW + CODE_LIFETIME_MS)).toBeUndefined();
    expect(await links.takeCheck('u1', NOW + CODE_LIFETIME_MS)).toEqual({ ok: false, reason: 'expired' });
    expect(await links.takeCheck('u1', NOW + CODE_LIFETIME_MS)).toEqual({ ok: false, reason: 'none' });
  });

  it('limits how many codes a user may start in an hour', async () => {
    for (let n = 0; n < MAX_CODES_PER_HOUR; n += 1)
      expect((await links.start('u1', 'Ghost', NOW)).ok).toBe(true);
    const refused = await links.start('u1', 'Ghost', NOW);
    expect(refused).toEqual({
      ok: false,
      reason: 'too_many_codes',
      retryAt: Date.UTC(2026, 10, 21, 13, 0, 0),
    });
    expect((await links.start('u2', 'Ghost', NOW)).ok).toBe(true);
    expect((await links.start('u1', 'Ghost', NOW + 60 * 60_000)).ok).toBe(true);
  });

  it('is ended by finish', async () => {
    await links.start('u1', 'Ghost', NOW, 'KF-AAAAAA');
    await links.finish('u1');
    expect(await links.current('u1', NOW)).toBeUndefined();
  });
});
