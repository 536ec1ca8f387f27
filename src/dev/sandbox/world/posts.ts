import { POST_TEXTS } from '../names.ts';
import type { WorldContext } from './common.ts';
import type { Player, Post } from './types.ts';

export function makePosts({ rng, daysAgo }: WorldContext, players: readonly Player[]): Post[] {
  const posts: Post[] = [];
  let nextPostId = 50_000;
  for (const player of players) {
    if (player.stats.games === 0) continue;
    const count = rng.chance(0.5) ? rng.int(1, 14) : 0;
    const times = Array.from({ length: count }, () => daysAgo(rng.int(0, 300))).sort((a, b) => a - b);
    for (const dateMs of times) {
      nextPostId += rng.int(1, 40);
      posts.push({
        id: nextPostId,
        playerId: player.id,
        dateMs,
        text: rng.pick(POST_TEXTS),
        votes: rng.int(0, 400),
        commentCount: rng.int(0, 40),
      });
    }
  }
  posts.sort((a, b) => a.dateMs - b.dateMs || a.id - b.id);
  return posts;
}
