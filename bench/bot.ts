import { startStack } from '../src/dev/demo/stack.ts';
import { renderHistoryChart } from '../src/features/history/chart.ts';
import { renderPriceHistoryChart } from '../src/features/market/price-chart.ts';
import { renderRankedStandingChart } from '../src/features/players/ranked-chart.ts';
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

/** Chart rendering (SVG → PNG with the shipped font). */
export function benchCharts(): Promise<Figures> {
  const day = 86_400_000;
  const points = Array.from({ length: 120 }, (_, i) => ({
    date: new Date(Date.UTC(2026, 6, 1) + i * day).toISOString().slice(0, 10),
    averagePrice: 200 + Math.sin(i / 7) * 40,
    sales: 5 + (i % 11),
  }));
  const price = () =>
    renderPriceHistoryChart({
      title: 'Arctic Raven',
      points,
      days: 120,
      locale: 'en-US',
      labels: {
        averagePrice: 'Average price',
        sales: 'Sales',
        noSales: 'No sales',
        outOfRange: (count: number) => `${count} not drawn`,
      },
      end: points.at(-1)?.date,
    });
  const ranked = () =>
    renderRankedStandingChart({
      title: 'Ranked standing',
      regions: [
        { label: 'Asia', mmr: 1200, wins: 10, losses: 4 },
        {
          label: 'Europe',
          mmr: 2100,
          wins: 30,
          losses: 12,
          history: Array.from({ length: 30 }, (_, i) => ({
            at: Date.UTC(2026, 6, 1) + i * 86_400_000,
            mmr: 1900 + i * 7,
          })),
        },
        { label: 'North America', mmr: 900, wins: 3, losses: 9 },
      ],
      locale: 'en-US',
      now: Date.UTC(2026, 6, 31),
      labels: {
        mmr: 'MMR',
        wins: 'Wins',
        losses: 'Losses',
        none: 'None',
        best: 'best',
        history: 'MMR over time',
        noHistory: 'No history yet',
        outOfRange: (count: number) => `${count} not drawn`,
      },
    });
  const compare = () =>
    renderHistoryChart({
      title: 'K/D — Sn1per vs Camper, 30 days',
      series: ['Sn1per', 'Camper'].map((label, player) => ({
        label,
        points: Array.from({ length: 720 }, (_, i) => ({
          at: Date.UTC(2026, 6, 1) + i * 3_600_000,
          value: 1.2 + player * 0.3 + Math.sin(i / 40) * 0.1,
        })),
      })),
      from: Date.UTC(2026, 6, 1),
      to: Date.UTC(2026, 6, 31),
      locale: 'en-US',
      decimals: 2,
      labels: { noData: 'No data', outOfRange: (count: number) => `${count} not drawn` },
    });
  const time = (render: () => unknown, rounds: number) => {
    render();
    const started = performance.now();
    for (let i = 0; i < rounds; i += 1) render();
    return Number(((performance.now() - started) / rounds).toFixed(2));
  };
  return Promise.resolve({
    'price history chart, 120 days (ms per render)': time(price, 30),
    'ranked standing chart (ms per render)': time(ranked, 30),
    'history chart, two players of 720 readings (ms per render)': time(compare, 30),
  });
}
