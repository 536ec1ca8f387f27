import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { stackEnvironment } from '../../src/dev/demo/stack.ts';
import { freePort } from '../../src/dev/net.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { guildIdOnShard, startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { startProcess, type RunningProcess } from '../../src/processes/run.ts';
import { expectAnsweredOnce, metricSum, modsList, ops, within, withPath } from '../support/processes.ts';

/**
 * `PROCESS_ROLE=shards` with `SHARD_COUNT=auto` against the Discord stand-in and the game API sandbox:
 * 1,001 servers, so `GET /gateway/bot` recommends two shards, and the ShardingManager runs them as two
 * real child processes. Every interaction is answered exactly once, by the shard that owns its server.
 */
let sandbox: Sandbox | undefined;
let discord: DiscordStandin | undefined;
let running: RunningProcess | undefined;
let port = 0;
const INTERACTIONS_PER_SHARD = 20;
const guilds: [string[], string[]] = [[], []];

beforeAll(async () => {
  sandbox = await startSandbox();
  // Generous: the shards answer on two busy cores; the test is about who answers, not how fast. Both
  // shards may identify at once (max_concurrency 2), so they start together.
  discord = await startDiscordStandin({ interactionTimeoutMs: 15_000, maxConcurrency: 2 });
  for (let n = 0; n < 1001; n += 1) {
    const shard = n % 2;
    const id = discord.addGuild({ id: guildIdOnShard(shard, 2, Math.floor(n / 2)) }).id;
    if (n < 2 * INTERACTIONS_PER_SHARD) {
      discord.addChannel(id, { name: 'general' });
      guilds[shard as 0 | 1].push(id);
    }
  }
  port = await freePort();
  const env = stackEnvironment(sandbox, discord, {
    LOG_LEVEL: 'error',
    PROCESS_ROLE: 'shards',
    SHARD_COUNT: 'auto',
    HTTP_PORT: String(port),
  });
  running = await startProcess({
    config: loadConfig(env),
    token: discord.token,
    log: createLogger({ level: 'silent' }),
    env: withPath(env),
    fleet: { spawnDelayMs: 0, stopTimeoutMs: 10_000 },
  });
  await within(60_000, running.fleet!.allReady, 'both shards ready');
}, 90_000);

afterAll(async () => {
  await running?.stop();
  await discord?.close();
  await sandbox?.close();
}, 30_000);

describe('two shard processes under the ShardingManager', () => {
  it('runs the shard count GET /gateway/bot recommends, one process per shard', () => {
    const asked = discord!.requests().filter((r) => r.path === '/gateway/bot');
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(running!.fleet!.plan).toEqual({ total: 2, ids: [0, 1], maxConcurrency: 2 });
    const sessions = discord!.gatewaySessions().map((s) => s.shard);
    expect(sessions.sort((a, b) => a[0] - b[0])).toEqual([
      [0, 2],
      [1, 2],
    ]);
    const pids = running!.fleet!.pids();
    expect(new Set([pids.get(0), pids.get(1), process.pid]).size).toBe(3);
  });

  it('answers every interaction exactly once, in the servers of both shards', async () => {
    const pending = [...guilds[0], ...guilds[1]].map((guildId) =>
      discord!.invokeCommand({ name: 'mods', options: modsList, guildId }),
    );
    const finals = await within(
      60_000,
      Promise.all(pending.map((p) => p.final(45_000))),
      'every interaction answered',
    );
    expect(finals.every((message) => message.embeds.length > 0)).toBe(true);
    expectAnsweredOnce(discord!, pending);
  }, 90_000);

  it('says ready on /healthz and merges both shard processes into /metrics', async () => {
    const health = await ops(port, '/healthz');
    expect(health?.status).toBe(200);
    expect(JSON.parse(health!.text)).toEqual({ status: 'ok', shards: { 0: 'ready', 1: 'ready' } });
    const metrics = (await ops(port, '/metrics'))!.text;
    expect(metricSum(metrics, 'killfeed_shard_status', { shard: '0', state: 'ready' })).toBe(1);
    expect(metricSum(metrics, 'killfeed_shard_status', { shard: '1', state: 'ready' })).toBe(1);
    expect(metricSum(metrics, 'process_resident_memory_bytes', { process: 'shard-0' })).toBeGreaterThan(0);
    expect(metricSum(metrics, 'process_resident_memory_bytes', { process: 'shard-1' })).toBeGreaterThan(0);
    // The 40 commands of the test above were counted in two processes, and summed here.
    expect(metricSum(metrics, 'killfeed_commands_total', { command: 'mods' })).toBe(
      2 * INTERACTIONS_PER_SHARD,
    );
  }, 30_000);
});
