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

/**
 * The lines a process writes (a child's stdout and stderr, or a logger's destination), for waiting on one
 * of them: a test waits for the line that says what it needs, told by the process, never for a duration.
 */
export class OutputLines {
  readonly lines: string[] = [];
  #partial = '';
  #watchers = new Set<() => void>();

  /** Takes the output of `streams` (chunks of text, split into lines here). */
  constructor(...streams: Array<NodeJS.ReadableStream | null | undefined>) {
    for (const stream of streams) stream?.on('data', (chunk: Buffer | string) => this.write(String(chunk)));
  }

  write(text: string): void {
    const parts = (this.#partial + text).split('\n');
    this.#partial = parts.pop() ?? '';
    this.lines.push(...parts);
    for (const watcher of [...this.#watchers]) watcher();
  }

  /** All of it, for an error message. */
  get text(): string {
    return [...this.lines, this.#partial].join('\n');
  }

  /** Resolves with the first line (written so far or later) that `match` finds; rejects after `ms`. */
  when(match: RegExp | ((line: string) => boolean), ms: number, what: string): Promise<string> {
    const test = typeof match === 'function' ? match : (line: string) => match.test(line);
    const found = () => this.lines.find(test);
    const now = found();
    if (now !== undefined) return Promise.resolve(now);
    let watcher!: () => void;
    const seen = new Promise<string>((resolve) => {
      watcher = () => {
        const line = found();
        if (line !== undefined) resolve(line);
      };
      this.#watchers.add(watcher);
    });
    return within(ms, seen, what).finally(() => this.#watchers.delete(watcher));
  }
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
