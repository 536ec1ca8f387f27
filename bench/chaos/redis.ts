import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort, sleep } from './net.ts';

/** A private redis-server on a free port of 127.0.0.1, without persistence, owned by the harness. */
export interface PrivateRedis {
  readonly port: number;
  readonly url: string;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export async function startRedis(executable: string): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    executable,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
  };
  const stop = async () => {
    signal('SIGCONT');
    signal('SIGKILL');
    await exited;
  };
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (await ping(port)) {
      return {
        port,
        url: `redis://127.0.0.1:${port}`,
        pause: () => signal('SIGSTOP'),
        resume: () => signal('SIGCONT'),
        stop,
      };
    }
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  await stop();
  throw new Error('redis-server did not start');
}
