import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from '../../src/dev/net.ts';

/**
 * A throw-away redis-server (Debian's, on 127.0.0.1 and a free port) that a test can pause (SIGSTOP: the
 * connection stays open, nothing answers), stop (the port refuses connections) and start again.
 */
export const REDIS_SERVER = '/usr/bin/redis-server';
export const redisAvailable = existsSync(REDIS_SERVER);

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  pause(): void;
  resume(): void;
  /** Kills the server: connections drop and the port refuses new ones. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/**
 * Starts redis-server on `port` of 127.0.0.1 (nothing saved) and resolves once it says it accepts
 * connections: its own "Ready to accept connections" line, read from its output, not a poll of the port.
 */
export function spawnRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-4_096);
      if (!seen.includes('Ready to accept connections')) return;
      child.stdout.off('data', onData);
      // Its later lines are read and dropped, so that a full pipe never stalls it.
      child.stdout.resume();
      child.off('exit', onExit);
      resolve(child);
    };
    const onExit = (code: number | null) =>
      reject(new Error(`redis-server exited (${code}) before it was ready`));
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let paused = false;
  const start = async () => {
    child = await spawnRedisServer(port);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    if (paused) running.kill('SIGCONT');
    paused = false;
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause() {
      paused = true;
      child?.kill('SIGSTOP');
    },
    resume() {
      paused = false;
      child?.kill('SIGCONT');
    },
    stop,
    start,
  };
}
