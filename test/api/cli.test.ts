import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { coerceParams, EXIT, matchRoute, runCli } from '../../src/api/cli.ts';
import { TierClient } from '../../src/api/client.ts';
import { routes } from '../../src/api/routes/index.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';

let sandbox: Sandbox;
let client: TierClient;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  client = new TierClient({
    urls: sandbox.urls,
    apiKey: sandbox.keys.default,
    retryPolicy: { serverErrorDelayMs: 1, jitterMs: 1, random: () => 0 },
  });
  dir = await mkdtemp(join(tmpdir(), 'killfeed-cli-'));
});

afterEach(() => {
  sandbox.faults.clear();
  sandbox.requests.clear();
});

afterAll(async () => {
  await client.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  return runWith(client, ...argv);
}

async function runWith(using: TierClient, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    client: using,
    io: { out: (t) => out.push(t), err: (t) => err.push(t) },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('matchRoute', () => {
  it('prefers literal segments over placeholders', () => {
    expect(matchRoute('base', ['game'], '/players/search')?.name).toBe('playerSearch');
    expect(matchRoute('base', ['game'], '/players/Some%20One')).toEqual({
      name: 'gamePlayer',
      params: { playerName: 'Some One' },
    });
    expect(matchRoute('legacy', ['game', 'token'], '/player-profile/me/season/3/region/2')?.name).toBe(
      'rankedProfileRegion',
    );
    expect(matchRoute('base', ['developer'], '/not/a/route')).toBeUndefined();
  });

  it('coerces command-line text to the types each parameter wants', () => {
    expect(coerceParams(routes.mapLeaderboard, { mapName: '123', page: '2', order: '1' })).toEqual({
      mapName: '123',
      page: 2,
      order: 1,
    });
    expect(coerceParams(routes.match, { matchId: '9007199254740993' })).toEqual({
      matchId: '9007199254740993',
    });
    expect(
      coerceParams(routes.events, { types: 'map.featured', targetType: 'map', targetId: '1,2' }),
    ).toEqual({
      types: ['map.featured'],
      targetType: 'map',
      targetId: [1, 2],
    });
  });
});

describe('runCli exit codes', () => {
  it('0: prints the validated reply as JSON', async () => {
    const result = await run('dev', `/api/match/${sandbox.world.samples.matchId}`);
    expect(result.code).toBe(EXIT.ok);
    expect(JSON.parse(result.out)).toMatchObject({ match_id: sandbox.world.samples.matchId });
  });

  it('0: query parameters by their wire names, inline or with --query', async () => {
    const a = await run('dev', `/api/clan/${encodeURIComponent(sandbox.world.samples.clan)}/members?page=1`);
    const b = await run(
      'dev',
      `/api/clan/${encodeURIComponent(sandbox.world.samples.clan)}/members`,
      '--query',
      'page=1',
    );
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    const lobbies = await run('matchmaker', '/game-list', '-q', 'hostname=krunker.io');
    expect(JSON.parse(lobbies.out)).toHaveProperty('games');
  });

  it('2: refused locally, with no request sent', async () => {
    expect((await run('dev', '/api/nothing/here')).code).toBe(EXIT.refusedLocally);
    expect((await run('dev', '/api/match/12ab')).code).toBe(EXIT.refusedLocally);
    expect((await run('dev', '/api/mods', '--query', 'page=0')).code).toBe(EXIT.refusedLocally);
    expect((await run('dev', '/api/mods', '--query', 'colour=red')).code).toBe(EXIT.refusedLocally);
    const tokenFile = join(dir, 'bad-token');
    await writeFile(tokenFile, 'not-a-jwt\n');
    expect((await run('token', '/player/wallet', '--token-file', tokenFile)).code).toBe(EXIT.refusedLocally);
    expect(sandbox.requests.count()).toBe(0);
  });

  it('3: not found', async () => {
    expect((await run('dev', '/api/player/nobody-by-that-name')).code).toBe(EXIT.notFound);
  });

  it('4: unauthorized or forbidden', async () => {
    expect((await run('dev', '/api/kpd/latest-calls')).code).toBe(EXIT.denied);
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, sandbox.issueToken({ playerName: sandbox.world.samples.player }));
    expect((await run('token', '/kpd/reviewers', '--token-file', tokenFile)).code).toBe(EXIT.denied);
    expect((await run('token', '/player/wallet', '--token-file', tokenFile)).code).toBe(EXIT.ok);
  });

  it('5: rate limited', async () => {
    // Its own client: after a 429 the client holds the key's requests until the window resets.
    const own = new TierClient({ urls: sandbox.urls, apiKey: sandbox.keys.default });
    sandbox.faults.inject({ match: '/api/mods', kind: 'rateLimit', retryAfterSec: 60 });
    expect((await runWith(own, 'dev', '/api/mods')).code).toBe(EXIT.rateLimited);
    expect((await runWith(own, 'dev', '/api/maps/featured')).code).toBe(EXIT.rateLimited);
    expect(sandbox.requests.count()).toBe(1);
    await own.close();
  });

  it('6: upstream error', async () => {
    sandbox.faults.inject({ match: '/api/maps/featured', kind: 'status', status: 500 });
    expect((await run('dev', '/api/maps/featured')).code).toBe(EXIT.upstream);
  });

  it('7: the reply failed validation', async () => {
    sandbox.faults.inject({ match: '/api/mods/', kind: 'malformed' });
    expect((await run('dev', `/api/mods/${encodeURIComponent(sandbox.world.samples.mod)}`)).code).toBe(
      EXIT.invalidReply,
    );
  });

  it('1: usage', async () => {
    expect((await run()).code).toBe(EXIT.usage);
    expect((await run('nonsense', '/x')).code).toBe(EXIT.usage);
  });
});

describe('npm run api (the real entry point)', () => {
  it('reads the environment and prints a reply, with the key never printed', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      'npx',
      [
        'tsx',
        'src/api/cli-main.ts',
        'dev',
        `/api/player/${encodeURIComponent(sandbox.world.samples.player)}`,
      ],
      {
        env: {
          PATH: process.env.PATH,
          GAME_API_URL: sandbox.urls.base,
          GAME_LEGACY_URL: sandbox.urls.legacy,
          GAME_MATCHMAKER_URL: sandbox.urls.matchmaker,
          GAME_API_KEY: sandbox.keys.default,
          LOG_LEVEL: 'debug',
        },
        timeout: 30_000,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ player_name: sandbox.world.samples.player });
    expect(stdout + stderr).not.toContain(sandbox.keys.default);
  });
});
