import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IV_BYTES,
  SEALED_VERSION,
  seal,
  TAG_BYTES,
  unseal,
  UnsealError,
  type SealedSecret,
  type SecretKey,
} from '../../src/secrets/crypto.ts';

const secret: SecretKey = { key: randomBytes(32), keyId: 'a1b2c3d4' };
const binding = (owner: string) => ({ purpose: 'kpd-key', owner });

function flip(base64: string, index: number, mask: number): string {
  const bytes = Buffer.from(base64, 'base64');
  const at = index % bytes.length;
  bytes[at] = (bytes[at] ?? 0) ^ mask;
  return bytes.toString('base64');
}

function rejection(run: () => unknown): UnsealError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof UnsealError) return error;
    throw error;
  }
  return undefined;
}

const plaintexts = fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' });
const guildIds = fc.stringMatching(/^\d{17,20}$/);
const byteMask = fc.integer({ min: 1, max: 255 });

describe('sealing', () => {
  it('opens what it sealed, for the same key and guild', () => {
    fc.assert(
      fc.property(plaintexts, guildIds, (plaintext, guild) => {
        const sealed = seal(secret, plaintext, binding(guild));
        expect(unseal(secret, sealed, binding(guild))).toBe(plaintext);
      }),
    );
  });

  it('stores a versioned record of base64 parts: 12-byte IV, 16-byte tag, no plaintext', () => {
    const plaintext = `kr_${randomBytes(20).toString('hex')}`;
    const sealed = seal(secret, plaintext, binding('123456789012345678'));
    expect(sealed.v).toBe(SEALED_VERSION);
    expect(sealed.kid).toBe(secret.keyId);
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(IV_BYTES);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(TAG_BYTES);
    expect(Buffer.from(sealed.ct, 'base64')).toHaveLength(Buffer.byteLength(plaintext));
    const stored = JSON.stringify(sealed);
    expect(stored).not.toContain(plaintext);
    expect(stored).not.toContain(plaintext.slice(3, 20));
  });

  it('uses a fresh IV each time, so the same secret never seals the same way twice', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const sealed = seal(secret, 'kr_same_secret_value', binding('1'));
      seen.add(sealed.iv);
      seen.add(sealed.ct + sealed.tag);
    }
    expect(seen.size).toBe(400);
  });
});

describe('tampering always fails', () => {
  const tamperings: Array<[string, (sealed: SealedSecret, index: number, mask: number) => SealedSecret]> = [
    ['a byte of the IV', (s, i, m) => ({ ...s, iv: flip(s.iv, i, m) })],
    ['a byte of the tag', (s, i, m) => ({ ...s, tag: flip(s.tag, i, m) })],
    ['a byte of the ciphertext', (s, i, m) => ({ ...s, ct: flip(s.ct, i, m) })],
  ];

  for (const [what, tamper] of tamperings) {
    it(`rejects a record with ${what} changed`, () => {
      fc.assert(
        fc.property(plaintexts, guildIds, fc.nat(), byteMask, (plaintext, guild, index, mask) => {
          const sealed = seal(secret, plaintext, binding(guild));
          const error = rejection(() => unseal(secret, tamper(sealed, index, mask), binding(guild)));
          expect(error?.reason).toBe('rejected');
        }),
        { numRuns: 300 },
      );
    });
  }

  it('rejects a record opened for another guild (a record moved between guilds)', () => {
    fc.assert(
      fc.property(plaintexts, guildIds, guildIds, (plaintext, guild, other) => {
        fc.pre(guild !== other);
        const sealed = seal(secret, plaintext, binding(guild));
        expect(rejection(() => unseal(secret, sealed, binding(other)))?.reason).toBe('rejected');
      }),
      { numRuns: 300 },
    );
  });

  it('rejects a record opened for another purpose', () => {
    const sealed = seal(secret, 'kr_abcdefgh', { purpose: 'kpd-key', owner: '1' });
    expect(rejection(() => unseal(secret, sealed, { purpose: 'other', owner: '1' }))?.reason).toBe(
      'rejected',
    );
  });

  it('rejects a truncated or extended ciphertext', () => {
    fc.assert(
      fc.property(plaintexts, fc.boolean(), (plaintext, extend) => {
        const sealed = seal(secret, plaintext, binding('1'));
        const bytes = Buffer.from(sealed.ct, 'base64');
        const changed = extend
          ? Buffer.concat([bytes, Buffer.from([0])])
          : bytes.subarray(0, bytes.length - 1);
        const error = rejection(() =>
          unseal(secret, { ...sealed, ct: changed.toString('base64') }, binding('1')),
        );
        expect(error).toBeInstanceOf(UnsealError);
      }),
    );
  });

  it('refuses a record of another key id without trying, and a record under another key with the same id', () => {
    const sealed = seal(secret, 'kr_abcdefgh', binding('1'));
    expect(rejection(() => unseal({ ...secret, keyId: 'ffffffff' }, sealed, binding('1')))?.reason).toBe(
      'other_key',
    );
    const impostor = { key: randomBytes(32), keyId: secret.keyId };
    expect(rejection(() => unseal(impostor, sealed, binding('1')))?.reason).toBe('rejected');
  });

  it('rejects a record whose key id was rewritten to match (the key id is authenticated)', () => {
    const other: SecretKey = { key: secret.key, keyId: 'rotated1' };
    const sealed = seal(secret, 'kr_abcdefgh', binding('1'));
    expect(rejection(() => unseal(other, { ...sealed, kid: other.keyId }, binding('1')))?.reason).toBe(
      'rejected',
    );
  });

  it('calls malformed records malformed: wrong IV or tag length, non-base64 parts, missing fields', () => {
    const sealed = seal(secret, 'kr_abcdefgh', binding('1'));
    const broken: unknown[] = [
      { ...sealed, iv: Buffer.alloc(11).toString('base64') },
      { ...sealed, tag: Buffer.alloc(12).toString('base64') },
      { ...sealed, ct: 'not base64!' },
      { ...sealed, v: 2 },
      { v: 1, kid: sealed.kid },
    ];
    for (const record of broken) {
      expect(rejection(() => unseal(secret, record as SealedSecret, binding('1')))?.reason).toBe('malformed');
    }
  });

  it('never puts the key or the plaintext in its error messages', () => {
    const plaintext = 'kr_plaintext_that_must_not_leak';
    const sealed = seal(secret, plaintext, binding('1'));
    const error = rejection(() => unseal(secret, sealed, binding('2')));
    expect(error?.message).not.toContain(plaintext);
    expect(error?.message).not.toContain(secret.key.toString('base64'));
    expect(error?.message).not.toContain(sealed.ct);
  });
});
