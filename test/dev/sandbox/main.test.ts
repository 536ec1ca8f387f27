import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { get } from '../../support/sandbox.ts';

describe('npm run sandbox', () => {
  it('prints working URLs, keys, a token and the .env lines, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/dev/sandbox/main.ts', '--seed', '5'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('GAME_HOSTNAME=')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
      });
      const env = Object.fromEntries(
        output
          .split('\n')
          .filter((line) => line.startsWith('GAME_'))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      expect(Object.keys(env).sort()).toEqual([
        'GAME_API_KEY',
        'GAME_API_KEY_HEADER',
        'GAME_API_URL',
        'GAME_HOSTNAME',
        'GAME_LEGACY_URL',
        'GAME_MATCHMAKER_URL',
      ]);
      const token = /Access token of .*:\n\s+(\S+)/.exec(output)?.[1];
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

      const kpd = await get(`${env['GAME_API_URL']}/api/kpd/latest-calls`, {
        [env['GAME_API_KEY_HEADER']!]: env['GAME_API_KEY']!,
      });
      expect(kpd.status).toBe(200);
      const ranked = await get(`${env['GAME_LEGACY_URL']}/daily-spin/progress`, {
        Authorization: `Bearer ${token}`,
      });
      expect(ranked.status).toBe(200);
      const lobbies = await get(`${env['GAME_MATCHMAKER_URL']}/game-list?hostname=${env['GAME_HOSTNAME']}`);
      expect(lobbies.status).toBe(200);

      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
