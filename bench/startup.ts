import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Figures } from './client.ts';

/**
 * Start-up of the bot compiled (`npm run build`, plain node: what `npm start` and the image run) against
 * its TypeScript sources through tsx (what development runs): a fresh process imports the composition
 * roots (bot, worker, process roles), then loads every command and the locale files, as the bot does
 * before it connects, and exits. Measured per run: wall time from spawn to exit, the time the import took
 * inside the process (from its start), and its RSS at that point. tsx keeps a transform cache on disk; a container starts
 * without it, so tsx is measured both ways.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = 7;

/**
 * What a process of the bot imports on start-up, as sources (the compiled run imports their dist/ forms):
 * the composition roots, not the entry files, which would start a bot on import.
 */
const ENTRIES = ['src/bot.ts', 'src/worker.ts', 'src/processes/run.ts'].filter((file) =>
  existsSync(join(ROOT, file)),
);

interface Sample {
  readonly wallMs: number;
  readonly importMs: number;
  readonly rssMb: number;
}

type Variant = 'compiled' | 'tsx' | 'tsx-cold';

function probeSource(variant: Variant): string {
  const url = (file: string) =>
    pathToFileURL(join(ROOT, variant === 'compiled' ? `dist/${file.replace(/\.ts$/, '.js')}` : file)).href;
  const imports = ENTRIES.map((file) => `await import(${JSON.stringify(url(file))});`).join('\n');
  return `${imports}
const { loadCommands } = await import(${JSON.stringify(url('src/discord/loader.ts'))});
const { Translations } = await import(${JSON.stringify(url('src/i18n/index.ts'))});
await loadCommands(new Translations());
process.stdout.write(JSON.stringify({ importMs: performance.now(), rss: process.memoryUsage().rss }));
process.exit(0);`;
}

function runProbe(variant: Variant): Promise<Sample> {
  const args = variant === 'compiled' ? [] : ['--import', 'tsx'];
  const env = { ...process.env, ...(variant === 'tsx-cold' ? { TSX_DISABLE_CACHE: '1' } : {}) };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, '--input-type=module', '-e', probeSource(variant)], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`${variant} probe exited ${code}: ${err}`));
      const { importMs, rss } = JSON.parse(out) as { importMs: number; rss: number };
      resolve({ wallMs, importMs, rssMb: rss / 2 ** 20 });
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** A fresh `dist/`, as `npm run build` makes it, so that the compiled figures are of the current sources. */
function build(): number {
  const started = performance.now();
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/lib/tsc.js');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the build failed:\n${result.stdout}${result.stderr}`);
  return performance.now() - started;
}

export async function benchStartup(): Promise<Figures> {
  const buildMs = build();
  const variants: Variant[] = ['compiled', 'tsx', 'tsx-cold'];
  const samples = new Map<Variant, Sample[]>(variants.map((variant) => [variant, []]));
  // One warm-up each (the tsx cache, the OS file cache), then the runs interleaved so that a busy moment
  // of the machine weighs on every variant alike.
  for (const variant of variants) await runProbe(variant);
  for (let run = 0; run < RUNS; run += 1) {
    for (const variant of variants) samples.get(variant)?.push(await runProbe(variant));
  }
  const figure = (variant: Variant, key: keyof Sample) =>
    median((samples.get(variant) ?? []).map((s) => s[key]));
  const figures: Figures = {
    'modules imported': `${ENTRIES.join(', ')}, then every command and locale file`,
    'runs per variant': RUNS,
    'npm run build (s)': Number((buildMs / 1000).toFixed(1)),
  };
  for (const variant of variants) {
    figures[`${variant}: wall time to exit, median (ms)`] = Math.round(figure(variant, 'wallMs'));
    figures[`${variant}: import done after process start, median (ms)`] = Math.round(
      figure(variant, 'importMs'),
    );
    figures[`${variant}: RSS, median (MB)`] = Number(figure(variant, 'rssMb').toFixed(1));
  }
  for (const variant of ['tsx', 'tsx-cold'] as const) {
    figures[`${variant} / compiled: wall time`] = Number(
      (figure(variant, 'wallMs') / figure('compiled', 'wallMs')).toFixed(2),
    );
    figures[`${variant} − compiled: RSS (MB)`] = Number(
      (figure(variant, 'rssMb') - figure('compiled', 'rssMb')).toFixed(1),
    );
  }
  return figures;
}
