import type { MarketSkin } from '../api/schemas/index.ts';
import type { Translator } from '../i18n/index.ts';
import { renderPriceHistoryChart } from './chart/price-history.ts';
import { field, fit, num, pageRow, text, timestamp, type Pager } from './common.ts';
import { Colors, type ReplyPayload } from './payload.ts';
import { DiscordLimits, truncate } from './text.ts';

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
}

/** `YYYY-MM-DD` of the UTC day that contains `now`. */
export function utcDay(now: number): string {
  return new Date(Math.floor(now / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

function kr(t: Translator, value: number | undefined, fractions = 0): string {
  return value === undefined
    ? '—'
    : t.t('market:kr', { value: num(t, value, { maximumFractionDigits: fractions }) });
}

/**
 * A market skin: prices, listings (one API page) and the top owners, with the price history as a PNG
 * chart attached and shown as the embed's image.
 */
export function renderMarketSkin(
  t: Translator,
  { data, skinName, days, page, now, pager }: MarketSkinView,
): ReplyPayload {
  const index = data.skin_index;
  const plainName = skinName?.trim() ? skinName : t.t('market:unknownSkin', { index });
  const title = skinName?.trim()
    ? t.t('market:title', { skin: text(skinName, 150), index })
    : t.t('market:unknownSkin', { index });

  const totalListings = data.total_listings;
  const listings = data.listings ?? [];
  const owners = data.owners ?? [];
  const totalPages =
    totalListings === undefined ? undefined : Math.max(1, Math.ceil(totalListings / LISTINGS_PER_PAGE));

  const listingLines = listings.slice(0, LISTINGS_PER_PAGE).map((listing, i) =>
    t.t('market:listings.line', {
      rank: t.n((page - 1) * LISTINGS_PER_PAGE + i + 1),
      price: kr(t, listing.price),
      seller: text(listing.seller_name, 40),
      when: timestamp(listing.listed_at, 'R'),
    }),
  );
  const ownerLines = owners.slice(0, TOP_OWNERS).map((owner, i) =>
    t.t('market:owners.line', {
      rank: t.n(i + 1),
      name: text(owner.player_name, 40),
      count: num(t, owner.count),
    }),
  );

  const noListings = totalListings === 0 || (totalListings === undefined && data.lowest_price === 0);
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
      field(
        t.t('market:owners.title', { shown: t.n(ownerLines.length), total: t.n(owners.length) }),
        ownerLines.length > 0 ? ownerLines.join('\n') : t.t('market:owners.none'),
        false,
      ),
    ],
    image: { url: `attachment://${CHART_FILE}` },
    footer: { text: t.t('market:footer', { days: t.n(days), index }) },
  });

  const chart = renderPriceHistoryChart({
    title: t.t('market:chart.title', { skin: plainName, days: t.n(days) }),
    points: (data.price_history ?? []).map((day) => ({
      date: day.date,
      averagePrice: day.average_price ?? Number.NaN,
      sales: day.sales ?? 0,
    })),
    days,
    end: utcDay(now),
    locale: t.locale,
    labels: {
      averagePrice: t.t('market:chart.averagePrice'),
      sales: t.t('market:chart.sales'),
      noSales: t.t('market:chart.noSales'),
    },
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
    files: [
      {
        name: CHART_FILE,
        data: chart.png,
        description: truncate(chart.altText, DiscordLimits.attachmentDescription),
      },
    ],
  };
}
