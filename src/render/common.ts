import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
  type APISelectMenuOption,
} from 'discord.js';
import { parseTime } from '../core/time.ts';
import type { Translator } from '../i18n/index.ts';
import { unknownName } from './names.ts';
import { DiscordLimits, embedLength, safeText, textLength, truncate } from './text.ts';

/**
 * Small pieces every renderer uses: fields cut to Discord's limits, timestamps, numbers, and the
 * pagination row. Renderers stay pure: the current time comes in as an argument.
 */
export type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

/** The most rows one page shows, whatever `per_page` an upstream reply claims. */
export const MAX_PAGE_ROWS = 25;

/**
 * The rows of one page, cut before any of them is formatted: an upstream list may hold far more than the
 * page it claims to be, and formatting what is then cut away would cost time for nothing.
 */
export function pageRows<T>(rows: readonly T[], perPage: number | undefined): T[] {
  const size = perPage !== undefined && Number.isFinite(perPage) ? Math.floor(perPage) : MAX_PAGE_ROWS;
  return rows.slice(0, Math.min(MAX_PAGE_ROWS, Math.max(1, size)));
}

/** A field whose name and value are already safe text (escaped where they came from the game). */
export function field(name: string, value: string, inline = true): APIEmbedField {
  return {
    name: truncate(name || '\u200b', DiscordLimits.fieldName),
    value: truncate(value || '—', DiscordLimits.fieldValue),
    inline,
  };
}

/** A Discord timestamp (`<t:…:R>`), shown in every reader's own time zone and language. */
export function timestamp(
  value: string | number | Date | undefined,
  style: 'R' | 'f' | 'D' | 'd' | 'F' = 'f',
): string {
  const ms = epochMs(value);
  return Number.isFinite(ms) ? `<t:${Math.floor(ms / 1000)}:${style}>` : '—';
}

/**
 * The reader's "now" for times of past events (a match played, a listing made, a post written), and who
 * hears about a time after it. Renderers cannot log: {@link pastTimes} turns a logger into one.
 */
export interface PastTimes {
  readonly now: number;
  readonly onFuture?: ((at: number) => void) | undefined;
}

/** A future time within this much of now is clock skew: clamped, but not worth a warning. */
export const FUTURE_SKEW_MS = 60_000;

function epochMs(value: string | number | Date | undefined): number {
  if (value === undefined || value === '') return Number.NaN;
  return value instanceof Date ? value.getTime() : typeof value === 'number' ? value : parseTime(value);
}

/**
 * A past event's time. One after `past.now` is a data problem (a server clock, a bad seed): it is shown
 * as now, never as "in 10 hours", and reported through `past.onFuture`. Without `past` it is
 * {@link timestamp}.
 */
export function pastTimestamp(
  value: string | number | Date | undefined,
  style: 'R' | 'f' | 'D' | 'd' | 'F',
  past: PastTimes | undefined,
): string {
  const ms = epochMs(value);
  if (past === undefined || !Number.isFinite(ms) || ms <= past.now) return timestamp(value, style);
  if (ms > past.now + FUTURE_SKEW_MS) past.onFuture?.(ms);
  return timestamp(past.now, style);
}

/** What {@link pastTimes} needs of a logger (pino's `warn`), so that renderers need no logger of their own. */
export interface WarnLog {
  warn(detail: Record<string, unknown>, message: string): void;
}

let futureWarned = false;

/**
 * {@link PastTimes} for one reply: the first time in the future this process meets is logged as a warning
 * (once: a bad data source would otherwise log on every reply); later ones are only clamped.
 */
export function pastTimes(now: number, log: WarnLog): PastTimes {
  return {
    now,
    onFuture(at) {
      if (futureWarned) return;
      futureWarned = true;
      log.warn(
        { at: new Date(at).toISOString(), now: new Date(now).toISOString(), aheadMs: at - now },
        'the game API sent a time in the future; shown as now (logged once per process)',
      );
    },
  };
}

/** Lets a test see the once-per-process warning again. */
export function resetFutureTimeWarning(): void {
  futureWarned = false;
}

/** A number in the reader's locale, or a dash when the field was absent. */
export function num(t: Translator, value: number | undefined, options?: Intl.NumberFormatOptions): string {
  return value === undefined || !Number.isFinite(value) ? '—' : t.n(value, options);
}

/** An amount of KR, the game's currency; `—` when unknown. */
export function kr(t: Translator, value: number | undefined, fractions = 0): string {
  return value === undefined
    ? '—'
    : t.t('market:kr', { value: num(t, value, { maximumFractionDigits: fractions }) });
}

export function ratio(t: Translator, value: number | undefined): string {
  return num(t, value, { maximumFractionDigits: 2, minimumFractionDigits: 2 });
}

export function percent(t: Translator, part: number | undefined, whole: number | undefined): string {
  if (part === undefined || whole === undefined || whole <= 0) return '—';
  return t.n(part / whole, { style: 'percent', maximumFractionDigits: 1 });
}

/** Seconds as `3d 4h`, `5h 12m`, `42m`. */
export function duration(t: Translator, seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return t.t('common:duration.dh', { d: t.n(days), h: hours });
  if (hours > 0) return t.t('common:duration.hm', { h: hours, m: minutes });
  return t.t('common:duration.m', { m: minutes });
}

/** A game or user string for an embed: markdown escaped, cut to `max`. */
export function text(value: string | undefined | null, max: number = DiscordLimits.fieldValue): string {
  return safeText(value, max);
}

/**
 * Keeps an embed within the 6000-character total (and each part within its own limit) by cutting the
 * description, then dropping trailing fields. Renderers build generously and call this last.
 */
export function fit(embed: APIEmbed): APIEmbed {
  const fitted: APIEmbed = { ...embed };
  if (fitted.title) fitted.title = truncate(fitted.title, DiscordLimits.embedTitle);
  if (fitted.description) fitted.description = truncate(fitted.description, DiscordLimits.embedDescription);
  if (fitted.footer)
    fitted.footer = { ...fitted.footer, text: truncate(fitted.footer.text, DiscordLimits.footer) };
  if (fitted.author)
    fitted.author = { ...fitted.author, name: truncate(fitted.author.name, DiscordLimits.author) };
  if (fitted.fields) fitted.fields = fitted.fields.slice(0, DiscordLimits.embedFields);
  let over = embedLength(fitted) - DiscordLimits.embedTotal;
  if (over > 0 && fitted.description) {
    const keep = Math.max(0, textLength(fitted.description) - over);
    if (keep > 0) fitted.description = truncate(fitted.description, keep);
    else delete fitted.description;
    over = embedLength(fitted) - DiscordLimits.embedTotal;
  }
  while (over > 0 && fitted.fields && fitted.fields.length > 0) {
    fitted.fields = fitted.fields.slice(0, -1);
    over = embedLength(fitted) - DiscordLimits.embedTotal;
  }
  return fitted;
}

/**
 * The custom ids of a pager's buttons, made by the command that owns them (renderers do not know how
 * ids are written): one per page, and one for the disabled label between "previous" and "next".
 */
export interface Pager {
  /** The id of the button that shows `page`; undefined when it does not fit. */
  page(page: number): string | undefined;
  readonly label: string | undefined;
}

export interface PageControls {
  readonly pager: Pager;
  readonly page: number;
  /** Undefined when the API does not say how many pages there are (then "next" stays on while pages are full). */
  readonly totalPages?: number | undefined;
  readonly hasNext: boolean;
}

/** Previous / page x of y / next; no row when one of the ids does not fit. */
export function pageRow(t: Translator, controls: PageControls): Row | undefined {
  const previous = controls.pager.page(controls.page - 1);
  const next = controls.pager.page(controls.page + 1);
  const label = controls.pager.label;
  if (!previous || !next || !label) return undefined;
  const buttons: APIButtonComponent[] = [
    {
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: previous,
      label: t.t('common:pages.previous'),
      disabled: controls.page <= 1,
    },
    {
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: label,
      label: truncate(
        controls.totalPages === undefined
          ? t.t('common:pages.page', { page: t.n(controls.page) })
          : t.t('common:pages.pageOf', { page: t.n(controls.page), total: t.n(controls.totalPages) }),
        DiscordLimits.buttonLabel,
      ),
      disabled: true,
    },
    {
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: next,
      label: t.t('common:pages.next'),
      disabled: !controls.hasNext,
    },
  ];
  return { type: ComponentType.ActionRow, components: buttons };
}

/** A select menu row (the profile's sections). */
export function selectRow(
  customId: string,
  options: readonly APISelectMenuOption[],
  placeholder: string,
): Row {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: customId,
        placeholder: truncate(placeholder, 150),
        options: options.slice(0, 25).map((option) => ({
          ...option,
          label: truncate(option.label, DiscordLimits.selectOptionLabel),
          ...(option.description === undefined
            ? {}
            : { description: truncate(option.description, DiscordLimits.selectOptionDescription) }),
        })),
      },
    ],
  };
}

/** Region ids of the ranked API (2 Asia, 3 Europe, 4 North America); others read "Unknown region 5". */
export function regionLabel(t: Translator, region: number | undefined): string {
  if (region === undefined) return '—';
  return [2, 3, 4].includes(region) ? t.t(`common:regions.${region}`) : unknownName(t, 'region', region);
}

/** One page of a player's list (matches, listings, posts) and what its buttons need. */
export interface PageView<T> {
  readonly name: string;
  readonly data: T;
  readonly page: number;
  readonly pager: Pager;
  /** Now, for the times of past events (one after it is shown as now and reported). */
  readonly past?: PastTimes | undefined;
}
