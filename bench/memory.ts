import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stackEnvironment } from '../src/dev/demo/stack.ts';
import { startSandbox } from '../src/dev/sandbox/index.ts';
import { startDiscordStandin } from '../src/dev/standin/index.ts';
import type { Figures } from './client.ts';

/**
 * Memory per 1,000 servers: one shard process (what a shard child runs) logged in to the stand-in with
 * 100 and with 2,400 servers (one shard holds at most 2,500) (three channels each), RSS and heap after READY and a full GC;
 * the difference divided by the 2,300 servers between them is what each 1,000 more cost.
 */
const SIZES = [100, 2_400];
const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url));

async function measure(guilds: number): Promise<{ rss: number; heapUsed: number }> {
  const sandbox = await startSandbox();
  const discord = await startDiscordStandin();
  try {
    for (let i = 0; i < guilds; i += 1) {
      const guild = discord.addGuild({ name: `Server ${i}` });
      for (const name of ['general', 'maps', 'clan']) discord.addChannel(guild.id, { name });
    }
    const env = stackEnvironment(sandbox, discord, { LOG_LEVEL: 'silent' });
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    await new Promise((resolve) => child.once('exit', resolve));
    const line = out.trim().split('\n').at(-1) ?? '{}';
    return JSON.parse(line) as { rss: number; heapUsed: number };
  } finally {
    await discord.close();
    await sandbox.close();
  }
}

export async function benchMemory(): Promise<Figures> {
  const [small, large] = [await measure(SIZES[0] ?? 0), await measure(SIZES[1] ?? 0)];
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  const per = 1000 / ((SIZES[1] ?? 0) - (SIZES[0] ?? 0));
  return {
    [`RSS with ${SIZES[0]} servers, MB`]: mb(small.rss),
    [`RSS with ${SIZES[1]} servers, MB`]: mb(large.rss),
    'RSS per 1,000 servers, MB': mb((large.rss - small.rss) * per),
    'heap per 1,000 servers, MB': mb((large.heapUsed - small.heapUsed) * per),
  };
}
