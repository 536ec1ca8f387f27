import { startStack } from '../src/dev/demo/stack.ts';
import type { Figures } from './client.ts';

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/**
 * Interaction to final reply, through the real discord.js client and the local stand-in, with the
 * answer already cached: what the bot itself adds to a command, gateway and REST round trips included.
 */
export async function benchInteractionLatency(): Promise<Figures> {
  const stack = await startStack({ commands: ['player', 'clan', 'map'] });
  try {
    const samples = stack.sandbox.world.samples;
    const steps = [
      () => stack.invoke('player', 'profile', { name: samples.player }),
      () => stack.invoke('clan', 'profile', { name: samples.clan }),
      () => stack.invoke('map', 'info', { name: samples.timeBoardMap }),
    ];
    for (const step of steps) await step().final();
    const times: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const started = performance.now();
      const step = steps[i % steps.length];
      if (step) await step().final();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return {
      'interaction → reply, warm cache, median (ms)': Number(percentile(times, 50).toFixed(2)),
      'interaction → reply, warm cache, p99 (ms)': Number(percentile(times, 99).toFixed(2)),
      'interactions measured': times.length,
    };
  } finally {
    await stack.stop();
  }
}
