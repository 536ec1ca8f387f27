import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Credentials kept at rest (a guild's linked developer key) are sealed with AES-256-GCM under the
 * operator's `SECRET_KEY`: a fresh random 12-byte IV per record, a 16-byte tag, and associated data
 * that binds the record to its purpose and its owner (the guild id), so a record copied to another
 * guild, or to another kind of secret, does not open. Each record names the key id it was sealed
 * under; a record of another key id is refused without trying (see docs/secrets.md for rotation).
 */
export const SEALED_VERSION = 1;
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** The operator's secret as the configuration holds it. */
export interface SecretKey {
  readonly key: Buffer;
  readonly keyId: string;
}

/** A sealed secret as stored: binary parts in base64. Holds no plaintext. */
export interface SealedSecret {
  readonly v: typeof SEALED_VERSION;
  /** The id of the key that sealed it. */
  readonly kid: string;
  readonly iv: string;
  readonly tag: string;
  readonly ct: string;
}

export type UnsealFailure = 'other_key' | 'malformed' | 'rejected';

/** The record cannot be opened. The message never holds any part of the record or of the key. */
export class UnsealError extends Error {
  constructor(
    readonly reason: UnsealFailure,
    message: string,
  ) {
    super(message);
    this.name = 'UnsealError';
  }
}

/** What the record is bound to: its purpose (e.g. `kpd-key`) and its owner (a guild id). */
export interface Binding {
  readonly purpose: string;
  readonly owner: string;
}

function checkKey(secret: SecretKey): void {
  if (secret.key.length !== KEY_BYTES) throw new RangeError(`the secret key must be ${KEY_BYTES} bytes`);
}

/** Version, key id, purpose and owner, length-prefixed so that no two bindings share an encoding. */
function associatedData(kid: string, binding: Binding): Buffer {
  const parts = [`v${SEALED_VERSION}`, kid, binding.purpose, binding.owner].map((part) =>
    Buffer.from(part, 'utf8'),
  );
  return Buffer.concat(parts.flatMap((part) => [Buffer.from(`${part.length}:`), part]));
}

export function seal(secret: SecretKey, plaintext: string, binding: Binding): SealedSecret {
  checkKey(secret);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, secret.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(secret.keyId, binding));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    v: SEALED_VERSION,
    kid: secret.keyId,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ct: ct.toString('base64'),
  };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodePart(value: unknown, bytes?: number): Buffer | undefined {
  if (typeof value !== 'string' || !BASE64.test(value)) return undefined;
  const decoded = Buffer.from(value, 'base64');
  if (decoded.toString('base64') !== value) return undefined;
  return bytes === undefined || decoded.length === bytes ? decoded : undefined;
}

export function isSealedSecret(value: unknown): value is SealedSecret {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.v === SEALED_VERSION &&
    typeof record.kid === 'string' &&
    typeof record.iv === 'string' &&
    typeof record.tag === 'string' &&
    typeof record.ct === 'string'
  );
}

/** The plaintext, or an {@link UnsealError}: another key id, a malformed record, or a failed authentication. */
export function unseal(secret: SecretKey, sealed: SealedSecret, binding: Binding): string {
  checkKey(secret);
  if (!isSealedSecret(sealed)) throw new UnsealError('malformed', 'the sealed record is malformed');
  if (sealed.kid !== secret.keyId) {
    throw new UnsealError('other_key', 'the record was sealed under another secret key');
  }
  const iv = decodePart(sealed.iv, IV_BYTES);
  const tag = decodePart(sealed.tag, TAG_BYTES);
  const ct = decodePart(sealed.ct);
  if (!iv || !tag || !ct) throw new UnsealError('malformed', 'the sealed record is malformed');
  try {
    const decipher = createDecipheriv(ALGORITHM, secret.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(sealed.kid, binding));
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(ct), decipher.final()]);
    return plain.toString('utf8');
  } catch {
    throw new UnsealError(
      'rejected',
      'the sealed record does not authenticate (altered, or bound elsewhere)',
    );
  }
}
