import { ButtonStyle, ComponentType } from 'discord.js';
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
    fields: entries.length === 0 ? [] : summaryFields(t, entries, sort),
    footer: {
      text: t.t('player:inventory.footer', { kinds: t.n(entries.length), total: t.n(count) }),
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
      count: num(t, entry.count),
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

/** The total value, how many skins have no price, and the order. */
function summaryFields(t: Translator, entries: readonly Entry[], sort: InventorySort) {
  const total = entries.reduce((sum, entry) => sum + (entry.value ?? 0), 0);
  const unpriced = entries.filter((entry) => entry.value === undefined).length;
  return [
    field(t.t('player:inventory.totalValue'), kr(t, total)),
    ...(unpriced > 0
      ? [
          field(
            t.t('player:inventory.unpricedField'),
            t.t('player:inventory.unpriced', { count: t.n(unpriced) }),
          ),
        ]
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
