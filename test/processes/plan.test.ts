import { ShardingManager } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { guildIdOnShard, startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import {
  ShardEnvironmentError,
  keepingEnvironment,
  shardEnvironment,
  shardsToPin,
} from '../../src/processes/environment.ts';
import { fetchGatewayBot, planShards } from '../../src/processes/shard-count.ts';
import { shardEntry } from '../../src/processes/shards.ts';

/** How many shards, which of them here, and what each shard process is told. */
let discord: DiscordStandin;

beforeAll(async () => {
  discord = await startDiscordStandin();
});

afterAll(async () => {
  await discord.close();
});

const base = {
  GAME_API_URL: 'http://127.0.0.1:1',
  GAME_LEGACY_URL: 'http://127.0.0.1:1',
  GAME_MATCHMAKER_URL: 'http://127.0.0.1:1',
};

function processes(env: Record<string, string>) {
  return loadConfig({ ...base, ...env }).processes;
}

const unasked = () => Promise.reject(new Error('GET /gateway/bot must not be asked'));

describe('the shard plan', () => {
  it('asks GET /gateway/bot through DISCORD_API_URL for SHARD_COUNT=auto and runs every shard', async () => {
    for (let n = 0; n < 1001; n += 1) discord.addGuild({ id: guildIdOnShard(0, 1, n) });
    const before = discord.requests().length;
    const plan = await planShards(processes({}), () => fetchGatewayBot(discord.restUrl, discord.token));
    expect(plan).toEqual({ total: 2, ids: [0, 1], maxConcurrency: 1 });
    expect(discord.requests().slice(before)).toMatchObject([
      { method: 'GET', path: '/gateway/bot', status: 200 },
    ]);
  });

  it('fails with what Discord said when the token is refused', async () => {
    await expect(fetchGatewayBot(discord.restUrl, 'not-the-token')).rejects.toThrow(/401|Unauthorized/);
  });

  it('takes a fixed SHARD_COUNT as it is, and SHARD_IDS as the part of this machine', async () => {
    expect(await planShards(processes({ SHARD_COUNT: '3' }), unasked)).toEqual({
      total: 3,
      ids: [0, 1, 2],
      maxConcurrency: 1,
    });
    expect(await planShards(processes({ SHARD_COUNT: '4', SHARD_IDS: '3,1' }), unasked)).toMatchObject({
      total: 4,
      ids: [1, 3],
    });
  });

  it('refuses SHARD_IDS beyond the count Discord recommends', async () => {
    const config = { role: 'shards', shardCount: 'auto', shardIds: [0, 5] } as const;
    await expect(planShards(config, () => Promise.resolve({ shards: 2, maxConcurrency: 1 }))).rejects.toThrow(
      /SHARD_IDS names shards 5, but the bot has 2/,
    );
  });
});

describe('a shard process', () => {
  it('gets the same shard in discord.js variables and ours, and no HTTP_PORT', () => {
    const env = shardEnvironment({ HTTP_PORT: '8080', SHARD_IDS: '0,1', LOG_LEVEL: 'warn' }, 1, 2, 'tok');
    expect(env).toMatchObject({
      HTTP_PORT: '',
      LOG_LEVEL: 'warn',
      SHARDS: '[1]',
      SHARD_IDS: '1',
      SHARD_COUNT: '2',
      SHARDING_MANAGER: 'true',
      SHARDING_MANAGER_MODE: 'process',
      DISCORD_TOKEN: 'tok',
    });
    expect(processes(env as Record<string, string>)).toEqual({
      role: 'shards',
      shardCount: 2,
      shardIds: [1],
    });
    expect(loadConfig({ ...base, ...env }).http.port).toBeUndefined();
  });

  it('runs exactly the shards of SHARD_IDS, whatever SHARDS says', () => {
    expect(shardsToPin([1, 0], 2, { SHARD_COUNT: '2' })).toBe('[0,1]');
    expect(shardsToPin([1], 2, { SHARD_COUNT: '2', SHARDS: '1' })).toBe('[1]');
    expect(shardsToPin([1], 2, { SHARD_COUNT: '2', SHARDS: '[1]' })).toBe('[1]');
    expect(() => shardsToPin([1], 2, { SHARD_COUNT: '2', SHARDS: '[0]' })).toThrow(ShardEnvironmentError);
    expect(() => shardsToPin([1], 2, { SHARD_COUNT: '2', SHARDS: 'one' })).toThrow(ShardEnvironmentError);
    expect(() => shardsToPin([1], 2, { SHARD_COUNT: '3' })).toThrow(/SHARD_COUNT must be 2/);
  });

  it('runs src/shard.ts under tsx from source, dist/src/shard.js compiled', () => {
    const source = shardEntry('file:///app/src/processes/shards.ts');
    expect(source.file).toBe('/app/src/shard.ts');
    expect(source.execArgv[0]).toBe('--import');
    expect(source.execArgv[1]).toMatch(/^file:\/\/.*\/node_modules\/tsx\/dist\/loader\.mjs$/);
    expect(shardEntry('file:///app/dist/src/processes/shards.js')).toEqual({
      file: '/app/dist/src/shard.js',
      execArgv: [],
    });
  });

  it("leaves the manager's environment as it was: no token, not a shard itself", () => {
    const before = { ...process.env };
    const manager = keepingEnvironment(
      () =>
        new ShardingManager(shardEntry().file, { totalShards: 2, mode: 'process', token: 'secret-token' }),
    );
    expect(manager.token).toBe('secret-token');
    expect(process.env).toEqual(before);
  });
});
