import { describe, expect, it } from 'vitest';
import { renderInventory } from '../../../src/features/players/render.ts';
import { INVENTORY_PAGE, inventoryValue } from '../../../src/features/players/inventory.ts';
import type { Pager } from '../../../src/render/common.ts';
import { HOSTILE, expectSafe, translators } from '../../support/render.ts';

const { en } = translators;

const pager: Pager = { page: (p) => (p >= 1 ? `page:${p}` : 'page:0'), label: 'label' };
const sortIds = { value: 'sort:value', count: 'sort:count' };

function inventory(size: number) {
  return Array.from({ length: size }, (_, i) => ({ skin_index: i, count: (i % 4) + 1 }));
}

describe('inventory', () => {
  it('sorts by value (price × count) with rarity, pages through every skin and totals the value', () => {
    const items = inventory(40);
    const price = (i: number) => (i % 5 === 0 ? undefined : i * 10);
    const first = renderInventory(en, 'Seller', items, (i) => `Skin ${i}`, {
      price,
      rarity: (i) => (i === 39 ? 9 : i % 7),
      sort: 'value',
      page: 1,
      pager,
      sortIds,
    });
    expectSafe(first);
    const embed = first.embeds?.[0];
    const lines = embed?.description?.split('\n') ?? [];
    expect(lines).toHaveLength(INVENTORY_PAGE);
    // Skin 39: 4 × 390 KR, the most valuable; its rarity id has no name.
    expect(lines[0]).toBe('**Skin 39** × 4 · Unknown rarity 9 · 1,560 KR (390 KR each)');
    expect(lines[1]).toBe('**Skin 31** × 4 · Legendary · 1,240 KR (310 KR each)');
    const total = items.reduce((sum, item) => sum + (price(item.skin_index) ?? 0) * item.count, 0);
    const fields = Object.fromEntries((embed?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Inventory value']).toBe(`${total.toLocaleString('en-US')} KR`);
    expect(
      inventoryValue(
        items.map((i) => ({ skinIndex: i.skin_index, count: i.count })),
        price,
      ),
    ).toEqual({
      total,
      unpriced: 8,
    });
    expect(fields['Without a price']).toBe('8 skins');
    expect(embed?.footer?.text).toBe(
      '40 kinds · 100 items (listed items not counted)\n' +
        'At the game’s item prices; skins listed on the market and skins without a price count for nothing.',
    );
    const rows = first.components ?? [];
    expect(rows).toHaveLength(2);
    const last = renderInventory(en, 'Seller', items, (i) => `Skin ${i}`, {
      price,
      sort: 'value',
      page: 3,
      pager,
    });
    const lastLines = last.embeds?.[0]?.description?.split('\n') ?? [];
    expect(lastLines).toHaveLength(40 - 2 * INVENTORY_PAGE);
    // The unpriced come last when sorted by value.
    expect(lastLines.at(-1)).toContain('no price');
    // A page past the end shows the last one.
    expect(
      renderInventory(en, 'Seller', items, () => undefined, { price, page: 99 }).embeds?.[0]?.description,
    ).toBe(last.embeds?.[0]?.description?.replace(/\*\*Skin (\d+)\*\*/g, '**Unknown skin $1**'));
  });

  it('sorts by count, and escapes hostile skin names', () => {
    const items = [
      { skin_index: 1, count: 2 },
      { skin_index: 2, count: 9 },
      { skin_index: 3, count: 5 },
    ];
    const payload = renderInventory(en, HOSTILE, items, () => `${HOSTILE} <@&1>`, {
      price: (i) => (i === 1 ? 1_000 : 1),
      sort: 'count',
      pager,
      sortIds,
    });
    expectSafe(payload);
    const lines = payload.embeds?.[0]?.description?.split('\n') ?? [];
    expect(lines.map((line) => /× (\d+)/.exec(line)?.[1])).toEqual(['9', '5', '2']);
    // The current order's button is the disabled one.
    const sortRow = payload.components?.at(-1) as {
      components: Array<{ custom_id: string; disabled: boolean }>;
    };
    expect(sortRow.components.find((b) => b.custom_id === 'sort:count')?.disabled).toBe(true);
    expect(sortRow.components.find((b) => b.custom_id === 'sort:value')?.disabled).toBe(false);
  });

  it('says one skin, one kind and one item in the singular', () => {
    const payload = renderInventory(en, 'Solo', [{ skin_index: 4, count: 1 }], () => 'Skin 4', {
      price: () => undefined,
    });
    const embed = payload.embeds?.[0];
    const fields = Object.fromEntries((embed?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Without a price']).toBe('1 skin');
    expect(fields['Inventory value']).toBe('0 KR');
    expect(embed?.footer?.text.split('\n')[0]).toBe('1 kind · 1 item (listed items not counted)');
    const ru = renderInventory(
      translators.ru,
      'Solo',
      [2, 3, 5, 21].map((i) => ({ skin_index: i, count: 1 })),
      () => 'S',
      {
        price: () => undefined,
      },
    );
    const ruFields = ru.embeds?.[0]?.fields ?? [];
    expect(ruFields.find((f) => f.name === 'Без цены')?.value).toBe('4 скина');
  });

  it('an empty inventory says so, without buttons', () => {
    const payload = renderInventory(en, 'Nobody', [], () => undefined, { pager, sortIds });
    expect(payload.embeds?.[0]?.description).toMatch(/empty/);
    expect(payload.components).toEqual([]);
  });
});
