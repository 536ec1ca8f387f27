import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackEnvironment } from '../../src/dev/demo/stack.ts';
import { freePort } from '../../src/dev/net.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { guildIdOnShard, startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import {
  expectAnsweredOnce,
  metricSum,
  modsList,
  ops,
  OutputLines,
  within,
  withPath,
} from '../support/processes.ts';

/**
 * `npm start` as a machine of a bot split over two: `src/main.ts` in a process of its own with
 * `PROCESS_ROLE=all`, `SHARD_COUNT=2`, `SHARD_IDS=1`. It runs shard 1 in a child process and the worker
 * in its own, serves `/healthz` and `/metrics` for both, and stops everything on SIGTERM.
 */
let sandbox: Sandbox | undefined;
let discord: DiscordStandin | undefined;
let main: ChildProcess | undefined;
let exited: Promise<[number | null, NodeJS.Signals | null]> | undefined;
let port = 0;
let output = '';
const guilds: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandin({ interactionTimeoutMs: 15_000 });
  for (const shard of [0, 1]) {
    const id = discord.addGuild({ id: guildIdOnShard(shard, 2, 0) }).id;
    discord.addChannel(id, { name: 'general' });
    guilds.push(id);
  }
  port = await freePort();
  const env = stackEnvironment(sandbox, discord, {
    LOG_LEVEL: 'info',
    PROCESS_ROLE: 'all',
    SHARD_COUNT: '2',
    SHARD_IDS: '1',
    HTTP_PORT: String(port),
  });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  main = spawn(process.execPath, ['--import', tsx, 'src/main.ts'], {
    env: withPath(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = once(main, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-20_000));
  main.stdout?.on('data', keep);
  main.stderr?.on('data', keep);
  // Ready is what the process says: its shard is ready, and the worker works (it is alone).
  const lines = new OutputLines(main.stdout, main.stderr);
  try {
    await lines.when(/"msg":"shard ready"/, 60_000, 'shard 1 ready');
    await lines.when(/"msg":"this process is now the worker"/, 60_000, 'the worker working');
  } catch (error) {
    throw new Error(`${String(error)}\n${output}`);
  }
  expect((await ops(port, '/healthz'))?.status).toBe(200);
}, 90_000);

afterAll(async () => {
  if (main && main.exitCode === null && main.signalCode === null) {
    main.kill('SIGKILL');
    await exited;
  }
  await discord?.close();
  await sandbox?.close();
}, 30_000);

/** The shard processes whose parent is `pid` (Linux's /proc; tsx's esbuild service is another child). */
function shardsOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('shard.ts');
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start with PROCESS_ROLE=all on one of two machines', () => {
  it('runs shard 1 of 2 and the worker, and says so on /healthz and /metrics', async () => {
    const health = await ops(port, '/healthz');
    expect(JSON.parse(health!.text)).toEqual({
      status: 'ok',
      shards: { 1: 'ready' },
      worker: { ready: true, state: 'active' },
    });
    expect(discord!.gatewaySessions()).toEqual([{ shard: [1, 2], connected: true }]);
    const metrics = (await ops(port, '/metrics'))!.text;
    expect(metricSum(metrics, 'killfeed_shard_status', { shard: '1', state: 'ready' })).toBe(1);
    expect(metricSum(metrics, 'process_resident_memory_bytes', { process: 'shard-1' })).toBeGreaterThan(0);
  });

  it('answers in the servers of its shard; the other machine would answer the others', async () => {
    const mine = discord!.invokeCommand({ name: 'mods', options: modsList, guildId: guilds[1]! });
    await mine.final(30_000);
    expectAnsweredOnce(discord!, [mine]);
    expect(() => discord!.invokeCommand({ name: 'mods', options: modsList, guildId: guilds[0]! })).toThrow(
      /no gateway session/,
    );
  }, 40_000);

  it('stops cleanly on SIGTERM, its shard process with it', async () => {
    const shards = shardsOf(main!.pid!);
    expect(shards).toHaveLength(1);
    main!.kill('SIGTERM');
    const [code, signal] = await within(30_000, exited!, 'npm start stopped');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(shards.filter(alive)).toEqual([]);
    // The shard closed its gateway session (code 1000) rather than dropping it.
    expect(discord!.gatewaySessions()).toEqual([]);
    expect(output).toContain('shards stopped');
    expect(output).toContain('worker stopped');
  }, 40_000);
});
