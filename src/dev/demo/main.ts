import { mkdir, mkdtemp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runDemo } from './run.ts';

/**
 * `npm run demo`: the real bot between the bundled game API sandbox and a local Discord stand-in, fully
 * offline and with no token. It plays a scripted session of every command and subcommand, prints each
 * reply as text and writes the chart images to a folder of this run's own under `demo-output/` (two runs
 * at once in one checkout keep theirs apart). It exits with 1 when a reply is not what its step expects.
 */
async function main(): Promise<number> {
  const root = resolve('demo-output');
  await mkdir(root, { recursive: true });
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
  const outDir = await mkdtemp(join(root, `${stamp}-`));
  // `npm run demo -- --keyless`: the same session with no GAME_API_KEY.
  const keyless = process.argv.slice(2).includes('--keyless');
  const report = await runDemo({ outDir, keyless });
  const seconds = (report.durationMs / 1000).toFixed(1);
  process.stdout.write(
    `\nDone in ${seconds} s: ${report.played.length} commands and subcommands played, ` +
      `${report.replies.length} replies. Chart images are in ${outDir}\n`,
  );
  if (report.problems.length === 0) return 0;
  process.stdout.write(`\n${report.problems.length} problem(s):\n`);
  for (const problem of report.problems) process.stdout.write(`  ✗ ${problem}\n`);
  return 1;
}

process.exitCode = await main();
