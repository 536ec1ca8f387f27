import { afterEach, describe, expect, it } from 'vitest';
import { renderProfileCard } from '../../../src/features/players/card.ts';
import { renderProfile } from '../../support/with-ids.ts';
import { renderPriceHistoryChart } from '../../../src/features/market/price-chart.ts';
import { contentKey, ImageRenderer, THEME, useImages } from '../../../src/render/image/images.ts';
import type { PlayerProfile } from '../../../src/api/schemas/index.ts';
import { ManualClock } from '../../support/clock.ts';
import { translators } from '../../support/render.ts';
import {
  failingWorker,
  HANG,
  hangingWorker,
  markerWorker,
  testPool,
  tinySvg,
} from '../../support/render-pool.ts';

const { en } = translators;
const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const profile: PlayerProfile = {
  player_id: 1,
  player_name: 'Sn1per',
  clan: 'ABC',
  level: 40,
  kills: 100,
  deaths: 50,
};
const card = {
  name: 'Sn1per',
  clan: 'ABC',
  level: 'Level 40',
  badges: [],
  stats: [{ label: 'K/D', value: '2.00' }],
  ranked: { title: 'Ranked', regions: [], none: 'No ranked standing' },
};

const made: ImageRenderer[] = [];
let replaced: { previous: ImageRenderer | undefined } | undefined;

/** A renderer of its own for the test, put in place of the process's one (and back afterwards). */
function install(renderer: ImageRenderer): ImageRenderer {
  made.push(renderer);
  replaced ??= { previous: useImages(renderer) };
  useImages(renderer);
  return renderer;
}

afterEach(async () => {
  if (replaced) useImages(replaced.previous);
  replaced = undefined;
  await Promise.all(made.splice(0).map((renderer) => renderer.close()));
});

describe('ImageRenderer', () => {
  it('draws an image once: the same card asked again is a lookup that builds and draws nothing', async () => {
    const renderer = install(new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker) }));
    const first = await renderProfileCard(card);
    const second = await renderProfileCard(card);
    // Built once: the second card is found by what it shows, before any SVG is made.
    expect(renderer.stats).toMatchObject({ built: 1, drawn: 1, cached: 1, failed: 0 });
    expect(second?.png.equals(first?.png ?? Buffer.alloc(0))).toBe(true);
    expect(second?.altText).toBe(first?.altText);
    // Another locale's text (or any other data) is another image.
    await renderProfileCard({ ...card, level: 'Niveau 40' });
    expect(renderer.stats).toMatchObject({ built: 2, drawn: 2, cached: 1 });
  });

  it('keeps a chart by its data and locale: asked again it is a lookup, changed it is drawn again', async () => {
    const renderer = install(new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker) }));
    const chart = {
      title: 'AK-47 Redline',
      points: [
        { date: '2024-01-01', averagePrice: 1200, sales: 3 },
        { date: '2024-01-02', averagePrice: 1250.5, sales: 1 },
      ],
      days: 7,
      end: '2024-01-07',
      locale: 'en-US',
      labels: { averagePrice: 'Average price', sales: 'Sales', noSales: 'None', outOfRange: String },
    };
    const first = await renderPriceHistoryChart(chart);
    const again = await renderPriceHistoryChart({
      ...chart,
      points: chart.points.map((point) => ({ ...point })),
    });
    expect(renderer.stats).toMatchObject({ built: 1, drawn: 1, cached: 1 });
    expect(again?.png.equals(first?.png ?? Buffer.alloc(0))).toBe(true);
    expect(again?.altText).toBe(first?.altText);
    // The locale formats the axes and dates: another locale is another image, so is another price.
    const german = await renderPriceHistoryChart({ ...chart, locale: 'de' });
    expect(german?.altText).not.toBe(first?.altText);
    await renderPriceHistoryChart({ ...chart, points: [{ ...chart.points[0]!, averagePrice: 1201 }] });
    expect(renderer.stats).toMatchObject({ built: 3, drawn: 3, cached: 1 });
  });

  it('joins a draw under way instead of drawing the same image twice', async () => {
    const renderer = install(
      new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker, { size: 2 }) }),
    );
    const [a, b] = await Promise.all([
      renderer.draw({ svg: tinySvg(1) }),
      renderer.draw({ svg: tinySvg(1) }),
    ]);
    expect(a).toBe(b);
    expect(renderer.stats).toMatchObject({ drawn: 1, joined: 1 });
  });

  it('keeps its images within its bytes: an image pushed out is drawn again', async () => {
    const probe = new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker) });
    made.push(probe);
    const one = (await probe.draw({ svg: tinySvg(1) }))?.png.length;
    expect(one).toBeGreaterThan(0);
    // Room for one image and a half: the second pushes the first out.
    const renderer = install(
      new ImageRenderer({ cacheBytes: Math.round((one ?? 0) * 1.5) + 300, pool: testPool(markerWorker) }),
    );
    await renderer.draw({ svg: tinySvg(1) });
    await renderer.draw({ svg: tinySvg(2) });
    await renderer.draw({ svg: tinySvg(1) });
    expect(renderer.stats).toMatchObject({ drawn: 3, cached: 0 });
    expect(renderer.stats.cache.evictions).toBe(2);
    await renderer.draw({ svg: tinySvg(1) });
    expect(renderer.stats).toMatchObject({ drawn: 3, cached: 1 });
  });

  it('answers undefined for a draw that throws in its worker, tells its listeners, and draws the next', async () => {
    const renderer = install(new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker) }));
    const failures: string[] = [];
    renderer.onFailure((error) => failures.push(error.name));
    expect(await renderer.draw({ svg: '<svg' })).toBeUndefined();
    expect(failures).toEqual(['RenderFailedError']);
    expect((await renderer.draw({ svg: tinySvg(3) }))?.width).toBe(4);
    // A failure is not kept: asked again, it is tried again.
    expect(await renderer.draw({ svg: '<svg' })).toBeUndefined();
    expect(renderer.stats).toMatchObject({ drawn: 1, failed: 2, cached: 0 });
  });

  it('answers undefined for a draw that hangs past the timeout, and the next draw works', async () => {
    const clock = new ManualClock();
    const pool = testPool(markerWorker, { timeoutMs: 3_000, sleep: (ms, signal) => clock.sleep(ms, signal) });
    const renderer = install(new ImageRenderer({ cacheBytes: 1 << 20, pool }));
    const stuck = renderer.draw({ svg: tinySvg(4, HANG) });
    await clock.whenSleeping(1);
    await clock.advance(3_000);
    expect(await stuck).toBeUndefined();
    const next = renderer.draw({ svg: tinySvg(5) });
    await clock.whenSleeping(1);
    expect((await next)?.width).toBe(4);
  });
});

describe('contentKey', () => {
  const shown = { kind: 'profile-card', data: card };

  it('is the same for the same content, and another for another kind, other data or another theme', () => {
    expect(contentKey({ kind: shown.kind, data: structuredClone(card) })).toBe(contentKey(shown));
    const others = [
      contentKey({ ...shown, kind: 'price-history' }),
      contentKey({ ...shown, data: { ...card, level: 'Level 41' } }),
      contentKey({ ...shown, data: { ...card, clan: undefined } }),
      contentKey(shown, THEME.replace('#2b2d31', '#ffffff')),
      contentKey({ ...shown, data: { ...card, value: Number.NaN } }),
      contentKey({ ...shown, data: { ...card, value: Number.POSITIVE_INFINITY } }),
      contentKey({ ...shown, data: { ...card, value: null } }),
    ];
    expect(new Set([contentKey(shown), ...others]).size).toBe(others.length + 1);
  });

  it('refuses a function in the data: what it would say is not in the key', () => {
    expect(() => contentKey({ kind: 'chart', data: { labels: { note: () => 'x' } } })).toThrow(/note/);
  });
});

describe('the profile’s changes, read while the rest of the reply is made', () => {
  const since = { name: 'Since yesterday', value: 'Kills +5', inline: false };

  it('come after the section’s fields once read, beside the card', async () => {
    install(new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker) }));
    let give: (fields: (typeof since)[]) => void = () => undefined;
    const changes = new Promise<(typeof since)[]>((resolve) => (give = resolve));
    const reply = renderProfile(en, { profile, section: 'overview', now: NOW, changes });
    const without = await renderProfile(en, { profile, section: 'overview', now: NOW });
    give([since]);
    const payload = await reply;
    expect(payload.embeds?.[0]?.fields).toEqual([...(without.embeds?.[0]?.fields ?? []), since]);
    expect(payload.files?.map((file) => file.name)).toEqual(['card.png']);
  });

  it('fail the reply when their read fails', async () => {
    install(new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker) }));
    const changes = Promise.reject(new Error('the store failed'));
    await expect(renderProfile(en, { profile, section: 'overview', now: NOW, changes })).rejects.toThrow(
      'the store failed',
    );
  });
});

describe('a reply whose image could not be drawn', () => {
  it('is the text reply alone when the worker throws', async () => {
    install(new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(failingWorker) }));
    const payload = await renderProfile(en, { profile, section: 'overview', now: NOW });
    expect(payload.files ?? []).toEqual([]);
    expect(payload.embeds?.[0]?.image).toBeUndefined();
    expect(payload.embeds?.[0]?.title).toBe('Sn1per');
  });

  it('is the text reply alone when the worker hangs past the timeout', async () => {
    const clock = new ManualClock();
    const pool = testPool(hangingWorker, {
      timeoutMs: 3_000,
      sleep: (ms, signal) => clock.sleep(ms, signal),
    });
    install(new ImageRenderer({ cacheBytes: 1 << 20, pool }));
    const reply = renderProfile(en, { profile, section: 'overview', now: NOW });
    await clock.whenSleeping(1);
    await clock.advance(3_000);
    const payload = await reply;
    expect(payload.files ?? []).toEqual([]);
    expect(payload.embeds?.[0]?.image).toBeUndefined();
    expect(payload.embeds?.[0]?.fields?.length).toBeGreaterThan(0);
  });

  it('carries the image when it is drawn', async () => {
    install(new ImageRenderer({ cacheBytes: 1 << 20, pool: testPool(markerWorker) }));
    const payload = await renderProfile(en, { profile, section: 'overview', now: NOW });
    expect(payload.files?.map((file) => file.name)).toEqual(['card.png']);
    expect(payload.embeds?.[0]?.image?.url).toBe('attachment://card.png');
  });
});
