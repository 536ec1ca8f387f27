import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const SECRET_KEY_HINT =
  "generate one with: node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64'))\"";

/** A 32-byte key from 64 hex digits or from base64 (standard or URL-safe alphabet). */
function decodeKey(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return undefined;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : undefined;
}

export const secretKeyValue = z.string().transform((value, ctx) => {
  const key = decodeKey(value);
  if (key === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `must be exactly 32 bytes written as base64 or as 64 hex digits; ${SECRET_KEY_HINT}`,
    });
    return z.NEVER;
  }
  return key;
});

export const secretKeyFile = z.string().transform((path, ctx) => {
  let content: string;
  try {
    content = readFileSync(path, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    ctx.addIssue({ code: 'custom', message: `names a file that cannot be read (${code})` });
    return z.NEVER;
  }
  const key = decodeKey(content);
  if (key === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `names a file that does not hold exactly 32 bytes as base64 or 64 hex digits; ${SECRET_KEY_HINT}`,
    });
    return z.NEVER;
  }
  return key;
});

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}
