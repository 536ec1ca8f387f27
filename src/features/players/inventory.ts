import { ButtonStyle, ComponentType } from 'discord.js';
import type { PlayerInventory } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { field, fit, num, pageRow, text, type Pager, type Row } from '../../render/common.ts';
import { kr } from '../../render/common.ts';
import { rarityName, unknownName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { DiscordLimits, truncate } from '../../render/text.ts';

/** Skins a page of `/player inventory` shows. */
export const INVENTORY_PAGE = 15;
export const INVENTORY_SORTS = ['value', 'count'] as const;
export type InventorySort = (typeof INVENTORY_SORTS)[number];

export interface InventoryItemView {
  readonly skinIndex: number;
  readonly count: number;
}

export interface InventoryView {
  readonly name: string;
  readonly items: readonly InventoryItemView[];
  readonly skinName: (index: number) => string | undefined;
  /** The skin's rarity (an id of the game), when the skin list says. */
  readonly rarity?: ((index: number) => number | undefined) | undefined;
  /** One skin's price in KR from the item prices endpoint; undefined: no price. */
  readonly price?: ((index: number) => number | undefined) | undefined;
  readonly sort?: InventorySort | undefined;
  /** 1-based; clamped to the pages there are. */
  readonly page?: number | undefined;
  readonly pager?: Pager | undefined;
  /** The ids of the two sort buttons (the same page count, the other order). */
  readonly sortIds?: Readonly<Record<InventorySort, string | undefined>> | undefined;
}

/**
 * `/player inventory`: every skin, a page at a time, with its rarity, its price and value (price × count)
 * from the item prices endpoint, and the inventory's total value; sorted by value or by count.
 */
export function renderInventoryPage(t: Translator, view: InventoryView): ReplyPayload {
  const sort = view.sort ?? 'value';
  const entries = sortedEntries(view, sort);
  const totalPages = Math.max(1, Math.ceil(entries.length / INVENTORY_PAGE));
  const page = Math.min(totalPages, Math.max(1, Math.floor(view.page ?? 1)));
  const shown = entries.slice((page - 1) * INVENTORY_PAGE, page * INVENTORY_PAGE);
  const lines = shown.map((entry) => entryLine(t, view, entry));
  const count = entries.reduce((sum, entry) => sum + entry.count, 0);
  const embed = fit({
    color: Colors.gold,
    title: t.t('player:inventory.title', { name: text(view.name, 100) }),
    description: lines.length > 0 ? lines.join('\n') : t.t('player:inventory.none'),
    fields: entries.length === 0 ? [] : summaryFields(t, view, sort),
    footer: {
      text: [
        t.t('player:inventory.footer', {
          kinds: t.t('player:inventory.kinds', { count: entries.length }),
          items: t.t('player:inventory.items', { count }),
        }),
        // What the value is: the same definition as the profile's (`inventoryValue`).
        ...(entries.length > 0 ? [t.t('player:inventory.valueNote')] : []),
      ].join('\n'),
    },
  });
  const rows: Row[] = [];
  const pagerRow =
    view.pager && totalPages > 1
      ? pageRow(t, { pager: view.pager, page, totalPages, hasNext: page < totalPages })
      : undefined;
  if (pagerRow) rows.push(pagerRow);
  const sortIds = view.sortIds;
  if (sortIds?.value !== undefined && sortIds.count !== undefined && entries.length > 1)
    rows.push(sortRow(t, sortIds, sort));
  return { embeds: [embed], components: rows };
}

interface Entry extends InventoryItemView {
  readonly each: number | undefined;
  readonly value: number | undefined;
  readonly rarity: number | undefined;
}

/** The skins held, priced, in the chosen order (ties by the other order, then by index). */
function sortedEntries(view: InventoryView, sort: InventorySort): Entry[] {
  const entries = view.items
    .filter((item) => Number.isSafeInteger(item.count) && item.count > 0)
    .map((item) => {
      const each = view.price?.(item.skinIndex);
      return {
        ...item,
        each,
        value: each === undefined ? undefined : each * item.count,
        rarity: view.rarity?.(item.skinIndex),
      };
    });
  const byValue = (a: Entry, b: Entry) => (b.value ?? -1) - (a.value ?? -1);
  const byCount = (a: Entry, b: Entry) => b.count - a.count;
  return entries.sort(
    (a, b) =>
      (sort === 'value' ? byValue(a, b) || byCount(a, b) : byCount(a, b) || byValue(a, b)) ||
      a.skinIndex - b.skinIndex,
  );
}

function entryLine(t: Translator, view: InventoryView, entry: Entry): string {
  const rarity = rarityName(t, entry.rarity);
  const parts = [
    t.t('player:inventory.line', {
      skin: text(view.skinName(entry.skinIndex) ?? unknownName(t, 'skin', entry.skinIndex), 60),
      amount: num(t, entry.count),
    }),
    ...(rarity === undefined ? [] : [rarity]),
    entry.value === undefined || entry.each === undefined
      ? t.t('player:inventory.noPrice')
      : entry.count > 1
        ? t.t('player:inventory.valueEach', { value: kr(t, entry.value), each: kr(t, entry.each) })
        : kr(t, entry.value),
  ];
  return parts.join(' · ');
}

/**
 * A player's inventory value: the one definition every reply uses (`/player inventory`'s total and the
 * profile's "Inventory value"), in KR.
 *
 * The profile's own `inventory` field is not it. The spec (2.13) calls that field "total skin value" and
 * says no more: not its unit, not at which prices, not whether skins on the market count. This value is
 * what the bot can say exactly: Σ count × price over `/api/player/{name}/inventory` (whose counts leave out
 * skins listed on the market, observed-facts) at the item prices endpoint's prices (KR, `null` = no price,
 * spec 2.14), the sum of the lines `/player inventory` shows. A skin without a price adds nothing and is
 * counted in `unpriced`. Counts that are not whole numbers above zero are left out, as on the page.
 */
export function inventoryValue(
  items: readonly InventoryItemView[],
  price: ((index: number) => number | undefined) | undefined,
): { total: number; unpriced: number } {
  let total = 0;
  let unpriced = 0;
  for (const item of items) {
    if (!Number.isSafeInteger(item.count) || item.count <= 0) continue;
    const each = price?.(item.skinIndex);
    if (each === undefined || !Number.isFinite(each) || each < 0) unpriced += 1;
    else total += each * item.count;
  }
  return { total, unpriced };
}

/** What reads an inventory's value: a command's or a button's context. */
export interface InventoryReader {
  load(name: 'playerInventory', params: { playerName: string }): Promise<PlayerInventory>;
  load(name: 'itemPrices', params: Record<string, never>): Promise<Readonly<Record<number, number | null>>>;
  readonly services: { readonly log: { warn(object: object, message: string): void } };
}

/**
 * {@link inventoryValue} of a player, read for the profile: the inventory (cached a minute) and the item
 * prices (cached six hours). Undefined when either cannot be read: the profile then shows no value rather
 * than another number.
 */
export async function readInventoryValue(
  ctx: InventoryReader,
  playerName: string,
): Promise<{ total: number; unpriced: number } | undefined> {
  try {
    const [items, prices] = await Promise.all([
      ctx.load('playerInventory', { playerName }),
      ctx.load('itemPrices', {}),
    ]);
    return inventoryValue(
      items.map((item) => ({ skinIndex: item.skin_index, count: item.count ?? 0 })),
      (index) => prices[index] ?? undefined,
    );
  } catch (error) {
    ctx.services.log.warn({ err: error }, 'inventory value unavailable for a profile');
    return undefined;
  }
}

/** The total value, how many skins have no price, and the order. */
function summaryFields(t: Translator, view: InventoryView, sort: InventorySort) {
  const { total, unpriced } = inventoryValue(view.items, view.price);
  return [
    field(t.t('player:inventory.totalValue'), kr(t, total)),
    ...(unpriced > 0
      ? [field(t.t('player:inventory.unpricedField'), t.t('player:inventory.unpriced', { count: unpriced }))]
      : []),
    field(
      t.t('player:inventory.sortedBy'),
      t.t(sort === 'value' ? 'player:inventory.sortValue' : 'player:inventory.sortCount'),
    ),
  ];
}

/** The two sort buttons, the current order's disabled. */
function sortRow(
  t: Translator,
  sortIds: Readonly<Record<InventorySort, string | undefined>>,
  sort: InventorySort,
): Row {
  return {
    type: ComponentType.ActionRow,
    components: INVENTORY_SORTS.map((by) => ({
      type: ComponentType.Button,
      style: by === sort ? ButtonStyle.Primary : ButtonStyle.Secondary,
      custom_id: sortIds[by] ?? '',
      label: truncate(
        t.t(by === 'value' ? 'player:inventory.sortValue' : 'player:inventory.sortCount'),
        DiscordLimits.buttonLabel,
      ),
      disabled: by === sort,
    })),
  };
}
