import { ButtonStyle, ComponentType, type APIEmbed } from 'discord.js';
import type {
  MatchHistory,
  RankedProfile,
  RankedProfileRegion,
  TradesHistory,
  Wallet,
} from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import {
  field,
  num,
  pageRow,
  percent,
  ratio,
  regionLabel,
  pastTimestamp,
  text,
  timestamp,
  type Pager,
  type PastTimes,
  type Row,
} from '../../render/common.ts';
import { DiscordLimits, truncate } from '../../render/text.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { unknownName } from '../../render/names.ts';
import { reply, skin, type SkinNames } from './render-market.ts';

export {
  marketTotals,
  renderMarketHistory,
  renderOwnListings,
  type MarketHistoryPage,
  type MarketTotals,
  type SkinNames,
} from './render-market.ts';

/**
 * Replies of `/me`: the token owner's own data, always ephemeral. Pages have buttons: while the token is
 * kept in memory a click reads the next page with it, otherwise the click asks for the token again. While
 * it is kept, every reply says until when and carries a "Forget my token" button.
 */
export type MapNames = (id: number) => string | undefined;

export const ME_PAGE_SIZE = 10;

/** What the command adds around a `/me` reply: page buttons, and the kept token's note and button. */
export interface MeControls {
  /** The id of the "Forget my token" button, when the token is kept. */
  readonly forgetId?: string | undefined;
  /** Epoch ms until which the token is kept, when it is. */
  readonly keptUntil?: number | undefined;
}

export interface MePaging {
  readonly pager: Pager;
  readonly page: number;
  readonly totalPages?: number | undefined;
  readonly hasNext: boolean;
}

/** The reply with its page row and, while the token is kept, the note and the "Forget" button. */
export function withControls(
  t: Translator,
  payload: ReplyPayload,
  controls: MeControls,
  paging?: MePaging,
): ReplyPayload {
  const rows: Row[] = [];
  const pages = paging ? pageRow(t, paging) : undefined;
  if (pages) rows.push(pages);
  const { forgetId, keptUntil } = controls;
  const kept = forgetId !== undefined && keptUntil !== undefined;
  if (kept) rows.push(forgetRow(t, forgetId));
  return {
    ...payload,
    ...(kept ? { content: t.t('me:kept.note', { until: timestamp(keptUntil, 'R') }) } : {}),
    components: rows,
  };
}

function forgetRow(t: Translator, forgetId: string): Row {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Danger,
        custom_id: forgetId,
        label: truncate(t.t('me:kept.forgetButton'), DiscordLimits.buttonLabel),
      },
    ],
  };
}

/** The answer to "Forget my token" and `/me forget`. */
export function renderForgotten(t: Translator, wasKept: boolean): ReplyPayload {
  return reply({
    color: Colors.success,
    title: t.t(wasKept ? 'me:kept.forgottenTitle' : 'me:kept.noneTitle'),
    description: t.t(wasKept ? 'me:kept.forgotten' : 'me:kept.none'),
  });
}

/** The Forget button's update of the reply it sits on: the data stays, the note and button go. */
export function forgottenUpdate(
  t: Translator,
  embeds: readonly APIEmbed[],
  otherRows: readonly Row[],
): ReplyPayload {
  return { content: t.t('me:kept.forgottenNote'), embeds: [...embeds], components: [...otherRows] };
}

export function renderWallet(t: Translator, wallet: Wallet): ReplyPayload {
  const currencies = (wallet.currencies ?? []).slice(0, 24);
  return reply({
    color: Colors.gold,
    title: t.t('me:wallet.title'),
    fields: [
      field(t.t('me:wallet.kr'), num(t, wallet.kr)),
      ...currencies.map((currency) =>
        field(text(currency.name || String(currency.id), 100), num(t, currency.amount)),
      ),
    ],
    ...(currencies.length === 0 ? { description: t.t('me:wallet.noCurrencies') } : {}),
  });
}

function skinList(t: Translator, names: SkinNames, indices: readonly number[] | undefined): string {
  if (!indices || indices.length === 0) return t.t('common:none');
  const shown = indices.slice(0, 8).map((index) => skin(t, names, index));
  const rest = indices.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} ${t.t('me:trades.andMore', { n: rest })}` : shown.join(', ');
}

/**
 * Which way the KR went, from the token owner's side: `kr` is signed like a change of their balance
 * (above 0 they received it, below 0 they gave it). The spec gives only `kr`; the sign is the
 * convention docs/secrets.md states, and an unsigned upstream reads as received.
 */
export type KrDirection = 'received' | 'given' | 'none';

export function krDirection(kr: number | undefined): KrDirection {
  if (kr === undefined || kr === 0 || !Number.isFinite(kr)) return 'none';
  return kr > 0 ? 'received' : 'given';
}

function krLine(t: Translator, kr: number | undefined): string {
  const direction = krDirection(kr);
  if (direction === 'none') return t.t('me:trades.krNone');
  return t.t(direction === 'received' ? 'me:trades.krReceived' : 'me:trades.krGiven', {
    kr: num(t, Math.abs(kr ?? 0)),
  });
}

export function renderTrades(
  t: Translator,
  trades: TradesHistory,
  page: number,
  skinName: SkinNames,
  past?: PastTimes,
): ReplyPayload {
  const shown = trades.trades.slice(0, ME_PAGE_SIZE);
  const fields = shown.map((trade) => {
    const state =
      trade.st === 0 || trade.st === 1 || trade.st === 2
        ? t.t(`me:trades.state.${trade.st}`)
        : t.t('common:unknown');
    return field(
      t.t('me:trades.fieldName', {
        id: trade.id,
        partner: trade.pn ? text(trade.pn, 64) : t.t('common:unknown'),
        state,
      }),
      [
        t.t('me:trades.given', { skins: skinList(t, skinName, trade.gv) }),
        t.t('me:trades.received', { skins: skinList(t, skinName, trade.rc) }),
        krLine(t, trade.kr),
        pastTimestamp(trade.ts, 'f', past),
      ].join('\n'),
      false,
    );
  });
  return reply({
    color: Colors.info,
    title: t.t('me:trades.title'),
    ...(fields.length === 0 ? { description: t.t('me:trades.none') } : {}),
    fields,
    footer: { text: t.t('me:page', { page }) },
  });
}

interface Standing {
  readonly mmr?: number | undefined;
  readonly wins?: number | undefined;
  readonly losses?: number | undefined;
  readonly kills?: number | undefined;
  readonly deaths?: number | undefined;
}

function standing(t: Translator, row: Standing) {
  const games = (row.wins ?? 0) + (row.losses ?? 0);
  return [
    t.t('me:ranked.mmr', { mmr: num(t, row.mmr) }),
    t.t('me:ranked.record', {
      wins: num(t, row.wins),
      losses: num(t, row.losses),
      rate: percent(t, row.wins, games),
    }),
    t.t('me:ranked.kd', {
      kills: num(t, row.kills),
      deaths: num(t, row.deaths),
      kd: row.kills !== undefined && row.deaths ? ratio(t, row.kills / row.deaths) : '—',
    }),
  ].join('\n');
}

function seasonText(t: Translator, season: number | undefined): string {
  return season ? t.t('common:season', { season }) : t.t('common:currentSeason');
}

export function renderRankedProfile(t: Translator, profile: RankedProfile): ReplyPayload {
  const regions = profile.regions.slice(0, 24);
  return reply({
    color: Colors.info,
    title: t.t('me:ranked.title', { season: seasonText(t, profile.season) }),
    ...(regions.length === 0 ? { description: t.t('me:ranked.none') } : {}),
    fields: regions.map((region) => field(regionLabel(t, region.region), standing(t, region))),
  });
}

export function renderRankedProfileRegion(t: Translator, profile: RankedProfileRegion): ReplyPayload {
  return reply({
    color: Colors.info,
    title: t.t('me:ranked.title', { season: seasonText(t, profile.season) }),
    fields: [field(regionLabel(t, profile.region), standing(t, profile))],
  });
}

function resultMark(result: number | undefined): string {
  if (result === 1) return '🟩';
  if (result === 0) return '🟥';
  if (result === -1) return '⬜';
  return '▫️';
}

export function renderMatchHistory(
  t: Translator,
  history: MatchHistory,
  page: number,
  mapName: MapNames,
  past?: PastTimes,
): ReplyPayload {
  const lines = history.matches.slice(0, ME_PAGE_SIZE).map((match) => {
    const result =
      match.result === 1 ? 'win' : match.result === -1 ? 'draw' : match.result === 0 ? 'loss' : 'unknown';
    const map = match.map === undefined ? undefined : mapName(match.map);
    return t.t('me:matches.line', {
      mark: resultMark(match.result),
      result: t.t(`me:matches.result.${result}`),
      map: map
        ? text(map, 60)
        : match.map === undefined
          ? t.t('common:unknown')
          : unknownName(t, 'map', match.map),
      kills: num(t, match.kills),
      deaths: num(t, match.deaths),
      score: num(t, match.score),
      region: regionLabel(t, match.region),
      when: pastTimestamp(match.date, 'R', past),
    });
  });
  return reply({
    color: Colors.info,
    title: t.t('me:matches.title'),
    description: lines.length > 0 ? lines.join('\n') : t.t('me:matches.none'),
    footer: {
      text:
        history.total === undefined
          ? t.t('me:page', { page })
          : t.t('me:matches.footer', { page, count: history.total, total: num(t, history.total) }),
    },
  });
}
