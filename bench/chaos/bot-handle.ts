import { spawn } from 'node:child_process';
import { readFileSync, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STATS_INTERVAL_MS, type FromBot, type ProcessStats, type ToBot } from './ipc.ts';

/** The bot process as the harness sees it: its messages, its silences, and how to end it. */
export interface BotHandle {
  readonly pid: number | undefined;
  /** Resolves with the webhook port once the bot is ready; rejects when it fails or exits first. */
  readonly ready: Promise<number | undefined>;
  send(message: ToBot): void;
  /** Starts the measurement window (the delay histogram and the silence tracking start over). */
  mark(): void;
  /** What was measured since the mark; `exact` is false when the delay is a lower bound (a silence). */
  figures(): { maxDelayMs: number; peakRssMb: number; exact: boolean };
  /** Asks the bot to stop; kills it when it does not within `timeoutMs`. True when it had to be killed. */
  stop(timeoutMs: number): Promise<boolean>;
}

const BOT_SCRIPT = fileURLToPath(new URL('./bot-process.ts', import.meta.url));

/** Peak RSS from the kernel (Linux), for a process that cannot report it any more. */
function kernelPeakRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

export function spawnBot(log: WriteStream, fdLimit: number): BotHandle {
  const tsx = import.meta.resolve('tsx');
  // The bot's own descriptor limit, as a service manager would set it (soft and hard: Node raises the
  // soft limit to the hard one at start).
  const child = spawn(
    '/bin/sh',
    ['-c', `ulimit -n ${fdLimit} 2>/dev/null; exec "$0" "$@"`, process.execPath, '--import', tsx, BOT_SCRIPT],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let last: ProcessStats | undefined;
  let markedAt: number | undefined;
  let lastHeard = performance.now();
  let longestSilence = 0;
  let final: ProcessStats | undefined;
  let killed = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let resolveReady: (port: number | undefined) => void = () => undefined;
  let rejectReady: (error: Error) => void = () => undefined;
  const ready = new Promise<number | undefined>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined);
  void exited.then(() =>
    rejectReady(new Error(`the bot process exited (${child.exitCode ?? child.signalCode})`)),
  );

  const hear = () => {
    const now = performance.now();
    if (markedAt !== undefined)
      longestSilence = Math.max(longestSilence, now - Math.max(lastHeard, markedAt));
    lastHeard = now;
  };
  child.on('message', (raw) => {
    const message = raw as FromBot;
    hear();
    switch (message.type) {
      case 'ready':
        resolveReady(message.webhookPort);
        break;
      case 'failed':
        rejectReady(new Error(`the bot did not start: ${message.message}`));
        break;
      case 'stats':
        last = message.stats;
        break;
      case 'stopped':
        final = message.stats;
        break;
    }
  });
  const send = (message: ToBot) => {
    if (child.connected) child.send(message);
  };

  return {
    pid: child.pid,
    ready,
    send,
    mark() {
      send({ type: 'mark' });
      markedAt = performance.now();
      longestSilence = 0;
    },
    figures() {
      const stats = final ?? last;
      const reported = markedAt === undefined ? 0 : (stats?.maxDelayMs ?? 0);
      const peak = Math.max(stats?.peakRssMb ?? 0, kernelPeakRssMb(child.pid) ?? 0);
      if (!killed) return { maxDelayMs: reported, peakRssMb: peak, exact: true };
      // Killed in a block that never ended: the histogram never saw it, the silence is a lower bound.
      const silence = Math.max(0, longestSilence - STATS_INTERVAL_MS);
      return { maxDelayMs: Math.max(reported, silence), peakRssMb: peak, exact: silence <= reported };
    },
    async stop(timeoutMs) {
      if (child.exitCode !== null || child.signalCode !== null) return false;
      hear();
      send({ type: 'stop' });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = await Promise.race([exited.then(() => 'exited' as const), timeout]);
      clearTimeout(timer);
      if (outcome === 'exited') return false;
      hear();
      const peak = kernelPeakRssMb(child.pid);
      if (peak !== undefined) last = { ...(last ?? { maxDelayMs: 0, rssMb: 0 }), peakRssMb: peak };
      killed = true;
      child.kill('SIGKILL');
      await exited;
      return true;
    },
  };
}
