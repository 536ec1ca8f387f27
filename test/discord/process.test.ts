import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/dev/net.ts';
import { deployCommands } from '../../src/discord/deploy.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';

let sandbox: Sandbox;
let discord: DiscordStandin;

beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandin();
});

afterAll(async () => {
  await discord.close();
  await sandbox.close();
});

function gameEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    GAME_API_URL: sandbox.urls.base,
    GAME_LEGACY_URL: sandbox.urls.legacy,
    GAME_MATCHMAKER_URL: sandbox.urls.matchmaker,
    GAME_API_KEY: sandbox.keys.default,
    STORE_URL: 'memory://',
  };
}

/**
 * How long a run of main.ts may take: starting it compiles the bot with tsx, which a loaded machine makes
 * slow (20 s and more). Each test waits for its run (its exit, or a line it writes), bounded by this, and
 * may itself run longer than this.
 */
const MAIN_BOUND_MS = 40_000;

/** Runs `node --import tsx src/main.ts` (what the Dockerfile runs) and collects its output; `onOutput` may signal it. */
function runMain(
  env: Record<string, string>,
  onOutput?: (text: string, kill: (signal: NodeJS.Signals) => void) => void,
) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`main.ts did not exit in time:\n${output}`));
    }, MAIN_BOUND_MS);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      onOutput?.(output, (signal) => child.kill(signal));
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('npm start', { timeout: MAIN_BOUND_MS + 20_000 }, () => {
  it('stops with a clear message naming DISCORD_TOKEN when it is missing', async () => {
    const { code, output } = await runMain(gameEnv());
    expect(code).toBe(1);
    expect(output).toContain('DISCORD_TOKEN');
    expect(output).toContain('is not set');
  });

  it('lists every failing variable at once', async () => {
    const { code, output } = await runMain({ PATH: process.env.PATH ?? '', EVENTS_POLL_SECONDS: '5' });
    expect(code).toBe(1);
    for (const name of ['GAME_API_URL', 'GAME_LEGACY_URL', 'GAME_MATCHMAKER_URL', 'EVENTS_POLL_SECONDS']) {
      expect(output).toContain(name);
    }
  });

  it('connects, answers its health check, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    let signalled = false;
    let health: Promise<{ status: number; body: unknown }> | undefined;
    const { code, output } = await runMain(
      {
        ...gameEnv(),
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.restUrl,
        LOG_LEVEL: 'info',
        HTTP_PORT: String(port),
      },
      (text, kill) => {
        if (!signalled && text.includes('"msg":"ready"')) {
          signalled = true;
          health = fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5_000) })
            .then(async (reply) => ({ status: reply.status, body: await reply.json() }))
            .finally(() => kill('SIGTERM'));
        }
      },
    );
    expect(signalled).toBe(true);
    expect(await health).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(code).toBe(0);
    expect(output).toContain('"msg":"stopped"');
    expect(output).not.toContain(discord.token);
    expect(output).not.toContain(sandbox.keys.default);
  });
});

describe('npm run deploy', () => {
  it('bulk-registers every command to the dev guild when one is set, globally otherwise', async () => {
    const guild = discord.addGuild({ name: 'dev' });
    const toGuild = await deployCommands({
      token: discord.token,
      apiUrl: discord.restUrl,
      guildId: guild.id,
    });
    expect(toGuild.scope).toBe(`guild ${guild.id}`);
    expect(discord.commands.guild(guild.id).map((c) => c.name)).toContain('player');
    expect(discord.commands.global()).toHaveLength(0);
    const global = await deployCommands({ token: discord.token, apiUrl: discord.restUrl });
    expect(global.count).toBe(discord.commands.global().length);
    const player = discord.commands.global().find((c) => c.name === 'player');
    expect(player?.name_localizations?.de).toBeDefined();
    expect(player?.integration_types).toEqual([0, 1]);
  });
});
