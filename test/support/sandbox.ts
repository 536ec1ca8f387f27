import { afterEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/dev/sandbox/index.ts';
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, navigated freely by the assertions (integers beyond 2^53 lose digits: read `text`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** A JSON value seen as a list of rows, for `.map` and friends. */
export function rows<T = Record<string, unknown>>(value: unknown): T[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${typeof value}`);
  return value as T[];
}

export function keysOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) throw new Error(`expected an object, got ${typeof value}`);
  return Object.keys(value).sort();
}

export function withKey(key: string): Record<string, string> {
  return { 'X-Developer-API-Key': key };
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** 2026-05-20 12:00 UTC: turf day 64, the 9th day of turf season 2. */
export const FIXED_NOW = Date.UTC(2026, 4, 20, 12, 0, 0);

/** A sandbox on a clock the test moves (`clock.ms`, from FIXED_NOW). */
export interface ClockedSandbox {
  readonly sandbox: Sandbox;
  readonly clock: { ms: number };
}

/** Starts sandboxes on a clock of their own for the tests of a file, each closed after its test. */
export function useClockedSandboxes(): (options?: SandboxOptions) => Promise<ClockedSandbox> {
  const started: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
  });
  return async (options = {}) => {
    const clock = { ms: FIXED_NOW };
    const sandbox = await startSandbox({ now: () => clock.ms, ...options });
    started.push(sandbox);
    return { sandbox, clock };
  };
}
