import type { SandboxContext } from '../context.ts';
import { badRequest, intParam, notFound, type Route } from '../http.ts';
import { DAY_MS, iso } from '../time.ts';
import type { Post, World } from '../world/types.ts';
import { route } from './common.ts';

function feedPost(post: Post, author: string): Record<string, unknown> {
  return { id: post.id, author, t: post.text, v: post.votes, c: post.commentCount, d: iso(post.dateMs) };
}

export function socialRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  return [
    route('/social/feed', ({ query }) => {
      const tab = query.get('tab') ?? 'global';
      if (tab !== 'global') throw badRequest('invalid tab');
      return {
        posts: world.posts
          .slice(-30)
          .reverse()
          .map((post) => feedPost(post, index.playerById(post.playerId)?.name ?? '')),
      };
    }),
    route('/social/news', () => ({ posts: news(world) })),
    route('/social/post/{id}', ({ params }) => {
      const post = index.post(intParam(params['id'] ?? '', 'id'));
      if (!post) throw notFound('Post');
      return feedPost(post, index.playerById(post.playerId)?.name ?? '');
    }),
  ];
}

function news(world: World): Record<string, unknown>[] {
  return [
    { title: 'Turf wars: a new season', body: 'Claim Burg, Sandstorm and Subzero for your clan.' },
    { title: 'Market update', body: 'Listings now show their full history.' },
    { title: 'Ranked season', body: `Season ${world.currentSeason} is live in every region.` },
    { title: 'Map Jam', body: 'Build a map in two weeks and win a featured spot.' },
  ].map((item, i) => ({ id: 900 + i, ...item, date: iso(world.anchorMs - (i * 5 + 1) * DAY_MS) }));
}
