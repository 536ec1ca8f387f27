import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
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

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let paused = false;
  const start = async () => {
    child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if (await accepts(port)) return;
      await sleep(25);
    }
    throw new Error('redis-server did not start');
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
