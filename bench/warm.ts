import { startStack } from '../src/dev/demo/stack.ts';
import { images } from '../src/render/image/images.ts';
import { against, loopDelayFigure, MEASURED_LOOP_DELAY, watchLoop, type SectionFigures } from './figures.ts';

/**
 * Cached commands against a trivial one, through the same router in the same run (interaction → final
 * reply, gateway and REST round trips of the stand-in included): `/player profile`, `/clan profile`,
 * `/map info` and `/market skin` with their answers already cached, each against `/link status` of a user
 * without a link (one small database read and a reply). Rounds interleave the five, so a slower moment
 * of the machine weighs on all of them alike. Goal: each ≤ 2× the trivial command (medians), and no image
 * built or drawn once the cache holds them (a repeat is a lookup).
 */
const ROUNDS = 120;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function benchWarm(): Promise<SectionFigures> {
  const stack = await startStack({
    commands: ['player', 'clan', 'map', 'market', 'link'],
    announcements: false,
  });
  try {
    const samples = stack.sandbox.world.samples;
    const commands: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
      ['/link status (trivial)', () => stack.invoke('link', 'status').final()],
      ['/player profile', () => stack.invoke('player', 'profile', { name: samples.player }).final()],
      ['/clan profile', () => stack.invoke('clan', 'profile', { name: samples.clan }).final()],
      ['/map info', () => stack.invoke('map', 'info', { name: samples.timeBoardMap }).final()],
      ['/market skin', () => stack.invoke('market', 'skin', { skin: samples.skinIndex }).final()],
    ];
    // The first of each fills the cache (and loads what the command loads once).
    for (const [, run] of commands) await run();
    for (const [, run] of commands) await run();
    const times = new Map<string, number[]>(commands.map(([label]) => [label, []]));
    const before = images().stats;
    const loop = watchLoop();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [label, run] of commands) {
        const started = performance.now();
        await run();
        times.get(label)?.push(performance.now() - started);
      }
    }
    const delayMs = await loop.stop();
    const after = images().stats;
    const trivial = median(times.get('/link status (trivial)') ?? []);
    const figures: SectionFigures = { 'rounds (each command once a round)': ROUNDS };
    figures['/link status (trivial), median ms'] = Number(trivial.toFixed(2));
    for (const [label] of commands.slice(1)) {
      const cached = median(times.get(label) ?? []);
      figures[`${label} cached, median ms`] = Number(cached.toFixed(2));
      figures[`${label} ÷ trivial`] = against(cached / trivial, { max: 2 }, 2);
    }
    const work = after.built + after.drawn - before.built - before.drawn;
    figures['images built or drawn while measuring'] = against(work, { max: 0 }, 0);
    figures[MEASURED_LOOP_DELAY] = loopDelayFigure(delayMs);
    return figures;
  } finally {
    await stack.stop();
  }
}
