import { describe, expect, it } from 'vitest';
import { ClanRecruitmentSchema } from '../../../../src/api/schemas/index.ts';
import { clanPageButtons, clanPageIds } from '../../../../src/features/clans/page/ids.ts';
import {
  buttonLabel,
  languageLabel,
  RECRUIT_PAGE_SIZE,
  renderRecruitment,
  type RecruitmentView,
} from '../../../../src/features/clans/page/recruitment.ts';
import {
  HOSTILE,
  LONG,
  buttons,
  descriptionLines,
  expectSafe,
  translators,
  useSandboxApi,
} from '../../../support/render.ts';

/** `/clan recruitment`: a page of recruiting clans, each a button to its profile, paged by the API. */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const { en, fr } = translators;
const live = useSandboxApi({ now: () => NOW }, 'none');

function board(count: number, name: (i: number) => string = (i) => `Clan${i + 1}`) {
  return ClanRecruitmentSchema.parse({
    page: 1,
    limit: RECRUIT_PAGE_SIZE,
    clans: Array.from({ length: count }, (_, i) => ({
      clan_id: i + 1,
      name: name(i),
      region: [2, 3, 4, 9][i % 4],
      language: ['en', 'de', 'xx-invalid-code!', 'pt'][i % 4],
      member_count: i + 3,
    })),
  });
}

function view(data: ReturnType<typeof board>, page = 1, region?: number, language?: string): RecruitmentView {
  const state = { region, language, page };
  return {
    data,
    region,
    language,
    page,
    pager: clanPageButtons.recruitPager(state, NOW),
    openId: (name) => clanPageButtons.open(name, state, NOW),
  };
}

describe('recruitment board', () => {
  it('lists a page of clans with region, language and size, each a button that opens its profile', () => {
    const payload = renderRecruitment(en, view(board(10), 2, 3, 'de'));
    expectSafe(payload);
    const lines = descriptionLines(payload);
    expect(lines[0]).toBe('Region: Europe · language: German');
    expect(lines[2]).toBe('**#11** **Clan1** · Asia · English · 👥 3');
    expect(lines[3]).toBe('**#12** **Clan2** · Europe · German · 👥 4');
    expect(lines[4]).toBe('**#13** **Clan3** · North America · xx-invalid-code! · 👥 5');
    expect(lines[5]).toBe('**#14** **Clan4** · Unknown region 9 · Portuguese · 👥 6');
    const all = buttons(payload);
    // Two rows of five clans, then the pager.
    expect(payload.components?.map((row) => row.components.length)).toEqual([5, 5, 3]);
    expect(all[0]?.label).toBe('Clan1');
    expect(all[0]?.id && clanPageIds.decode(all[0].id)).toMatchObject({
      action: 'open',
      args: { name: 'Clan1', region: '3', language: 'de', page: '2' },
    });
    const next = all.at(-1);
    expect(next?.disabled).toBe(false);
    expect(next?.id && clanPageIds.decode(next.id)?.args).toEqual({ region: '3', language: 'de', page: '3' });
  });

  it('has no pager on a lone short page, and says when nobody recruits', () => {
    const short = renderRecruitment(en, view(board(3)));
    expect(short.components?.map((row) => row.components.length)).toEqual([3]);
    const none = renderRecruitment(fr, view(board(0)));
    expect(descriptionLines(none)).toEqual([
      'Région : toutes · langue : toutes',
      '',
      'Aucun clan ne recrute avec ces filtres.',
    ]);
    expect(none.components).toEqual([]);
    const past = renderRecruitment(en, view(board(0), 4));
    expect(descriptionLines(past).at(-1)).toBe('No more clans on this page.');
    expect(buttons(past).at(-1)?.disabled).toBe(true);
  });

  it('keeps hostile names inert in lines and plain in button labels, bounded to a page', () => {
    const hostile = board(40, (i) => (i % 2 ? HOSTILE : `${LONG}\n<@1>`));
    for (const t of Object.values(translators)) expectSafe(renderRecruitment(t, view(hostile)));
    const payload = renderRecruitment(en, view(hostile));
    expect(descriptionLines(payload).slice(2)).toHaveLength(RECRUIT_PAGE_SIZE);
    expect(buttonLabel(`a\nb\u0000c`)).toBe('a b c');
    expect(buttonLabel('\n')).toBe('?');
    expect(buttonLabel('@everyone <@1>')).toBe('@\u200beveryone <\u200b@1>');
    expect(buttonLabel(LONG)).toHaveLength(80);
    expect(languageLabel(en, '**de**')).toBe('\\*\\*de\\*\\*');
  });

  it('renders the sandbox board filtered by region', async () => {
    const data = await live.client.api.clanRecruitment({ page: 1, limit: RECRUIT_PAGE_SIZE, region: 2 });
    const payload = renderRecruitment(en, view(data, 1, 2));
    expectSafe(payload);
    expect(data.clans.length).toBeGreaterThan(0);
    const shown = descriptionLines(payload).slice(2);
    expect(shown).toHaveLength(data.clans.length);
    for (const line of shown) expect(line).toContain(' · Asia · ');
    expect(buttons(payload).filter((b) => b.id?.action === 'open')).toHaveLength(data.clans.length);
  });
});
