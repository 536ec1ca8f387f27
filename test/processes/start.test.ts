import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackEnvironment } from '../../src/dev/demo/stack.ts';
import { freePort } from '../../src/dev/net.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { guildIdOnShard, startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import { expectAnsweredOnce, modsList, ops, OutputLines, within } from '../support/processes.ts';

/** What `scripts/dist.js` (plain JavaScript, run by node before anything is compiled) exports. */
interface DistScript {
  readonly STAMP: string;
  decide(stamp: { sources: number } | undefined, newestSource: number): 'missing' | 'stale' | 'fresh';
  newestSourceTime(root: string, entries?: readonly string[]): number;
  freshness(root: string): 'missing' | 'stale' | 'fresh';
  prune(root: string): void;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dist = (await import(pathToFileURL(join(ROOT, 'scripts/dist.js')).href)) as DistScript;

const temporary: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** Sets a file's modification time to `seconds` after the epoch: no test waits for the clock to move. */
function touch(path: string, seconds: number): void {
  utimesSync(path, seconds, seconds);
}

describe('the build-if-stale decision', () => {
  it('builds when there is no build or no stamp, or when a source is newer than the stamp', () => {
    expect(dist.decide(undefined, 1_000)).toBe('missing');
    expect(dist.decide({ sources: 1_000 }, 1_000)).toBe('fresh');
    expect(dist.decide({ sources: 1_000 }, 999)).toBe('fresh');
    expect(dist.decide({ sources: 1_000 }, 1_001)).toBe('stale');
  });

  it('reads the newest time of every source, deep in folders, but not of src/dev, which is never built', () => {
    const root = tempDir('killfeed-stale-');
    mkdirSync(join(root, 'src/render/chart'), { recursive: true });
    mkdirSync(join(root, 'src/dev'), { recursive: true });
    mkdirSync(join(root, 'commands'));
    for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'commands/me.ts']) {
      writeFileSync(join(root, file), '{}');
      touch(join(root, file), 100);
    }
    writeFileSync(join(root, 'src/render/chart/axis.ts'), '');
    writeFileSync(join(root, 'src/dev/sandbox.ts'), '');
    for (const path of ['src/render/chart/axis.ts', 'src/render/chart', 'src/render', 'src', 'commands']) {
      touch(join(root, path), 100);
    }
    touch(join(root, 'src/dev/sandbox.ts'), 900);
    touch(join(root, 'src/dev'), 900);
    expect(dist.newestSourceTime(root)).toBe(100_000);

    mkdirSync(join(root, 'dist-build'));
    symlinkSync('dist-build', join(root, 'dist'));
    expect(dist.freshness(root)).toBe('missing');
    writeFileSync(join(root, 'dist-build', dist.STAMP), JSON.stringify({ sources: 100_000 }));
    expect(dist.freshness(root)).toBe('fresh');

    touch(join(root, 'src/render/chart/axis.ts'), 200);
    expect(dist.freshness(root)).toBe('stale');
    touch(join(root, 'src/render/chart/axis.ts'), 100);
    touch(join(root, 'tsconfig.build.json'), 300);
    expect(dist.freshness(root)).toBe('stale');
  });

  it('removes old builds only when no live process runs them', () => {
    const root = tempDir('killfeed-prune-');
    const builds = ['dist-a1-1-00000001', 'dist-a2-1-00000002', 'dist-a3-1-00000003', 'dist-a4-1-00000004'];
    // Named by their start time in base 36: a1 is the oldest.
    for (const name of builds) mkdirSync(join(root, name));
    symlinkSync('dist-a4-1-00000004', join(root, 'dist'));
    // This test's own process runs the oldest build; a process that no longer exists ran the second.
    mkdirSync(join(root, builds[0]!, '.in-use'));
    writeFileSync(join(root, builds[0]!, '.in-use', String(process.pid)), '');
    mkdirSync(join(root, builds[1]!, '.in-use'));
    writeFileSync(join(root, builds[1]!, '.in-use', '999999999'), '');
    dist.prune(root);
    // Kept: the current build, the one before it, and the one a live process runs.
    expect(readdirSync(root).sort()).toEqual(['dist', builds[0], builds[2], builds[3]].sort());
  });
});

/**
 * Two bots started with `npm start` at the same moment in one checkout without dist/ (a fresh clone, with
 * the shared node_modules linked in): shard 0 and shard 1 of a bot split over two processes, against the
 * Discord stand-in and the game API sandbox. Before, both ran `rm -rf dist && tsc`, and the one that lost
 * the race failed with ERR_MODULE_NOT_FOUND or ENOENT.
 */
describe('npm start twice at once in one checkout', () => {
  let sandbox: Sandbox | undefined;
  let discord: DiscordStandin | undefined;
  let checkout = '';
  const bots: {
    child: ChildProcess;
    exited: Promise<unknown>;
    port: number;
    output: string;
    lines: OutputLines;
  }[] = [];
  const guilds: string[] = [];

  beforeAll(async () => {
    checkout = tempDir('killfeed-checkout-');
    const devTools = join(ROOT, 'src/dev');
    cpSync(join(ROOT, 'src'), join(checkout, 'src'), { recursive: true, filter: (p) => p !== devTools });
    for (const copied of ['commands', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(join(ROOT, copied), join(checkout, copied), { recursive: true });
    }
    for (const linked of ['node_modules', 'locales', 'assets']) {
      symlinkSync(realpathSync(join(ROOT, linked)), join(checkout, linked));
    }
    sandbox = await startSandbox();
    discord = await startDiscordStandin({ interactionTimeoutMs: 15_000, maxConcurrency: 2 });
    for (const shard of [0, 1]) {
      const id = discord.addGuild({ id: guildIdOnShard(shard, 2, 0) }).id;
      discord.addChannel(id, { name: 'general' });
      guilds.push(id);
    }
    for (const shard of [0, 1]) {
      const port = await freePort();
      const env = stackEnvironment(sandbox, discord, {
        // Info, for the line that says the shard is ready.
        LOG_LEVEL: 'info',
        PROCESS_ROLE: 'shards',
        SHARD_COUNT: '2',
        SHARD_IDS: String(shard),
        HTTP_PORT: String(port),
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? checkout,
      });
      // A group of its own: npm, its shell, the bot and its shard process are stopped together.
      const child = spawn('npm', ['start'], { cwd: checkout, env, detached: true, stdio: 'pipe' });
      const lines = new OutputLines(child.stdout, child.stderr);
      const bot = { child, exited: once(child, 'exit'), port, output: '', lines };
      const keep = (chunk: Buffer) => (bot.output = (bot.output + chunk.toString('utf8')).slice(-20_000));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      bots.push(bot);
    }
    for (const bot of bots) {
      try {
        await bot.lines.when(/"msg":"shard ready"/, 90_000, 'npm start ready');
      } catch (error) {
        throw new Error(`${String(error)}\n${bots.map((b) => b.output).join('\n---\n')}`);
      }
      expect((await ops(bot.port, '/healthz'))?.status).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    for (const bot of bots) {
      if (bot.child.exitCode !== null || bot.child.signalCode !== null) continue;
      process.kill(-bot.child.pid!, 'SIGTERM');
    }
    for (const bot of bots) {
      await within(30_000, bot.exited, 'npm start stopped').catch(() => undefined);
      try {
        process.kill(-bot.child.pid!, 'SIGKILL');
      } catch {
        // the whole group is gone
      }
    }
    await discord?.close();
    await sandbox?.close();
  }, 60_000);

  it('both come up and answer a command, each in the server of its shard', async () => {
    const pending = guilds.map((guildId) =>
      discord!.invokeCommand({ name: 'mods', options: modsList, guildId }),
    );
    const finals = await within(60_000, Promise.all(pending.map((p) => p.final(45_000))), 'both answered');
    expect(finals.every((message) => message.embeds.length > 0)).toBe(true);
    expectAnsweredOnce(discord!, pending);
  }, 70_000);

  it('a third start beside them (a supervisor restarting one) neither deletes nor rebuilds the build', async () => {
    const build = realpathSync(join(checkout, 'dist'));
    const marker = join(build, 'still-here');
    writeFileSync(marker, '');
    // Without configuration it stops at once, once it has done what it does to dist/ before the bot runs.
    const third = spawn('npm', ['start'], {
      cwd: checkout,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? checkout },
      stdio: 'pipe',
    });
    let output = '';
    third.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    third.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const [code] = (await within(60_000, once(third, 'exit'), 'third npm start ended')) as [number | null];
    expect(output).toContain('GAME_API_URL: is required');
    expect(code).toBe(1);
    expect(output).not.toMatch(/compiling|tsc/);
    expect(existsSync(marker)).toBe(true);
    expect(realpathSync(join(checkout, 'dist'))).toBe(build);
  }, 70_000);

  it('compiled once: the second start waited for the first build and used it, from one build folder', () => {
    const output = bots.map((bot) => bot.output).join('\n');
    expect(output.match(/compiling into/g)).toHaveLength(1);
    const build = readlinkSync(join(checkout, 'dist'));
    expect(build).toMatch(/^dist-[0-9a-z]+-\d+-[0-9a-f]+$/);
    expect(readdirSync(checkout).filter((name) => name.startsWith('dist-'))).toEqual([build]);
    expect(dist.freshness(checkout)).toBe('fresh');
    // Both bots registered as running that build, so no later build removes it under them.
    expect(readdirSync(join(checkout, build, '.in-use'))).toHaveLength(2);
    expect(existsSync(join(checkout, '.dist.lock'))).toBe(false);
  });
});
