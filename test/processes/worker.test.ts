import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { stackEnvironment } from '../../src/dev/demo/stack.ts';
import { freePort } from '../../src/dev/net.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { startProcess, type RunningProcess } from '../../src/processes/run.ts';
import { metricSum, ops, OutputLines } from '../support/processes.ts';

/** `PROCESS_ROLE=worker`: the worker alone, no shard, no gateway session; its own `/healthz` and `/metrics`. */
let sandbox: Sandbox | undefined;
let discord: DiscordStandin | undefined;
let running: RunningProcess | undefined;
let port = 0;
/** The process's log: it says when the worker works. */
const lines = new OutputLines();

beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandin();
  port = await freePort();
  const env = stackEnvironment(sandbox, discord, {
    LOG_LEVEL: 'silent',
    PROCESS_ROLE: 'worker',
    HTTP_PORT: String(port),
  });
  running = await startProcess({
    config: loadConfig(env),
    token: discord.token,
    log: createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.write(chunk.toString('utf8'));
          done();
        },
      }),
    }),
  });
});

afterAll(async () => {
  await running?.stop();
  await discord?.close();
  await sandbox?.close();
});

describe('a worker process', () => {
  it('runs the worker only, and is ready once it holds the lease', async () => {
    expect(running!.fleet).toBeUndefined();
    await lines.when(/"msg":"this process is now the worker"/, 10_000, 'worker ready');
    expect(JSON.parse((await ops(port, '/healthz'))!.text)).toEqual({
      status: 'ok',
      worker: { ready: true, state: 'active' },
    });
    expect(discord!.gatewaySessions()).toEqual([]);
    expect(discord!.requests().filter((r) => r.path === '/gateway/bot')).toEqual([]);
  });

  it('serves /healthz and /metrics on the loopback interface only, HTTP_HOST being unset', () => {
    expect(running!.ops?.address).toBe('127.0.0.1');
    expect(running!.ops?.port).toBe(port);
  });

  it('serves its own metrics, without shards', async () => {
    const metrics = await ops(port, '/metrics');
    expect(metrics?.status).toBe(200);
    expect(metricSum(metrics!.text, 'process_resident_memory_bytes', { process: 'worker' })).toBeGreaterThan(
      0,
    );
    expect(metrics!.text).not.toContain('killfeed_shard_status{');
  });

  it('closes its endpoint when it stops', async () => {
    await running!.stop();
    expect(await ops(port, '/healthz')).toBeNull();
  });
});
