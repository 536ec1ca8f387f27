import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { DiscordStandin, PendingInteraction } from '../../src/dev/standin/index.ts';

/** `promise`, or an error naming `what` once `ms` passed: every wait of these tests is bounded. */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  const timer = new AbortController();
  const late = sleep(ms, undefined, { signal: timer.signal }).then(
    () => Promise.reject(new Error(`${what}: not within ${ms} ms`)),
    () => new Promise<never>(() => undefined),
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    timer.abort();
  }
}

/** Polls `check` until it holds, for at most `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  await within(
    ms,
    (async () => {
      while (!(await check())) await sleep(50);
    })(),
    what,
  );
}

/** The environment a shard process needs besides the bot's configuration. */
export function withPath(env: Record<string, string>): Record<string, string> {
  return { ...env, PATH: process.env.PATH ?? '' };
}

/** `GET` on the process's operations endpoint; `null` while nothing listens yet. */
export async function ops(port: number, path: '/healthz' | '/metrics') {
  try {
    const reply = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: reply.status, text: await reply.text() };
  } catch {
    return null;
  }
}

/** The sum of a metric's series in a Prometheus text whose labels include `labels`. */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/**
 * Every interaction got exactly one callback, accepted, and no reply anywhere was refused as already
 * acknowledged (40060): what two processes answering the same interaction would cause.
 */
export function expectAnsweredOnce(
  discord: DiscordStandin,
  interactions: readonly PendingInteraction[],
): void {
  const callbacks = new Map<string, number[]>();
  for (const request of discord.requests()) {
    const match = /^\/interactions\/(\d+)\/:token\/callback$/.exec(request.path);
    if (request.method !== 'POST' || !match?.[1]) continue;
    callbacks.set(match[1], [...(callbacks.get(match[1]) ?? []), request.status]);
  }
  for (const interaction of interactions) {
    expect(callbacks.get(interaction.id), `callbacks of interaction ${interaction.id}`).toHaveLength(1);
    expect(callbacks.get(interaction.id)?.[0]).toBeLessThan(300);
  }
  expect(discord.requests().filter((request) => request.code === 40060)).toEqual([]);
}

/** `/mods list`: a command answered from the game API sandbox. */
export const modsList = [{ type: 1, name: 'list', options: [] }];
