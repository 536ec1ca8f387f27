import type { Mod, ModsPage } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import {
  field,
  fit,
  num,
  pageRow,
  pageRows,
  pastTimestamp,
  text,
  type Pager,
  type PastTimes,
} from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

const PER_PAGE = 10;
const FEATURED_MARK = '⭐';

export interface ModListView {
  readonly data: ModsPage;
  readonly page: number;
  readonly pager: Pager;
}

/** One page of mods, in the API's order (votes descending), with featured marks and creators. */
export function renderModList(t: Translator, { data, page, pager }: ModListView): ReplyPayload {
  const perPage = data.per_page ?? PER_PAGE;
  const lines = pageRows(data.mods, perPage).map((mod, i) =>
    t.t('mods:list.line', {
      rank: t.n((page - 1) * perPage + i + 1),
      mark: mod.featured ? `${FEATURED_MARK} ` : '',
      name: text(mod.name, 60),
      creator: text(mod.creator_name, 40),
      votes: num(t, mod.votes),
    }),
  );
  const embed = fit({
    color: Colors.brand,
    title: t.t('mods:list.title'),
    description: lines.length > 0 ? lines.join('\n') : t.t('mods:list.none'),
    footer: { text: t.t('mods:list.footer', { mark: FEATURED_MARK }) },
  });
  const row = pageRow(t, { pager, page, hasNext: data.mods.length >= perPage });
  return { embeds: [embed], components: row ? [row] : [] };
}

/** One mod: creator, votes, version, featured, dates and its (escaped) description. */
export function renderModInfo(t: Translator, mod: Mod, past?: PastTimes): ReplyPayload {
  const description = mod.description?.trim() ? text(mod.description, 3500) : t.t('mods:info.noDescription');
  const embed = fit({
    color: mod.featured ? Colors.gold : Colors.info,
    title: `${mod.featured ? `${FEATURED_MARK} ` : ''}${text(mod.name, 200)}`,
    description,
    fields: [
      field(t.t('mods:info.creator'), text(mod.creator_name, 100)),
      field(t.t('mods:info.votes'), num(t, mod.votes)),
      field(t.t('mods:info.version'), num(t, mod.version)),
      field(
        t.t('mods:info.featured'),
        mod.featured === undefined ? '—' : t.t(mod.featured ? 'common:yes' : 'common:no'),
      ),
      field(t.t('mods:info.created'), pastTimestamp(mod.created_at, 'D', past)),
      field(t.t('mods:info.updated'), pastTimestamp(mod.updated_at, 'R', past)),
    ],
    footer: { text: t.t('mods:info.id', { id: mod.mod_id }) },
  });
  return { embeds: [embed] };
}
