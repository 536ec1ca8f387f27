import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type ApiEvent, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, get, rows, withKey } from '../../support/sandbox.ts';
import { ManualClock } from '../../support/clock.ts';

const DAY = 86_400_000;
const clock = new ManualClock(FIXED_NOW);
let sandbox: Sandbox;

interface Page {
  events: ApiEvent[];
  next: number;
  has_more: boolean;
}

async function poll(
  query: string,
  key = sandbox.keys.default,
): Promise<{ status: number; page: Page; error: unknown }> {
  const reply = await get(`${sandbox.urls.base}/api/events${query}`, withKey(key));
  return { status: reply.status, page: reply.body.data as Page, error: reply.body.error };
}

function retained(): ApiEvent[] {
  return sandbox.events.all().filter((e) => Date.parse(e.created_at) >= clock.now() - 30 * DAY);
}

beforeAll(async () => {
  sandbox = await startSandbox({
    now: () => clock.now(),
    rateLimit: { limit: 100_000, windowMs: 60_000 },
    eventsRateLimit: { limit: 100_000, windowMs: 60_000 },
  });
});
afterAll(() => sandbox.close());

describe('events feed', () => {
  it('lists the retained events oldest first, with gaps in the ids', async () => {
    const { status, page } = await poll('');
    expect(status).toBe(200);
    const kept = retained();
    expect(kept.length).toBeLessThan(sandbox.events.all().length);
    expect(page.events).toEqual(kept);
    const ids = page.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.some((id, i) => i > 0 && id - ids[i - 1]! > 1)).toBe(true);
    expect(page.has_more).toBe(false);
    expect(page.next).toBe(sandbox.events.all().at(-1)!.id);
    const event = page.events[0]!;
    expect(event.target).toEqual({ type: 'map', id: event.data.map_id });
    expect(event.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('pages with limit, next and has_more', async () => {
    const seen: ApiEvent[] = [];
    let after = 0;
    for (let round = 0; round < 100; round++) {
      const { page } = await poll(`?after=${after}&limit=7`);
      seen.push(...page.events);
      if (page.has_more) {
        expect(page.events).toHaveLength(7);
        expect(page.next).toBe(page.events.at(-1)!.id);
      }
      after = page.next;
      if (!page.has_more) break;
    }
    expect(seen).toEqual(retained());
    const { page } = await poll(`?after=${after}`);
    expect(page).toEqual({ events: [], next: after, has_more: false });
  });

  it('filters by type and target, and moves next past the skipped events', async () => {
    const { page } = await poll('?types=map.unfeatured');
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.events.every((e) => e.type === 'map.unfeatured')).toBe(true);
    expect(page.events).toEqual(retained().filter((e) => e.type === 'map.unfeatured'));
    expect(page.next).toBe(sandbox.events.all().at(-1)!.id);

    const targets = [...new Set(retained().map((e) => e.target.id))].slice(0, 2);
    const byTarget = await poll(`?target_type=map&target_id=${targets.join(',')}`);
    expect(byTarget.page.events.length).toBeGreaterThan(0);
    expect(byTarget.page.events).toEqual(retained().filter((e) => targets.includes(e.target.id)));

    expect((await poll('?target_type=player')).page.events).toEqual([]);
  });

  it('ends a full filtered page at its last event, and says whether more matching events follow', async () => {
    const unfeatured = retained().filter((e) => e.type === 'map.unfeatured');
    const { page } = await poll('?types=map.unfeatured&limit=2');
    expect(page.events).toEqual(unfeatured.slice(0, 2));
    expect(page.next).toBe(unfeatured[1]!.id);
    expect(page.has_more).toBe(unfeatured.length > 2);
  });

  it('rejects bad parameters with 400', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?after=-1',
      '?after=x',
      '?types=map.deleted',
      '?types=toString',
      '?types=',
      '?target_id=1',
      '?target_type=',
      `?target_type=map&target_id=${ids}`,
      '?target_type=map&target_id=1,x',
    ]) {
      const { status, page, error } = await poll(query);
      expect(status, query).toBe(400);
      expect(page, query).toBeNull();
      expect(typeof error, query).toBe('string');
    }
    expect((await poll(`?target_type=map&target_id=${ids.split(',').slice(0, 100).join(',')}`)).status).toBe(
      200,
    );
  });

  it('shows a key without the events.maps scope no map events, and still moves next', async () => {
    const { status, page } = await poll('', sandbox.keys.noScopes);
    expect(status).toBe(200);
    expect(page.events).toEqual([]);
    expect(page.has_more).toBe(false);
    expect(page.next).toBe(sandbox.events.all().at(-1)!.id);
    expect((await poll('?types=map.featured', sandbox.keys.noScopes)).page.events).toEqual([]);
  });

  it('publishes events with growing ids and updates the featured maps', async () => {
    const before = (await poll('')).page.next;
    const map = sandbox.world.maps.find((m) => m.hidden === null && !m.featured)!;
    await clock.advance(5_000);
    const featured = sandbox.events.publish('map.featured', map.id);
    expect(featured.id).toBeGreaterThan(before);
    expect(featured).toMatchObject({
      type: 'map.featured',
      target: { type: 'map', id: map.id },
      data: { map_id: map.id, map_name: map.name, creator: map.creatorName },
      created_at: new Date(clock.now()).toISOString().replace('.000', ''),
    });
    const { page } = await poll(`?after=${before}`);
    expect(page.events).toEqual([featured]);
    expect(page.next).toBe(featured.id);

    const list = await get(`${sandbox.urls.base}/api/maps/featured`, withKey(sandbox.keys.default));
    expect(list.body.data.maps[0].map_id).toBe(map.id);
    const info = await get(
      `${sandbox.urls.base}/api/map/${encodeURIComponent(map.name)}`,
      withKey(sandbox.keys.default),
    );
    expect(info.body.data.featured).toBe(true);

    const unfeatured = sandbox.events.publish('map.unfeatured', map.id);
    expect(unfeatured.id).toBeGreaterThan(featured.id);
    const after = await get(`${sandbox.urls.base}/api/maps/featured`, withKey(sandbox.keys.default));
    expect(rows<{ map_id: number }>(after.body.data.maps).map((m) => m.map_id)).not.toContain(map.id);

    expect(() => sandbox.events.publish('map.featured', 1)).toThrow(/no visible map/);
  });

  it('forgets events older than 30 days as the clock moves', async () => {
    const firstBefore = (await poll('')).page.events[0]!;
    await clock.advance(5 * DAY);
    const { page } = await poll('');
    expect(page.events[0]!.id).toBeGreaterThan(firstBefore.id);
    for (const event of page.events)
      expect(Date.parse(event.created_at)).toBeGreaterThanOrEqual(clock.now() - 30 * DAY);
  });
});
