import type { MarketSkin, MarketStats, SalesStatistics } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { renderPriceHistoryChart } from './price-chart.ts';
import { renderMarketOverviewChart } from './overview-chart.ts';
import {
  field,
  fit,
  kr,
  num,
  pageRow,
  pastTimestamp,
  text,
  type Pager,
  type PastTimes,
} from '../../render/common.ts';
import { unknownName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { DiscordLimits, truncate } from '../../render/text.ts';

/** Listings of a market skin come 10 to a page (spec, section 8). */
export const LISTINGS_PER_PAGE = 10;
export const TOP_OWNERS = 10;
export const DEFAULT_DAYS = 30;
export const CHART_FILE = 'price-history.png';

const DAY_MS = 86_400_000;

export interface MarketSkinView {
  readonly data: MarketSkin;
  /** The skin's name from the game's skin list, when known (raw, not escaped). */
  readonly skinName: string | undefined;
  readonly days: number;
  /** The listings page that `data` holds (1-based). */
  readonly page: number;
  readonly now: number;
  readonly pager: Pager;
  /** Now, for the times of past events (one after it is shown as now and reported). */
  readonly past?: PastTimes | undefined;
}

/** `YYYY-MM-DD` of the UTC day that contains `now`. */
export function utcDay(now: number): string {
  return new Date(Math.floor(now / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A market skin: prices, listings (one API page) and the top owners, with the price history as a PNG
 * chart attached and shown as the embed's image.
 */
export async function renderMarketSkin(
  t: Translator,
  { data, skinName, days, page, now, pager, past }: MarketSkinView,
): Promise<ReplyPayload> {
  const index = data.skin_index;
  const plainName = skinName?.trim() ? skinName : unknownName(t, 'skin', index);
  const title = skinName?.trim()
    ? t.t('market:title', { skin: text(skinName, 150), index })
    : unknownName(t, 'skin', index);

  const totalListings = data.total_listings;
  const listings = data.listings ?? [];
  const owners = data.owners ?? [];
  const totalPages =
    totalListings === undefined ? undefined : Math.max(1, Math.ceil(totalListings / LISTINGS_PER_PAGE));

  const listingLines = listingLinesOf(t, listings, page, past);
  const ownerLines = ownerLinesOf(t, owners);

  const noListings = totalListings === 0 || (totalListings === undefined && data.lowest_price === 0);
  const chart = await priceChart(t, data, plainName, days, now);
  const embed = fit({
    color: Colors.gold,
    title,
    fields: [
      field(t.t('market:lowestPrice'), noListings ? t.t('market:noListings') : kr(t, data.lowest_price)),
      field(
        t.t('market:averagePrice'),
        data.average_price === 0 ? t.t('market:noRecentSales') : kr(t, data.average_price, 2),
      ),
      field(t.t('market:totalListings'), num(t, totalListings)),
      field(t.t('market:circulating'), num(t, data.total_circulating)),
      field(
        totalPages === undefined
          ? t.t('market:listings.titlePage', { page: t.n(page) })
          : t.t('market:listings.titlePageOf', { page: t.n(page), total: t.n(totalPages) }),
        listingLines.length > 0 ? listingLines.join('\n') : t.t('market:listings.none'),
        false,
      ),
      // No owners list at all (the game tier's item pages name owners by id only) is no field, not "nobody".
      ...(data.owners === undefined
        ? []
        : [
            field(
              t.t('market:owners.title', { shown: t.n(ownerLines.length), total: t.n(owners.length) }),
              ownerLines.length > 0 ? ownerLines.join('\n') : t.t('market:owners.none'),
              false,
            ),
          ]),
    ],
    // Without its chart (it could not be drawn) the reply is the text alone.
    ...(chart ? { image: { url: `attachment://${CHART_FILE}` } } : {}),
    footer: { text: t.t('market:footer', { count: days, n: t.n(days), index }) },
  });

  const row = pageRow(t, {
    pager,
    page,
    totalPages,
    hasNext: totalPages === undefined ? listings.length >= LISTINGS_PER_PAGE : page < totalPages,
  });
  return {
    embeds: [embed],
    components: row ? [row] : [],
    files: chart ? [chartFile(CHART_FILE, chart)] : [],
  };
}

function listingLinesOf(
  t: Translator,
  listings: NonNullable<MarketSkin['listings']>,
  page: number,
  past: PastTimes | undefined,
): string[] {
  return listings.slice(0, LISTINGS_PER_PAGE).map((listing, i) =>
    t.t('market:listings.line', {
      rank: t.n((page - 1) * LISTINGS_PER_PAGE + i + 1),
      price: kr(t, listing.price),
      seller: text(listing.seller_name, 40),
      when: pastTimestamp(listing.listed_at, 'R', past),
    }),
  );
}

function ownerLinesOf(t: Translator, owners: NonNullable<MarketSkin['owners']>): string[] {
  return owners.slice(0, TOP_OWNERS).map((owner, i) =>
    t.t('market:owners.line', {
      rank: t.n(i + 1),
      name: text(owner.player_name, 40),
      n: num(t, owner.count),
    }),
  );
}

/** The price history of the last `days` UTC days, as a chart. */
function priceChart(
  t: Translator,
  data: MarketSkin,
  plainName: string,
  days: number,
  now: number,
): Promise<Chart | undefined> {
  return renderPriceHistoryChart({
    title: t.t('market:chart.title', { skin: plainName, count: days, n: t.n(days) }),
    points: (data.price_history ?? []).map((day) => ({
      date: day.date,
      // A price or count the schema found out of range is absent: the chart counts the day as not drawn.
      averagePrice: day.average_price ?? Number.NaN,
      sales: day.sales ?? Number.NaN,
    })),
    days,
    end: utcDay(now),
    locale: t.locale,
    labels: {
      averagePrice: t.t('market:chart.averagePrice'),
      sales: t.t('market:chart.sales'),
      noSales: t.t('market:chart.noSales'),
      outOfRange: (count) => t.t('market:chart.outOfRange', { points: t.n(count) }),
    },
  });
}

interface Chart {
  readonly png: Buffer;
  readonly altText: string;
}

/** A chart as the reply's attachment, described for screen readers. */
function chartFile(name: string, chart: Chart) {
  return { name, data: chart.png, description: truncate(chart.altText, DiscordLimits.attachmentDescription) };
}

export const OVERVIEW_CHART_FILE = 'market-overview.png';
/** Skins the overview lists and draws (the most listed of the stats page). */
export const OVERVIEW_TOP = 10;
/** Skins whose recent sales are read (one request each). */
export const OVERVIEW_SALES = 5;
/** Days of sales the overview sums. */
export const OVERVIEW_DAYS = 7;

export interface MarketOverviewView {
  readonly stats: MarketStats;
  /** Daily sales of some of the listed skins (`/market/items/{id}/sales-statistics`), by skin index. */
  readonly sales: ReadonlyMap<number, SalesStatistics>;
  readonly skinName: (index: number) => string | undefined;
  readonly now: number;
}

interface OverviewRow {
  readonly index: number;
  readonly name: string;
  readonly onSale: number;
  readonly circulating: number | undefined;
  readonly askLow: number | undefined;
  readonly askHigh: number | undefined;
  readonly recentSales: number | undefined;
  readonly lastDay: { date: string; averagePrice: number | undefined; sales: number } | undefined;
}

/** Sales of the last `OVERVIEW_DAYS` UTC days (today included), and the latest day with sales. */
function recent(
  statistics: SalesStatistics | undefined,
  now: number,
): Pick<OverviewRow, 'recentSales' | 'lastDay'> {
  if (!statistics) return { recentSales: undefined, lastDay: undefined };
  const from = utcDay(now - (OVERVIEW_DAYS - 1) * DAY_MS);
  const today = utcDay(now);
  let total = 0;
  let lastDay: OverviewRow['lastDay'];
  for (const day of statistics.days) {
    // Days ahead of today are a data problem: left out.
    if (day.date > today) continue;
    const sales = day.sales ?? 0;
    if (day.date >= from) total += sales;
    if (sales > 0 && (lastDay === undefined || day.date > lastDay.date))
      lastDay = { date: day.date, averagePrice: day.average_price, sales };
  }
  return { recentSales: total, lastDay };
}

/**
 * `/market overview`: the market's own statistics (one page of `/market/stats`: skins, circulation, what
 * is on sale and the ask range) with the most listed skins, their recent sales (sales statistics, the
 * last `OVERVIEW_DAYS` days) and a chart of both.
 */
export async function renderMarketOverview(t: Translator, view: MarketOverviewView): Promise<ReplyPayload> {
  const rows = overviewRows(t, view);
  const top = rows.slice(0, OVERVIEW_TOP);
  const onSale = rows.reduce((sum, row) => sum + row.onSale, 0);
  const circulating = rows.reduce((sum, row) => sum + (row.circulating ?? 0), 0);
  const lines = top.map((row, i) => overviewLine(t, row, i + 1));
  const salesLines = top.filter((row) => row.recentSales !== undefined).map((row) => salesLine(t, row));
  const chart = await overviewChart(t, top);
  const days = { count: OVERVIEW_DAYS, n: t.n(OVERVIEW_DAYS) };
  const embed = fit({
    color: Colors.gold,
    title: t.t('market:overview.title'),
    ...(rows.length > 0
      ? {
          description: t.t('market:overview.summary', {
            count: rows.length,
            n: t.n(rows.length),
            listings: num(t, onSale),
            circulating: num(t, circulating),
          }),
        }
      : {}),
    fields: [
      field(
        t.t('market:overview.mostListed'),
        lines.length > 0 ? lines.join('\n') : t.t('market:noListings'),
        false,
      ),
      field(
        t.t('market:overview.recentSales', days),
        salesLines.length > 0 ? salesLines.join('\n') : t.t('market:noRecentSales'),
        false,
      ),
    ],
    // Without its chart (it could not be drawn) the reply is the text alone.
    ...(chart ? { image: { url: `attachment://${OVERVIEW_CHART_FILE}` } } : {}),
    footer: { text: t.t('market:overview.footer') },
  });
  return { embeds: [embed], files: chart ? [chartFile(OVERVIEW_CHART_FILE, chart)] : [] };
}

const overviewDates = new Map<string, Intl.DateTimeFormat>();

/** A sales day (`YYYY-MM-DD`, a UTC day) as the reader writes dates ("Nov 24"); `—` for anything else. */
export function salesDate(t: Translator, day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!Number.isFinite(ms)) return '—';
  let format = overviewDates.get(t.locale);
  if (!format) {
    format = new Intl.DateTimeFormat(t.locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
    overviewDates.set(t.locale, format);
  }
  return format.format(ms);
}

/** The stats page's skins, the most listed first, with their recent sales. */
function overviewRows(t: Translator, view: MarketOverviewView): OverviewRow[] {
  return view.stats.rows
    .map((row) => ({
      index: row.skin_index,
      name: view.skinName(row.skin_index) ?? unknownName(t, 'skin', row.skin_index),
      onSale: row.on_sale ?? 0,
      circulating: row.circulating,
      askLow: row.ask_low,
      askHigh: row.ask_high,
      ...recent(view.sales.get(row.skin_index), view.now),
    }))
    .sort((a, b) => b.onSale - a.onSale || a.index - b.index);
}

function overviewLine(t: Translator, row: OverviewRow, rank: number): string {
  return t.t('market:overview.line', {
    rank: t.n(rank),
    skin: text(row.name, 40),
    onSale: num(t, row.onSale),
    ask:
      row.askLow === undefined
        ? t.t('market:noListings')
        : row.askHigh === undefined || row.askHigh === row.askLow
          ? kr(t, row.askLow)
          : t.t('market:overview.range', { low: kr(t, row.askLow), high: kr(t, row.askHigh) }),
  });
}

function salesLine(t: Translator, row: OverviewRow): string {
  return row.lastDay === undefined
    ? t.t('market:overview.noSales', { skin: text(row.name, 40) })
    : t.t('market:overview.salesLine', {
        skin: text(row.name, 40),
        sales: num(t, row.recentSales),
        date: salesDate(t, row.lastDay.date),
        n: num(t, row.lastDay.sales),
        // Whole KR, as every other price of the overview (the game's averages carry fractions).
        price: row.lastDay.averagePrice === undefined ? '—' : kr(t, row.lastDay.averagePrice),
      });
}

function overviewChart(t: Translator, top: readonly OverviewRow[]): Promise<Chart | undefined> {
  return renderMarketOverviewChart({
    title: t.t('market:overview.chartTitle', { count: OVERVIEW_DAYS, n: t.n(OVERVIEW_DAYS) }),
    bars: top.map((row) => ({ label: row.name, onSale: row.onSale, sales: row.recentSales })),
    locale: t.locale,
    labels: {
      onSale: t.t('market:overview.onSale'),
      sales: t.t('market:overview.chartSales', { count: OVERVIEW_DAYS, n: t.n(OVERVIEW_DAYS) }),
      noSales: t.t('market:overview.chartNoSales'),
      noData: t.t('market:overview.chartNoData'),
      empty: t.t('market:noListings'),
      outOfRange: (count) => t.t('market:chart.outOfRange', { points: t.n(count) }),
    },
  });
}
