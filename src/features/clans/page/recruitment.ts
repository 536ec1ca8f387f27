import { ButtonStyle, ComponentType, type APIButtonComponent } from 'discord.js';
import type { ClanRecruitment } from '../../../api/schemas/index.ts';
import type { Translator } from '../../../i18n/index.ts';
import { fit, num, pageRow, regionLabel, text, type Pager, type Row } from '../../../render/common.ts';
import { Colors, type ReplyPayload } from '../../../render/payload.ts';
import { DiscordLimits, truncate } from '../../../render/text.ts';

/**
 * `/clan recruitment`: the game's recruitment board (`/clans/recruitment`), paged by the API, each clan a
 * button that opens its profile. Ten clans a page: two rows of five buttons, and the pager's row.
 */
export const RECRUIT_PAGE_SIZE = 10;
export const RECRUIT_REGIONS = [2, 3, 4] as const;
/** The languages offered as filters: the bot's own eight, as two-letter codes. */
export const RECRUIT_LANGUAGES = ['en', 'de', 'es', 'fr', 'pl', 'pt', 'ru', 'tr'] as const;
const NAME_MAX = 40;
const BUTTONS_PER_ROW = 5;
const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export function isRecruitRegion(value: number | undefined): boolean {
  return value !== undefined && (RECRUIT_REGIONS as readonly number[]).includes(value);
}

export function isRecruitLanguage(value: string | undefined): boolean {
  return value !== undefined && (RECRUIT_LANGUAGES as readonly string[]).includes(value);
}

const languageNames = new Map<string, Intl.DisplayNames>();

/** A language code in the reader's language ("Deutsch", "German"); a code that is none is shown as data. */
export function languageLabel(t: Translator, code: string | undefined): string {
  if (code === undefined || code.trim() === '') return '—';
  if (!LANGUAGE_CODE.test(code)) return text(code, 16);
  let names = languageNames.get(t.locale);
  if (!names) {
    names = new Intl.DisplayNames(t.locale, { type: 'language', fallback: 'code' });
    languageNames.set(t.locale, names);
  }
  try {
    return text(names.of(code) ?? code, 40);
  } catch {
    return text(code, 16);
  }
}

const LINE_BREAKS = /[\r\n\u2028\u2029\u0085\p{Cc}]+/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const BROADCAST = /@(everyone|here)/gi;
const ENTITY = /<([@#/])/g;

/**
 * A clan name as a button label. Labels show plain text (no markdown, no mentions), so the name keeps its
 * look; line breaks and broken characters go, and a mention or a masked link is still broken with a
 * zero-width space, as everywhere else, so that no label ever reads like one.
 */
export function buttonLabel(name: string): string {
  const plain = name
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(LINE_BREAKS, ' ')
    .replace(BROADCAST, '@\u200b$1')
    .replace(ENTITY, '<\u200b$1')
    .replaceAll('](', ']\u200b(')
    .trim();
  return truncate(plain === '' ? '?' : plain, DiscordLimits.buttonLabel);
}

export interface RecruitmentView {
  readonly data: ClanRecruitment;
  readonly region: number | undefined;
  readonly language: string | undefined;
  readonly page: number;
  readonly pager: Pager;
  /** The id of the button that opens a clan's profile (undefined: that clan gets no button). */
  readonly openId: (clanName: string) => string | undefined;
}

function clanButtons(view: RecruitmentView, clans: ClanRecruitment['clans']): Row[] {
  const buttons: APIButtonComponent[] = [];
  const seen = new Set<string>();
  for (const clan of clans) {
    const id = view.openId(clan.name);
    if (!id || seen.has(id)) continue;
    seen.add(id);
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Primary,
      custom_id: id,
      label: buttonLabel(clan.name),
    });
  }
  const rows: Row[] = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW)
    rows.push({ type: ComponentType.ActionRow, components: buttons.slice(i, i + BUTTONS_PER_ROW) });
  return rows;
}

function filters(t: Translator, view: RecruitmentView): string {
  return t.t('clan:recruitment.filters', {
    region: view.region === undefined ? t.t('clan:recruitment.anyRegion') : regionLabel(t, view.region),
    language:
      view.language === undefined ? t.t('clan:recruitment.anyLanguage') : languageLabel(t, view.language),
  });
}

export function renderRecruitment(t: Translator, view: RecruitmentView): ReplyPayload {
  const clans = view.data.clans.slice(0, RECRUIT_PAGE_SIZE);
  const first = (view.page - 1) * RECRUIT_PAGE_SIZE;
  const lines = clans.map((clan, i) =>
    t.t('clan:recruitment.line', {
      position: t.n(first + i + 1),
      name: text(clan.name, NAME_MAX),
      region: regionLabel(t, clan.region),
      language: languageLabel(t, clan.language),
      members: num(t, clan.member_count),
    }),
  );
  const none = t.t(view.page > 1 ? 'clan:recruitment.noneOnPage' : 'clan:recruitment.none');
  const pager = pageRow(t, {
    pager: view.pager,
    page: view.page,
    hasNext: view.data.clans.length >= RECRUIT_PAGE_SIZE,
  });
  const showPager = pager && (view.page > 1 || view.data.clans.length >= RECRUIT_PAGE_SIZE);
  return {
    embeds: [
      fit({
        color: Colors.brand,
        title: t.t('clan:recruitment.title'),
        description: `${filters(t, view)}\n\n${lines.length > 0 ? lines.join('\n') : none}`,
        footer: { text: t.t('clan:recruitment.footer') },
      }),
    ],
    components: [...clanButtons(view, clans), ...(showPager ? [pager] : [])],
  };
}
