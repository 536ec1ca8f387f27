import type { APIEmbed } from 'discord.js';
import type { MarketHistory, OwnListings } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { field, fit, num, pastTimestamp, text, type PastTimes } from '../../render/common.ts';
import { unknownName } from '../../render/names.ts';
import { localPage, type LocalPage } from '../../render/pages.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

/**
 * `/me market-history` and `/me listings`: lists the command reads whole and pages here (25 a page), with
 * how many in all; and the skin names and private reply every `/me` reply uses.
 */
export type SkinNames = (index: number) => string | undefined;

export function skin(t: Translator, names: SkinNames, index: number | undefined): string {
  if (index === undefined) return t.t('common:unknown');
  const name = names(index);
  return name ? `**${text(name, 80)}**` : unknownName(t, 'skin', index);
}

export function reply(embed: APIEmbed): ReplyPayload {
  return { ephemeral: true, embeds: [fit(embed)] };
}

/** A price fit to add up (an upstream amount out of range counts as nothing). */
function price(value: number | undefined): number {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 && value <= 1e12 ? value : 0;
}

/** What a market history adds up to: how many buys and sales, and the KR of each side. */
export interface MarketTotals {
  readonly bought: number;
  readonly boughtKr: number;
  readonly sold: number;
  readonly soldKr: number;
}

export function marketTotals(entries: MarketHistory['entries']): MarketTotals {
  const side = (which: 'buy' | 'sell') => entries.filter((entry) => entry.side === which);
  const kr = (rows: MarketHistory['entries']) => rows.reduce((sum, entry) => sum + price(entry.price), 0);
  return {
    bought: side('buy').length,
    boughtKr: kr(side('buy')),
    sold: side('sell').length,
    soldKr: kr(side('sell')),
  };
}

/**
 * The market history read, and the page of it to show (1 by default). `complete`: every entry the game
 * has was read (by default, when no cursor is left).
 */
export interface MarketHistoryPage {
  readonly entries: MarketHistory['entries'];
  readonly cursor?: string | null | undefined;
  readonly complete?: boolean | undefined;
  readonly page?: number | undefined;
}

/**
 * The completed buys and sales, 25 a page (the command reads the whole history, up to a bound, so the
 * pages and totals are of all of it), with how many and the KR of each side.
 */
export function renderMarketHistory(
  t: Translator,
  history: MarketHistoryPage,
  skinName: SkinNames,
  past?: PastTimes,
): ReplyPayload {
  const slice = localPage(history.entries, history.page ?? 1);
  const complete = history.complete ?? !history.cursor;
  const lines = slice.rows.map((entry) =>
    t.t(
      entry.side === 'sell'
        ? 'me:market.sold'
        : entry.side === 'buy'
          ? 'me:market.bought'
          : 'me:market.traded',
      {
        skin: skin(t, skinName, entry.skin_index),
        price: num(t, entry.price),
        when: pastTimestamp(entry.date, 'R', past),
      },
    ),
  );
  const totals = marketTotals(history.entries);
  const count = history.entries.length;
  return reply({
    color: Colors.gold,
    title: t.t('me:market.title'),
    description: lines.length > 0 ? lines.join('\n') : t.t('me:market.none'),
    ...(count > 0
      ? {
          fields: [
            field(
              t.t('me:market.boughtTotal'),
              t.t('me:market.side', sideVars(t, totals.bought, totals.boughtKr)),
            ),
            field(t.t('me:market.soldTotal'), t.t('me:market.side', sideVars(t, totals.sold, totals.soldKr))),
          ],
          footer: { text: pageFooter(t, slice, count, complete) },
        }
      : {}),
  });
}

const sideVars = (t: Translator, count: number, kr: number) => ({ count, n: t.n(count), kr: t.n(kr) });

/** "Page 1 of 2 · 28 in all" (or "the latest 400" when the history was read only that far). */
function pageFooter(t: Translator, slice: LocalPage<unknown>, count: number, complete: boolean): string {
  return t.t(complete ? 'me:pageOfTotal' : 'me:pageOfLatest', {
    page: t.n(slice.page),
    pages: t.n(slice.pages),
    n: t.n(count),
  });
}

/** The open listings, 25 a page, with how many in all. */
export function renderOwnListings(
  t: Translator,
  listings: OwnListings,
  skinName: SkinNames,
  past?: PastTimes,
  page = 1,
): ReplyPayload {
  const slice = localPage(listings.listings, page);
  const lines = slice.rows.map((listing) =>
    t.t('me:listings.line', {
      skin: skin(t, skinName, listing.skin_index),
      price: num(t, listing.price),
      when: pastTimestamp(listing.listed_at, 'R', past),
    }),
  );
  const count = listings.listings.length;
  return reply({
    color: Colors.gold,
    title: t.t('me:listings.title'),
    description: lines.length > 0 ? lines.join('\n') : t.t('me:listings.none'),
    ...(count > 0 ? { footer: { text: pageFooter(t, slice, count, true) } } : {}),
  });
}
