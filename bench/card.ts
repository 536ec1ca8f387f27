import { pathToFileURL } from 'node:url';
import { renderProfileCard, type ProfileCardInput } from '../src/features/players/card.ts';
import type { Figures } from './client.ts';

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** A card as hard as a real one gets: Chinese, Cyrillic, Korean and emoji in the name, every badge. */
export const CARD_SAMPLE: ProfileCardInput = {
  name: '狙击手Снайпер😀🔥저격수',
  clan: 'ΣΚΟ🎯',
  level: 'Level 87',
  badges: [
    { kind: 'verified', label: 'Verified' },
    { kind: 'premium', label: 'Premium' },
    { kind: 'kpd', label: 'KPD moderator' },
  ],
  stats: [
    { label: 'K/D', value: '2.14' },
    { label: 'Kills', value: '123,456' },
    { label: 'Score', value: '9,876,543' },
    { label: 'Win rate', value: '54.2%' },
    { label: 'Time played', value: '12d 4h' },
  ],
  ranked: {
    title: 'Ranked MMR',
    regions: [
      { label: 'Europe', value: '2,140 MMR' },
      { label: 'North America', value: '1,575 MMR' },
      { label: 'Asia', value: '980 MMR' },
    ],
    none: 'No ranked standing this season',
  },
};

const RENDERS = 200;

/**
 * The profile card, SVG → PNG with DejaVu Sans and the CJK and emoji fallbacks: median and p99 of
 * {@link RENDERS} renders after a warm-up (the first render reads the fonts' tables once), and the PNG's
 * size. The goal is a median within 50 ms.
 */
export function benchCard(): Promise<Figures> {
  let bytes = renderProfileCard(CARD_SAMPLE).png.length;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RENDERS; i += 1) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    bytes = renderProfileCard({ ...CARD_SAMPLE, level: `Level ${i}` }).png.length;
    const used = process.cpuUsage(cpuStarted);
    times.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return Promise.resolve({
    'profile card (CJK + emoji name), median (ms)': Number(percentile(times, 50).toFixed(2)),
    'profile card (CJK + emoji name), p99 (ms)': Number(percentile(times, 99).toFixed(2)),
    // CPU time of the render thread: the figure a busy machine (other processes on the cores) leaves alone.
    'profile card, CPU time per render, median (ms)': Number(percentile(cpu, 50).toFixed(2)),
    'profile card, CPU time per render, p99 (ms)': Number(percentile(cpu, 99).toFixed(2)),
    'profile card renders measured': times.length,
    'profile card PNG (bytes)': bytes,
  });
}

// `npx tsx bench/card.ts` runs this section alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [label, value] of Object.entries(await benchCard()))
    process.stdout.write(`${label}: ${value}\n`);
}
