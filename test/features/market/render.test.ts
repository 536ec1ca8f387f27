import { renderMarketSkin } from '../../support/with-ids.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { listingsArgs } from '../../../commands/market.ts';
import type { MarketSkin } from '../../../src/api/schemas/index.ts';
import { UserError } from '../../../src/core/user-error.ts';
import { CHART_FILE, utcDay } from '../../../src/features/market/render.ts';

import { HOSTILE, buttons, expectSafe, fieldsOf, translators, useSandboxApi } from '../../support/render.ts';

const { en, fr } = translators;

const live = useSandboxApi({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
let now: number;

beforeAll(() => {
  now = Date.now();
});

describe('market skin', () => {
  it('renders prices, the first listings page, top owners and the chart from the sandbox', async () => {
    const index = live.sandbox.world.samples.skinIndex;
    const skinName = live.sandbox.world.skins[index]?.name;
    const data = await live.client.api.marketSkin({ skinIndex: index, days: 30, page: 1 });
    const payload = await renderMarketSkin(en, { data, skinName, days: 30, page: 1, now });
    expectSafe(payload);

    const embed = payload.embeds?.[0];
    expect(embed?.title).toBe(`${skinName} (#${index})`);
    expect(embed?.image?.url).toBe(`attachment://${CHART_FILE}`);
    const fields = fieldsOf(payload);
    expect(fields['Lowest price']).toBe(`${en.n(data.lowest_price ?? -1)} KR`);
    expect(fields['Active listings']).toBe(en.n(data.total_listings ?? -1));
    expect(fields['In circulation']).toBe(en.n(data.total_circulating ?? -1));

    const totalPages = Math.ceil((data.total_listings ?? 0) / 10);
    expect(totalPages).toBeGreaterThan(1);
    const listings = fields[`Listings · page 1 of ${totalPages}`]?.split('\n') ?? [];
    expect(listings).toHaveLength(10);
    expect(listings[0]).toMatch(/^\*\*1\.\*\* [\d,]+ KR · .+ · <t:\d+:R>$/);

    const owners = Object.entries(fields).find(([name]) => name.startsWith('Top owners'));
    expect(owners?.[0]).toBe(
      `Top owners (${Math.min(10, data.owners?.length ?? 0)} of ${data.owners?.length})`,
    );
    expect(owners?.[1].split('\n')).toHaveLength(Math.min(10, data.owners?.length ?? 0));

    const [file] = payload.files ?? [];
    expect(file?.name).toBe(CHART_FILE);
    expect(file?.description?.startsWith(`${skinName}: price history, last 30 days.`)).toBe(true);

    const [previous, label, next] = buttons(payload);
    expect(previous?.disabled).toBe(true);
    expect(label?.label).toBe(`Page 1 of ${totalPages}`);
    expect(next?.disabled).toBe(false);
    const nextId = next?.id;
    expect(nextId).toMatchObject({ command: 'market', action: 'listings', args: [String(index), '30', '2'] });
    expect(listingsArgs(nextId!)).toEqual({ skinIndex: index, days: 30, page: 2 });
  });

  it('numbers the listings of a later page on from the earlier ones, and ends paging on the last', async () => {
    const index = live.sandbox.world.samples.skinIndex;
    const first = await live.client.api.marketSkin({ skinIndex: index, days: 7, page: 1 });
    const last = Math.ceil((first.total_listings ?? 0) / 10);
    const data = await live.client.api.marketSkin({ skinIndex: index, days: 7, page: last });
    const payload = await renderMarketSkin(fr, { data, skinName: undefined, days: 7, page: last, now });
    expectSafe(payload);
    expect(payload.embeds?.[0]?.title).toBe(`Skin inconnu ${index}`);
    const listings = Object.entries(fieldsOf(payload)).find(([name]) => name.startsWith('Annonces ·'));
    expect(listings?.[1].startsWith(`**${fr.n((last - 1) * 10 + 1)}.** `)).toBe(true);
    const [previous, , next] = buttons(payload);
    expect(previous?.disabled).toBe(false);
    expect(next?.disabled).toBe(true);
  });

  it("ends the chart's axis on today's UTC date", async () => {
    expect(utcDay(Date.UTC(2026, 0, 5, 23, 59, 59))).toBe('2026-01-05');
    expect(utcDay(Date.UTC(2026, 0, 6, 0, 0, 0))).toBe('2026-01-06');
    const today = utcDay(now);
    const data: MarketSkin = {
      skin_index: 4,
      price_history: [{ date: today, average_price: 123, sales: 4 }],
    };
    const payload = await renderMarketSkin(en, { data, skinName: 'Sole', days: 3, page: 1, now });
    expect(payload.files?.[0]?.description).toContain('Sales: 4');
    // The same sale three days before `now` falls outside a 3-day window ending today.
    const old = await renderMarketSkin(en, {
      data,
      skinName: 'Sole',
      days: 3,
      page: 1,
      now: now + 3 * 86_400_000,
    });
    expect(old.files?.[0]?.description).toContain('No sales in this period');
  });

  it('shows an unlisted, unsold, unowned skin plainly', async () => {
    const data: MarketSkin = {
      skin_index: 0,
      total_listings: 0,
      lowest_price: 0,
      average_price: 0,
      total_circulating: 0,
      listings: [],
      owners: [],
      price_history: [],
    };
    const payload = await renderMarketSkin(en, { data, skinName: 'Plain', days: 30, page: 1, now });
    expectSafe(payload);
    const fields = fieldsOf(payload);
    expect(fields['Lowest price']).toBe('Not listed');
    expect(fields['7-day average']).toBe('No sales in 7 days');
    expect(fields['Listings · page 1 of 1']).toBe('No listings on this page.');
    expect(fields['Top owners (0 of 0)']).toBe('Nobody owns this skin.');
    expect(buttons(payload)[2]?.disabled).toBe(true);
  });

  it('copes with a reply that has nothing but the skin index', async () => {
    const payload = await renderMarketSkin(en, {
      data: { skin_index: 12 },
      skinName: undefined,
      days: 30,
      page: 1,
      now,
    });
    expectSafe(payload);
    const fields = fieldsOf(payload);
    expect(fields['Active listings']).toBe('—');
    expect(fields['Listings · page 1']).toBe('No listings on this page.');
    expect(buttons(payload)[1]?.label).toBe('Page 1');
  });

  it('escapes hostile names and keeps 100 long-named owners and sellers within limits', async () => {
    const long = `${HOSTILE}${'W'.repeat(400)}`;
    const data: MarketSkin = {
      skin_index: 77,
      total_listings: 1_000_000,
      lowest_price: 2_000_000_000,
      average_price: 1234.5678,
      total_circulating: 9_999_999,
      listings: Array.from({ length: 10 }, (_, i) => ({
        price: 2_000_000_000 + i,
        seller_name: long,
        listed_at: '2026-01-01T00:00:00Z',
      })),
      owners: Array.from({ length: 100 }, (_, i) => ({ player_name: long, count: 1000 - i })),
      price_history: Array.from({ length: 120 }, (_, i) => ({
        date: utcDay(now - i * 86_400_000),
        average_price: 1000 + i,
        sales: i % 7,
      })),
    };
    const payload = await renderMarketSkin(en, { data, skinName: long, days: 120, page: 1, now });
    expectSafe(payload);
    expect(payload.embeds?.[0]?.title).toContain('\\*\\*@\u200Beveryone\\*\\*');
    expect(fieldsOf(payload)['7-day average']).toBe('1,234.57 KR');
    const owners = Object.entries(fieldsOf(payload)).find(([name]) => name.startsWith('Top owners'));
    expect(owners?.[0]).toBe('Top owners (10 of 100)');
    expect(buttons(payload)[1]?.label).toBe('Page 1 of 100,000');
    // The chart draws the raw name (it is no markdown), and the alt text stays within Discord's limit.
    expect(payload.files?.[0]?.description?.startsWith('**@everyone**')).toBe(true);
  });
});

/** A market button's id with these arguments. */
const listingsId = (args: string[]) => ({ command: 'market', action: 'listings', args, expiresAt: 0 });

describe('market buttons', () => {
  it('reads the listings arguments back and refuses any others', async () => {
    expect(listingsArgs(listingsId(['12', '30', '3']))).toEqual({ skinIndex: 12, days: 30, page: 3 });
    for (const args of [
      [],
      ['12', '30'],
      ['-1', '30', '1'],
      ['1', '0', '1'],
      ['1', '121', '1'],
      ['1', '30', '0'],
      ['x', '30', '1'],
      ['1', '30', '1', '2'],
    ]) {
      expect(() => listingsArgs(listingsId(args))).toThrow(UserError);
    }
  });
});
