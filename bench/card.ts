import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  buildProfileCardSvg,
  renderProfileCard,
  type ProfileCardInput,
} from '../src/features/players/card.ts';
import { fontFilesFor } from '../src/render/chart/font.ts';
import { drawPng } from '../src/render/image/draw.ts';
import { ImageRenderer, useImages } from '../src/render/image/images.ts';
import { defaultPoolSize } from '../src/render/image/pool.ts';
import { cpuTimes, idleBlock, percentile, PROBE_DELAY, round, timed } from './charts.ts';
import {
  formatFigure,
  loopDelayFigure,
  MEASURED_LOOP_DELAY,
  watchLoop,
  type SectionFigures,
} from './figures.ts';

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

const RENDERS = 100;

/**
 * The profile card through the bot's image path (the SVG built, then the cache or a render worker): drawn
 * new each time (the level moves) against the goal of 50 ms, then the same card again as a reply asks for
 * it (`renderProfileCard`: a lookup by what the card shows, no SVG built) against 20 ms; the event loop's
 * longest block meanwhile, from the first card of the process on (the threads start and the fonts are read
 * then), and idle, for the machine's share; and the CPU time of the draw itself (resvg and the PNG, as each
 * worker runs it), which other load leaves alone: measured on this thread, it holds the loop as the bot
 * never does, so its delay is printed beside, not judged.
 */
export async function benchCard(): Promise<SectionFigures> {
  const renderer = new ImageRenderer({
    cacheBytes: 32 * 1024 * 1024,
    pool: { size: defaultPoolSize(), queueLimit: 64, timeoutMs: 5_000 },
  });
  const card = (level: string) => {
    const built = buildProfileCardSvg({ ...CARD_SAMPLE, level });
    return { svg: built.svg, fontFiles: fontFilesFor(built.texts) };
  };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const previous = useImages(renderer);
  try {
    const serving = watchLoop();
    let bytes = Number.NaN;
    const [first] = await timed(1, async () => {
      bytes = (await renderer.draw(card('warm-up')))?.png.length ?? Number.NaN;
    });
    loop.enable();
    const drawn = await timed(RENDERS, async (i) => {
      await renderer.draw(card(`Level ${i}`));
    });
    const again = { ...CARD_SAMPLE, level: 'Level 0' };
    await renderProfileCard(again);
    const cached = await timed(RENDERS, async () => {
      await renderProfileCard(again);
    });
    loop.disable();
    const servingDelay = await serving.stop();
    const idle = await idleBlock(2_000);
    const probe = watchLoop();
    const cpu = await cpuTimes(RENDERS / 4, (i) => {
      const { svg, fontFiles } = card(`Thread ${i}`);
      drawPng(svg, fontFiles);
    });
    const probeDelay = await probe.stop();
    return {
      'profile card, the first of the process (threads started, fonts read), ms': round(first ?? NaN),
      'profile card (CJK + emoji name), drawn, median (ms; goal ≤ 50)': round(percentile(drawn, 50)),
      'profile card, drawn, p99 (ms)': round(percentile(drawn, 99)),
      'profile card, again from the cache, median (ms; goal ≤ 20)': round(percentile(cached, 50)),
      'profile card, again from the cache, p99 (ms)': round(percentile(cached, 99)),
      'profile card, the draw alone, CPU time median (ms; goal ≤ 50)': round(percentile(cpu, 50)),
      'longest event-loop block while drawing cards (ms; goal ≤ 50)': round(loop.max / 1e6),
      [MEASURED_LOOP_DELAY]: loopDelayFigure(servingDelay),
      'longest event-loop block idle, for comparison (ms)': idle,
      [PROBE_DELAY]: round(probeDelay),
      'profile cards drawn / served from cache': `${renderer.stats.drawn} / ${renderer.stats.cached}`,
      'profile card PNG (bytes)': bytes,
    };
  } finally {
    loop.disable();
    useImages(previous);
    await renderer.close();
  }
}

// `npx tsx bench/card.ts` runs this section alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [label, value] of Object.entries(await benchCard()))
    process.stdout.write(`${formatFigure(label, value)}\n`);
}
