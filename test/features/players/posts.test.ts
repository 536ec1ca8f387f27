import { describe, expect, it } from 'vitest';
import { renderPosts } from '../../../src/features/players/render.ts';
import { expectSafe, translators } from '../../support/render.ts';

/** `/player posts`: page buttons only when there is something to page. */
const pager = { page: (p: number) => `player:posts:P:${p}~zz`, label: 'player:page-label~zz' };
const post = (i: number) => ({ text: `post ${i}`, votes: i, comment_count: 0, date: '2026-11-20T12:00:00Z' });
const labels = (payload: ReturnType<typeof renderPosts>) =>
  (payload.components?.[0]?.components ?? []).map((b) => ('label' in b ? b.label : undefined));

describe('player posts pages', () => {
  it('shows no page buttons on a first page with no posts, or with fewer than a page', () => {
    for (const posts of [[], [post(1), post(2)]]) {
      const payload = renderPosts(translators.en, {
        name: 'P',
        data: { posts, per_page: 10 },
        page: 1,
        pager,
      });
      expectSafe(payload);
      expect(payload.components).toEqual([]);
    }
  });

  it('keeps them where there is a next page, or a page before', () => {
    const full = renderPosts(translators.en, {
      name: 'P',
      data: { posts: Array.from({ length: 10 }, (_, i) => post(i)), per_page: 10 },
      page: 1,
      pager,
    });
    expect(labels(full)).toEqual(['◀ Previous', 'Page 1', 'Next ▶']);
    const last = renderPosts(translators.en, {
      name: 'P',
      data: { posts: [], per_page: 10 },
      page: 3,
      pager,
    });
    expect(labels(last)).toEqual(['◀ Previous', 'Page 3', 'Next ▶']);
  });
});
